// RFC 3986 §3, §4.1, Appendix A: URI-reference = URI / relative-ref, parsed in one
// left-to-right pass that splits as Appendix B does and checks every character
// against the ABNF of its component. The first character that breaks the grammar
// is reported with its index; nothing throws.

import type { UriErrorCode } from '../errors.js';
import * as charTables from './char-tables.js';
import { scanIPLiteralBody } from './ip-literal.js';
import { fail, ok, type Result } from './result.js';
import type { AbsoluteUri, UriReference } from './uri-reference.js';

// Module-level copies: the per-character loops below read them as local slots, not
// as imported bindings (each read of one is checked for initialization). About 15%
// of a parse on the corpus of real hrefs.
const { CHAR_CLASS, PATH, QUERY, REG_NAME, SCHEME_CHAR, SEGMENT_NZ_NC, USERINFO, hexValue, isAlpha, isDigit } = charTables;

const PERCENT = 0x25;
const SLASH = 0x2f;
const COLON = 0x3a;
const QUESTION = 0x3f;
const HASH = 0x23;
const OPEN_BRACKET = 0x5b;
const AT = 0x40;

// Index of the first character of s[start, end) that is neither in `mask` nor part of a
// valid pct-encoded triplet, or -1. A "%" found there is a bad pct-encoding.
function scanComponent(s: string, start: number, end: number, mask: number): number {
  const stop = scanRun(s, start, end, mask);
  return stop === end ? -1 : stop;
}

// Index of the first character from `start` on that is neither in `mask` nor part
// of a valid pct-encoded triplet (RFC 3986 §2.1 pct-encoded = "%" HEXDIG HEXDIG);
// `end` when there is none before it.
function scanRun(s: string, start: number, end: number, mask: number): number {
  let i = start;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c < 128 && (CHAR_CLASS[c]! & mask) !== 0) {
      i++;
    } else if (c === PERCENT && i + 2 < end && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      i += 3;
    } else {
      break;
    }
  }
  return i;
}

// A bad pct-encoding is reported at the first character after "%" that is not a HEXDIG.
function componentError(s: string, index: number, code: UriErrorCode): Result<never> {
  if (s.charCodeAt(index) !== PERCENT) return fail(code, index);
  const firstBad = hexValue(s.charCodeAt(index + 1)) < 0 ? index + 1 : index + 2;
  return fail('ERR_URI_BAD_PERCENT', Math.min(firstBad, s.length));
}

/** What `codeAt` gives past the end of the input. */
const END = -1;

// The code unit at i, or END past the end. Reading past the end with charCodeAt (NaN)
// works, but each new place that does so deoptimizes the optimized parser once more.
function codeAt(s: string, i: number): number {
  return i < s.length ? s.charCodeAt(i) : END;
}

// Whether code unit c ends an authority (RFC 3986 §3.2: "/", "?", "#" or the end).
function endsAuthority(c: number): boolean {
  return c === SLASH || c === QUESTION || c === HASH || c === END;
}

/**
 * RFC 3986 §4.1 URI-reference = URI / relative-ref.
 * Components absent from the input are `undefined`; present but empty, `""`.
 */
