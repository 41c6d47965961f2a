// linkladder/uri: the URI core (RFC 3986, RFC 3987) and the comparison ladder
// (§6.2), with nothing else loaded — no HTTP client, no database, no Markdown parser.
// The throwing forms are for ordinary use; the result-returning `try*` forms beside
// them for hot loops and untrusted input.

import { OptionError, UriError, describeValue } from '../errors.js';
import {
  ReferenceResolver,
  failIn,
  mapIriToUri,
  parseUriReference,
  resolveReference,
  serialize,
  type ResolveOptions as CoreResolveOptions,
  type Result,
  type UriReference,
} from '../uri/index.js';
import {
  normalizeReference,
  tryCompare as tryCompareLadder,
  tryNormalize as tryNormalizeLadder,
  type CompareOptions,
  type Comparison,
  type NormalizeOptions,
  type SyntacticRung,
} from '../ladder/index.js';

export {
  serialize,
  removeDotSegments,
  normalizePercentEncoding,
  isIPv4Address,
  isIPv6Address,
  ipv6ToCanonicalText,
  type UriReference,
  type AbsoluteUri,
  type Result,
  type UriSyntaxError,
  type ErrorSubject,
} from '../uri/index.js';
export {
  RUNGS,
  SCHEMES,
  AliasMap,
  ALIAS_EVIDENCE,
  resourceKey,
  type Rung,
  type SyntacticRung,
  type SchemeSpec,
  type NormalizeOptions,
  type Comparison,
  type CompareOptions,
  type AliasEdge,
  type AliasEvidence,
  type AliasMapOptions,
  type AliasResolution,
} from '../ladder/index.js';
export { ERROR_MESSAGES, LinkladderError, UriError, OptionError, type ErrorCode, type UriErrorCode } from '../errors.js';

function unwrap<T>(result: Result<T>, inputs: Readonly<Record<string, string>>): T {
  if (result.ok) return result.value;
  const { code, index, subject } = result.error;
  const input = (subject === undefined ? undefined : inputs[subject]) ?? Object.values(inputs)[0] ?? '';
  throw new UriError(code, index, input, subject);
}

/** RFC 3986 §4.1: parse a URI-reference into its (read-only) components, or return the first syntax error. */
export function tryParse(input: string): Result<UriReference> {
  return parseUriReference(input);
}

/** RFC 3986 §4.1: parse a URI-reference into its (frozen) components. Throws `UriError`. */
export function parse(input: string): UriReference {
  return Object.freeze(unwrap(parseUriReference(input), { input }));
}

export interface ResolveOptions extends CoreResolveOptions {
  /**
   * Normalize the target to this rung before writing it out — what a crawler keys
   * on — in one pass, without serializing and parsing it again.
   * @default 'string' (the §5.2 target as it is)
   */
  readonly rung?: SyntacticRung;
}

/** RFC 3986 §5.2: resolve `ref` against the absolute URI `base` (both parsed on each call; see `resolverFor`). */
export function tryResolve(ref: string, base: string, options?: ResolveOptions): Result<string> {
  const rung = resolveRung(options);
  const result = resolveReference(ref, base, options);
  if (!result.ok) return result;
  return { ok: true, value: serialize(rung === 'string' ? result.value : normalizeReference(result.value, rung)) };
}

/** References resolved against one base, parsed once: what a page's links need. */
export interface BoundResolver {
  /** The base, serialized without its fragment. */
  readonly base: string;
  tryResolve(ref: string): Result<string>;
  /** Throws `UriError` (`subject: 'reference'`). */
  resolve(ref: string): string;
}

/**
 * RFC 3986 §5.2 against one base, parsed once (§5.1): `resolverFor(page).resolve(href)`
 * for each link of a page, instead of `resolve(href, page)`. Throws `UriError`
 * when `base` is not an absolute URI.
 */
export function resolverFor(base: string, options?: ResolveOptions): BoundResolver {
  const rung = resolveRung(options);
  const bound = unwrap(ReferenceResolver.forBase(base, options), { base });
  const tryOne = (ref: string): Result<string> => {
    const R = parseUriReference(ref);
    if (!R.ok) return failIn(R.error, 'reference');
    const T = bound.resolve(R.value);
    return { ok: true, value: serialize(rung === 'string' ? T : normalizeReference(T, rung)) };
  };
  return Object.freeze({
    base: serialize(bound.base),
    tryResolve: tryOne,
    resolve: (ref: string) => unwrap(tryOne(ref), { reference: ref, base }),
  });
}

function resolveRung(options: ResolveOptions | undefined): SyntacticRung {
  const rung = options?.rung ?? 'string';
  if (rung !== 'string' && rung !== 'syntax' && rung !== 'scheme') {
    throw new OptionError(`Expected \`rung\` to be one of string, syntax, scheme, got ${describeValue(rung)}`);
  }
  return rung;
}

/** RFC 3986 §5.2: resolve `ref` against the absolute URI `base`. Throws `UriError`. */
export function resolve(ref: string, base: string, options?: ResolveOptions): string {
  return unwrap(tryResolve(ref, base, options), { reference: ref, base });
}

/** RFC 3986 §6.2: normalize to a rung of the ladder (default `scheme`). */
export function tryNormalize(uri: string, options?: NormalizeOptions): Result<string> {
  return tryNormalizeLadder(uri, options);
}

/** RFC 3986 §6.2: normalize to a rung of the ladder (default `scheme`). Throws `UriError`. */
export function normalize(uri: string, options?: NormalizeOptions): string {
  return unwrap(tryNormalizeLadder(uri, options), { uri });
}

/** RFC 3986 §6.2: the lowest rung at which `a` and `b` meet. */
export function tryCompare(a: string, b: string, options?: CompareOptions): Result<Comparison> {
  return tryCompareLadder(a, b, options);
}

/** RFC 3986 §6.2: the lowest rung at which `a` and `b` meet, or `rung: null`. Throws `UriError`. */
export function compare(a: string, b: string, options?: CompareOptions): Comparison {
  return unwrap(tryCompareLadder(a, b, options), { a, b });
}

/** RFC 3987 §3.1: percent-encode the non-ASCII characters of an IRI as UTF-8. */
export function tryIriToUri(iri: string): Result<string> {
  return mapIriToUri(iri);
}

/** RFC 3987 §3.1: percent-encode the non-ASCII characters of an IRI as UTF-8. Throws `UriError`. */
export function iriToUri(iri: string): string {
  return unwrap(mapIriToUri(iri), { iri });
}
