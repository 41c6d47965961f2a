// Browser-style clean-up of an attribute value before it meets the strict RFC 3986
// core. Each fix mirrors what the WHATWG URL Standard's basic URL parser does to the
// same input (https://url.spec.whatwg.org/#concept-basic-url-parser) and is reported
// as a finding; the result is then checked by the RFC 3986 parser. The core stays
// strict: leniency lives here, and only here.

import { type UriErrorCode } from '../errors.js';
import { charTables, mapIriToUri, parseUriReference, percentEncodeOctet, type UriReference } from '../uri/index.js';
import { HTML_FINDINGS, type HrefFindingCode } from './findings.js';

/** WHATWG URL "special schemes": a backslash is a path separator in them. */
export const SPECIAL_SCHEMES: ReadonlySet<string> = new Set(['ftp', 'file', 'http', 'https', 'ws', 'wss']);

/**
 * Schemes whose reference names no resource a crawler could retrieve: script
 * (`javascript`, `vbscript`), inline data (`data`), a resource that lives only
 * inside the browser (`about`, `blob`), or an address for another application
 * (`mailto`, `tel`, `sms`, `sip`, …). Such hrefs are flagged `HREF_NOT_FETCHABLE`
 * and left as written. A scheme not listed here is cleaned like any other.
 */
export const NOT_FETCHABLE_SCHEMES: ReadonlySet<string> = new Set([
  'about',
  'blob',
  'callto',
  'data',
  'facetime',
  'geo',
  'javascript',
  'mailto',
  'sip',
  'sips',
  'skype',
  'sms',
  'tel',
  'vbscript',
]);

/** One fix (or verdict) about an href. */
export interface HrefFinding {
  readonly code: HrefFindingCode;
  /** UTF-16 index in the raw value of the first character concerned. */
  readonly index: number;
  /** `HREF_INVALID` only: the URI core's error code for the cleaned-up text. */
  readonly uriError?: UriErrorCode;
}

/** What `cleanHref` makes of an attribute value. */
export interface CleanedHref {
  /**
   * A valid RFC 3986 URI-reference, or `undefined` when the value is still invalid
   * after clean-up (`HREF_INVALID`), or is not fetchable and not valid as written.
   */
  readonly cleaned: string | undefined;
  /**
   * `cleaned` as the RFC 3986 parser read it (§4.1), so that nobody parses it again;
   * `undefined` exactly when `cleaned` is.
   */
  readonly reference: UriReference | undefined;
  /** Each kind of fix once, at its first occurrence, in the order of `HTML_FINDINGS`. */
  readonly findings: readonly HrefFinding[];
}

const NO_FINDINGS: readonly HrefFinding[] = Object.freeze([]);

const HREF_CODES = Object.keys(HTML_FINDINGS).filter((code): code is HrefFindingCode => code.startsWith('HREF_'));

const { CHAR_CLASS, PATH, QUERY, USERINFO, SCHEME_CHAR, hexValue, isAlpha } = charTables;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const PERCENT = 0x25;
const SLASH = 0x2f;
const COLON = 0x3a;
const QUESTION = 0x3f;
const HASH = 0x23;
/** Marks the host and port of an authority: ASCII there is copied, never encoded. */
const AS_WRITTEN = -1;

/**
 * Clean an attribute value the way browsers do before URL parsing, reporting
 * each fix. A valid RFC 3986 reference is returned untouched, without findings
 * (but with `HREF_NOT_FETCHABLE` when its scheme is one of `NOT_FETCHABLE_SCHEMES`).
 * Never throws.
 */
export function cleanHref(raw: string): CleanedHref {
  // Fast path: a valid reference holds no whitespace, control, "\" or non-ASCII.
  const parsed = parseUriReference(raw);
  if (parsed.ok) {
    const { scheme } = parsed.value;
    if (scheme !== undefined && NOT_FETCHABLE_SCHEMES.has(scheme.toLowerCase())) {
      return { cleaned: raw, reference: parsed.value, findings: [{ code: 'HREF_NOT_FETCHABLE', index: 0 }] };
    }
    return { cleaned: raw, reference: parsed.value, findings: NO_FINDINGS };
  }
  return new HrefCleaner(raw).clean();
}

