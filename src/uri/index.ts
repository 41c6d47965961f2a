// The RFC 3986 core: pure, synchronous, no I/O, never throws on untrusted input.

export type { UriReference, AbsoluteUri } from './uri-reference.js';
export { hasAuthority } from './uri-reference.js';
export type { Result, UriSyntaxError, ErrorSubject } from './result.js';
export { ok, fail, failIn } from './result.js';
export { parseUriReference, isAbsoluteUri } from './parse.js';
export { serialize, serializeAuthority, serializeWithoutFragment } from './serialize.js';
export { removeDotSegments, hasDotSegments, dotSegmentKind } from './remove-dot-segments.js';
export {
  parseBase,
  mergePaths,
  transformReference,
  resolveReference,
  ReferenceResolver,
  guardPathWithoutAuthority,
  type ResolveOptions,
} from './resolve.js';
export {
  normalizePercentEncoding,
  percentEncode,
  percentEncodeOctet,
  percentDecodeUtf8,
  utf8PercentEncode,
} from './percent-encoding.js';
export { mapIriToUri } from './iri.js';
export {
  isIPv4Address,
  isIPv6Address,
  scanIPv4Address,
  scanIPv6Address,
  scanIPvFuture,
  ipv6ToCanonicalText,
} from './ip-literal.js';
export * as charTables from './char-tables.js';
