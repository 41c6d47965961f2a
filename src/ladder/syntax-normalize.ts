// RFC 3986 §6.2.2 Syntax-Based Normalization.

import {
  dotSegmentKind,
  guardPathWithoutAuthority,
  hasDotSegments,
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
 * §6.2.2.3 defines dot-segment removal for URI paths. A relative-path reference
 * (`a/../b`, `../g`) gets the removals that give the same target against every
 * hierarchical base: `.` and `segment/..` go, a leading `..` stays (a property
 * test checks this against §5.2 resolution).
 */
export function normalizeSyntax(ref: UriReference): UriReference {
  const scheme = ref.scheme === undefined ? undefined : toLowerAscii(ref.scheme);
  const host = ref.host === undefined ? undefined : lowerCaseHost(normalizePercentEncoding(ref.host));
  let path = normalizePercentEncoding(ref.path);
  if (scheme !== undefined || host !== undefined || path.charCodeAt(0) === 0x2f) path = removeDotSegments(path);
  // DEVIATION(§6.2.2.3): relative-path references get target-preserving dot removal.
  else if (hasDotSegments(path)) path = removeDotSegmentsFromRelativePath(path);
  const userinfo = ref.userinfo === undefined ? undefined : normalizePercentEncoding(ref.userinfo);
  const query = ref.query === undefined ? undefined : normalizePercentEncoding(ref.query);
  const fragment = ref.fragment === undefined ? undefined : normalizePercentEncoding(ref.fragment);
  if (
    scheme === ref.scheme &&
    host === ref.host &&
    path === ref.path &&
    userinfo === ref.userinfo &&
    query === ref.query &&
    fragment === ref.fragment
  ) {
    return ref; // already normal: most links are
  }
  return guardPathWithoutAuthority({ scheme, userinfo, host, port: ref.port, path, query, fragment });
}

/**
 * Dot segments of a relative-path reference (§4.2 path-noscheme), removed so that
 * the reference still resolves to the same target (§5.2.3 merge, §5.2.4): `.`
 * segments go, `segment/..` pairs cancel, `..` with nothing left to cancel stays,
 * and a final dot segment leaves its directory's trailing "/".
 * A result that would be empty is `./` (an empty reference means the base itself),
 * and one that would start with "/" or hold ":" in its first segment keeps a `./`
 * so that it reads as the same relative path.
 */
export function removeDotSegmentsFromRelativePath(path: string): string {
  const segments = path.split('/');
  const output: string[] = [];
  const last = segments.length - 1;
  for (let k = 0; k <= last; k++) {
    const segment = segments[k]!;
    // "%2E" is a dot as in §5.2.4 (its DEVIATION, src/uri/remove-dot-segments.ts).
    const kind = dotSegmentKind(segment, 0, segment.length);
    if (kind !== 0) {
      if (kind === 2) {
        if (output.length > 0 && output[output.length - 1] !== '..') output.pop();
        else output.push('..');
      }
      // A final dot segment names a directory: "a/." is "a/", ".." is "../".
      if (k === last) output.push('');
      continue;
    }
    output.push(segment);
  }
  const result = output.join('/');
  if (result === '') return './';
  // A leading empty segment would make the path absolute; a ":" in the first, a scheme.
  if (output[0] === '' || output[0]!.indexOf(':') !== -1) return './' + result;
  return result;
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