class HrefCleaner {
  readonly #raw: string;
  /** The value after steps 1–3, and the raw index of each of its code units. */
  #text = '';
  #textFrom: number[] = [];
  /** The cleaned value being built, and the raw index of each of its code units. */
  #out = '';
  #outFrom: number[] = [];
  readonly #first = new Map<HrefFindingCode, number>();
  /** Raw index of the first lone surrogate, which RFC 3987 §3.1 cannot map. */
  #iriError: number | undefined;

  constructor(raw: string) {
    this.#raw = raw;
  }

  clean(): CleanedHref {
    const raw = this.#raw;
    // WHATWG basic URL parser step 1: strip leading and trailing C0 control or space.
    let start = 0;
    let end = raw.length;
    while (start < end && raw.charCodeAt(start) <= SPACE) start++;
    while (end > start && raw.charCodeAt(end - 1) <= SPACE) end--;
    if (start > 0) this.#note('HREF_SURROUNDING_WHITESPACE', 0);
    else if (end < raw.length) this.#note('HREF_SURROUNDING_WHITESPACE', end);

    // Steps 2–3: remove every ASCII tab or newline.
    for (let i = start; i < end; i++) {
      const c = raw.charCodeAt(i);
      if (c === TAB || c === LF || c === CR) {
        this.#note('HREF_TAB_OR_NEWLINE', i);
        continue;
      }
      this.#text += raw[i];
      this.#textFrom.push(i);
    }

    // RFC 3986 §3.1 scheme, read as the WHATWG scheme state reads it.
    const schemeEnd = scanScheme(this.#text);
    const scheme = schemeEnd === -1 ? undefined : this.#text.slice(0, schemeEnd).toLowerCase();
    if (scheme !== undefined && NOT_FETCHABLE_SCHEMES.has(scheme)) {
      // Not cleaned: what follows the scheme is no URL path to fix.
      return { cleaned: undefined, reference: undefined, findings: [{ code: 'HREF_NOT_FETCHABLE', index: start }] };
    }

    // WHATWG treats "\" as "/" in special URLs, and in relative ones when the base is
    // special, up to the query.
    // DEVIATION(WHATWG relative state): the base is not known here; a relative href is
    // read as against a special base, which every page we fetch (http, https) has.
    if (scheme === undefined || SPECIAL_SCHEMES.has(scheme)) this.#replaceBackslashes();

    this.#encodeComponents(schemeEnd + 1);
    return this.#result(end);
  }

  #note(code: HrefFindingCode, index: number): void {
    if (!this.#first.has(code)) this.#first.set(code, index);
  }

  #replaceBackslashes(): void {
    const text = this.#text;
    let stop = 0;
    while (stop < text.length && text.charCodeAt(stop) !== QUESTION && text.charCodeAt(stop) !== HASH) stop++;
    const first = text.indexOf('\\');
    if (first === -1 || first >= stop) return;
    this.#note('HREF_BACKSLASH', this.#textFrom[first]!);
    this.#text = text.slice(0, stop).replaceAll('\\', '/') + text.slice(stop);
  }