export function parseUriReference(input: string): Result<UriReference> {
  const n = input.length;
  let scheme: string | undefined;
  let p = 0;
  // Where the path scan may start: a run of scheme characters that ends without ":"
  // is the start of a path, and every scheme character is a path character too.
  let scanned = 0;

  // §3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":"
  if (n > 0 && isAlpha(input.charCodeAt(0))) {
    let i = 1;
    while (i < n) {
      const c = input.charCodeAt(i);
      if (c >= 128 || (CHAR_CLASS[c]! & SCHEME_CHAR) === 0) break;
      i++;
    }
    if (i < n && input.charCodeAt(i) === COLON) {
      scheme = input.slice(0, i);
      p = i + 1;
    } else {
      scanned = i;
    }
  }

  // §3.2 "//" authority
  let userinfo: string | undefined;
  let host: string | undefined;
  let port: string | undefined;
  if (p + 1 < n && input.charCodeAt(p) === SLASH && input.charCodeAt(p + 1) === SLASH) {
    // Fast path: one scan per subcomponent. Anything unexpected goes to the
    // precise parser, which finds the right error code and index.
    const start = p + 2;
    let hostStart = start;
    let i = scanRun(input, start, n, USERINFO);
    if (codeAt(input, i) === AT) {
      userinfo = input.slice(start, i);
      hostStart = i + 1;
      i = codeAt(input, hostStart) === OPEN_BRACKET ? hostStart : scanRun(input, hostStart, n, REG_NAME);
    } else {
      // No "@": the run is host [ ":" port ]. A reg-name holds no ":" and is otherwise
      // made of the userinfo's characters (§3.2.1, §3.2.2), so it ends at the first ":".
      const colon = input.indexOf(':', start);
      if (colon !== -1 && colon < i) i = colon;
    }
    let end = -1;
    if (i === hostStart && codeAt(input, i) === OPEN_BRACKET) {
      // IP-literal: left to the precise parser.
    } else if (codeAt(input, i) === COLON) {
      let j = i + 1;
      while (isDigit(codeAt(input, j))) j++;
      if (endsAuthority(codeAt(input, j))) {
        host = input.slice(hostStart, i);
        port = input.slice(i + 1, j);
        end = j;
      }
    } else if (endsAuthority(codeAt(input, i))) {
      host = input.slice(hostStart, i);
      end = i;
    }
    if (end === -1) {
      const authority = parseAuthority(input, start);
      if (!authority.ok) return authority;
      ({ userinfo, host, port, end } = authority.value);
    }
    p = end;
  }

  // §3.3 path: path-abempty after an authority; path-absolute / path-rootless /
  // path-empty after a scheme; path-noscheme / path-absolute / path-empty otherwise.
  const pathStart = p;
  if (scheme === undefined && host === undefined && p < n && input.charCodeAt(p) !== SLASH) {
    // §4.2 path-noscheme: the first segment may not hold a ":" (it would read as a scheme).
    const stop = scanRun(input, scanned, n, SEGMENT_NZ_NC);
    if (codeAt(input, stop) === COLON) return fail('ERR_URI_BAD_SCHEME', stop);
    p = stop;
  }
  p = scanRun(input, p, n, PATH);
  if (p < n && input.charCodeAt(p) !== QUESTION && input.charCodeAt(p) !== HASH) {
    return componentError(input, p, 'ERR_URI_BAD_PATH');
  }
  const pathEnd = p;
  const path = pathStart === 0 && pathEnd === n ? input : input.slice(pathStart, pathEnd);

  // §3.4 "?" query
  let query: string | undefined;
  if (p < n && input.charCodeAt(p) === QUESTION) {
    const start = p + 1;
    p = scanRun(input, start, n, QUERY);
    if (p < n && input.charCodeAt(p) !== HASH) return componentError(input, p, 'ERR_URI_BAD_QUERY');
    query = input.slice(start, p);
  }

  // §3.5 "#" fragment (a second "#" is not a fragment character)
  let fragment: string | undefined;
  if (p < n) {
    const start = p + 1;
    p = scanRun(input, start, n, QUERY);
    if (p < n) return componentError(input, p, 'ERR_URI_BAD_FRAGMENT');
    fragment = input.slice(start);
  }

  return ok({ scheme, userinfo, host, port, path, query, fragment });
}

interface Authority {
  readonly userinfo: string | undefined;
  readonly host: string;
  readonly port: string | undefined;
  /** Index just past the authority. */
  readonly end: number;
}

/**
 * RFC 3986 §3.2 authority = [ userinfo "@" ] host [ ":" port ], starting at `start`
 * (just after "//"), checked piece by piece so that the first bad character is the
 * one reported.
 */
function parseAuthority(input: string, start: number): Result<Authority> {
  let end = start;
  while (end < input.length && !endsAuthority(input.charCodeAt(end))) end++;
  // §3.2.1 userinfo "@": userinfo cannot hold "@", so the first one ends it.
  let userinfo: string | undefined;
  let hostStart = start;
  const at = input.indexOf('@', start);
  if (at !== -1 && at < end) {
    const bad = scanComponent(input, start, at, USERINFO);
    if (bad !== -1) return componentError(input, bad, 'ERR_URI_BAD_USERINFO');
    userinfo = input.slice(start, at);
    hostStart = at + 1;
  }
  // §3.2.2 host = IP-literal / IPv4address / reg-name
  let hostEnd: number;
  if (hostStart < end && input.charCodeAt(hostStart) === OPEN_BRACKET) {
    const close = input.indexOf(']', hostStart + 1);
    if (close === -1 || close >= end) return fail('ERR_URI_BAD_IP_LITERAL', firstNonLiteralChar(input, hostStart + 1, end));
    const bad = scanIPLiteralBody(input, hostStart + 1, close);
    if (bad !== -1) return fail('ERR_URI_BAD_IP_LITERAL', bad);
    hostEnd = close + 1;
    if (hostEnd < end && input.charCodeAt(hostEnd) !== COLON) return fail('ERR_URI_BAD_HOST', hostEnd);
  } else {
    // IPv4address is also a reg-name: both end at the port's ":".
    hostEnd = hostStart;
    while (hostEnd < end && input.charCodeAt(hostEnd) !== COLON) hostEnd++;
    const bad = scanComponent(input, hostStart, hostEnd, REG_NAME);
    if (bad !== -1) return componentError(input, bad, 'ERR_URI_BAD_HOST');
  }
  // §3.2.3 port = *DIGIT
  let port: string | undefined;
  if (hostEnd < end) {
    for (let i = hostEnd + 1; i < end; i++) {
      if (!isDigit(input.charCodeAt(i))) return fail('ERR_URI_BAD_PORT', i);
    }
    port = input.slice(hostEnd + 1, end);
  }
  return ok({ userinfo, host: input.slice(hostStart, hostEnd), port, end });
}

// Inside an unclosed "[": report the character that ended it (or the end of input).
function firstNonLiteralChar(s: string, start: number, end: number): number {
  const bad = scanIPLiteralBody(s, start, end);
  return bad === -1 ? end : bad;
}

/** Whether `ref` is a URI (§3): a reference with a scheme. */
export function isAbsoluteUri(ref: UriReference): ref is AbsoluteUri {
  return ref.scheme !== undefined;
}
