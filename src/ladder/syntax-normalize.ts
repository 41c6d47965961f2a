// RFC 3986 §6.2.2 Syntax-Based Normalization.

import {
  guardPathWithoutAuthority,
  normalizePercentEncoding,
  removeDotSegments,
  type UriReference,
} from '../uri/index.js';

/**
 * RFC 3986 §6.2.2: §6.2.2.1 case (scheme and host to lower case, hex digits of
 * triplets to upper case), §6.2.2.2 percent-encoding (decode unreserved octets
 * only), §6.2.2.3 dot segments. Decoding runs before dot-segment removal so that
 * `/a/%2e%2e/b` becomes `/b` and the result is idempotent.
 *
 * Dot segments are removed only where they cannot change what a relative
 * reference resolves to: with a scheme, an authority, or an absolute path.
 * (`../g` stays `../g`; removing its `..` would change its target.)
 */
export function normalizeSyntax(ref: UriReference): UriReference {
  const scheme = ref.scheme === undefined ? undefined : toLowerAscii(ref.scheme);
  const host = ref.host === undefined ? undefined : lowerCaseHost(normalizePercentEncoding(ref.host));
  let path = normalizePercentEncoding(ref.path);
  if (scheme !== undefined || host !== undefined || path.charCodeAt(0) === 0x2f) path = removeDotSegments(path);
  const normalized: UriReference = {
    scheme,
    userinfo: ref.userinfo === undefined ? undefined : normalizePercentEncoding(ref.userinfo),
    host,
    port: ref.port,
    path,
    query: ref.query === undefined ? undefined : normalizePercentEncoding(ref.query),
    fragment: ref.fragment === undefined ? undefined : normalizePercentEncoding(ref.fragment),
  };
  return guardPathWithoutAuthority(normalized);
}

function toLowerAscii(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return text.toLowerCase();
  }
  return text;
}

/** Lower-case a host but not the (already upper-case) hex digits of its triplets. */
export function lowerCaseHost(host: string): string {
  const lowered = toLowerAscii(host);
  if (lowered === host || host.indexOf('%') === -1) return lowered;
  return lowerCaseOutsideTriplets(host);
}

/** Lower-case ASCII letters that are not the two hex digits after a "%". */
export function lowerCaseOutsideTriplets(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && i + 2 < text.length) {
      out += text.slice(i, i + 3);
      i += 2;
    } else {
      out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 32) : text[i];
    }
  }
  return out;
}