  // RFC 3986 Appendix B splits the text; each component is then encoded against
  // its own ABNF character class (§3.2.1, §3.3, §3.4, §3.5).
  #encodeComponents(pathStart: number): void {
    const text = this.#text;
    const n = text.length;
    this.#emitAsWritten(0, pathStart);
    let p = pathStart;
    if (text.charCodeAt(p) === SLASH && text.charCodeAt(p + 1) === SLASH) {
      // §3.2 authority, up to the first "/", "?" or "#".
      const authorityStart = p + 2;
      let authorityEnd = authorityStart;
      while (authorityEnd < n && !isAuthorityEnd(text.charCodeAt(authorityEnd))) authorityEnd++;
      this.#emitAsWritten(p, authorityStart);
      // WHATWG splits userinfo at the *last* "@" and encodes the earlier ones.
      const at = text.lastIndexOf('@', authorityEnd - 1);
      let hostStart = authorityStart;
      if (at >= authorityStart) {
        this.#encodeRun(authorityStart, at, USERINFO);
        this.#emitAsWritten(at, at + 1);
        hostStart = at + 1;
      }
      // §3.2.2 host and §3.2.3 port: a browser rejects what is wrong there, so do we
      // (HREF_INVALID); only non-ASCII is mapped (RFC 3987 §3.1 step 2).
      this.#encodeRun(hostStart, authorityEnd, AS_WRITTEN);
      p = authorityEnd;
    }
    // §3.3 path, up to "?" or "#".
    let pathEnd = p;
    while (pathEnd < n && text.charCodeAt(pathEnd) !== QUESTION && text.charCodeAt(pathEnd) !== HASH) pathEnd++;
    this.#encodeRun(p, pathEnd, PATH);
    p = pathEnd;
    if (text.charCodeAt(p) === QUESTION) {
      // §3.4 query, up to "#".
      let queryEnd = p + 1;
      while (queryEnd < n && text.charCodeAt(queryEnd) !== HASH) queryEnd++;
      this.#emitAsWritten(p, p + 1);
      this.#encodeRun(p + 1, queryEnd, QUERY);
      p = queryEnd;
    }
    if (p < n) {
      // §3.5 fragment: a second "#" is encoded (WHATWG keeps it in the fragment).
      this.#emitAsWritten(p, p + 1);
      this.#encodeRun(p + 1, n, QUERY);
    }
  }

  #emit(piece: string, rawIndex: number): void {
    this.#out += piece;
    for (let k = 0; k < piece.length; k++) this.#outFrom.push(rawIndex);
  }

  #emitAsWritten(from: number, to: number): void {
    this.#out += this.#text.slice(from, to);
    for (let i = from; i < to; i++) this.#outFrom.push(this.#textFrom[i]!);
  }

  // Percent-encode text[from, to) against `mask` (AS_WRITTEN: ASCII copied as is).
  #encodeRun(from: number, to: number, mask: number): void {
    const text = this.#text;
    let i = from;
    while (i < to) {
      const c = text.charCodeAt(i);
      const rawIndex = this.#textFrom[i]!;
      if (c >= 128) {
        // RFC 3987 §3.1: a run of non-ASCII becomes the UTF-8 octets, percent-encoded.
        let j = i + 1;
        while (j < to && text.charCodeAt(j) >= 128) j++;
        const mapped = mapIriToUri(text.slice(i, j));
        if (mapped.ok) {
          this.#emit(mapped.value, rawIndex);
          this.#note('HREF_NON_ASCII', rawIndex);
        } else {
          // A lone surrogate is no character: it has no UTF-8 form (ERR_URI_BAD_IRI).
          this.#iriError ??= this.#textFrom[i + mapped.error.index]!;
          this.#emit(text.slice(i, j), rawIndex);
        }
        i = j;
      } else if (mask === AS_WRITTEN || (CHAR_CLASS[c]! & mask) !== 0) {
        this.#emitAsWritten(i, i + 1);
        i++;
      } else if (c === PERCENT) {
        if (i + 2 < to && hexValue(text.charCodeAt(i + 1)) >= 0 && hexValue(text.charCodeAt(i + 2)) >= 0) {
          this.#emitAsWritten(i, i + 3);
          i += 3;
        } else {
          this.#emit('%25', rawIndex);
          this.#note('HREF_BAD_PERCENT', rawIndex);
          i++;
        }
      } else {
        this.#emit(percentEncodeOctet(c), rawIndex);
        this.#note('HREF_UNENCODED_CHARACTER', rawIndex);
        i++;
      }
    }
  }

  #result(end: number): CleanedHref {
    const findings: HrefFinding[] = [];
    for (const code of HREF_CODES) {
      const index = this.#first.get(code);
      if (index !== undefined) findings.push({ code, index });
    }
    if (this.#iriError !== undefined) {
      findings.push({ code: 'HREF_INVALID', index: this.#iriError, uriError: 'ERR_URI_BAD_IRI' });
      return { cleaned: undefined, reference: undefined, findings };
    }
    const parsed = parseUriReference(this.#out);
    if (parsed.ok) return { cleaned: this.#out, reference: parsed.value, findings };
    const index = this.#outFrom[parsed.error.index] ?? end;
    findings.push({ code: 'HREF_INVALID', index, uriError: parsed.error.code });
    return { cleaned: undefined, reference: undefined, findings };
  }
}

// Index of the ":" that ends a scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), or -1.
function scanScheme(text: string): number {
  if (!isAlpha(text.charCodeAt(0))) return -1;
  let i = 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === COLON) return i;
    if (c >= 128 || (CHAR_CLASS[c]! & SCHEME_CHAR) === 0) return -1;
    i++;
  }
  return -1;
}

function isAuthorityEnd(c: number): boolean {
  return c === SLASH || c === QUESTION || c === HASH;
}
