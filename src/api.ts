// The library API: throwing forms of the core for ordinary use, and the
// result-returning `try*` forms beside them for hot loops and untrusted input.

import { OptionError, UriError, describeValue } from './errors.js';
import {
  mapIriToUri,
  parseUriReference,
  resolveReference,
  serialize,
  type ResolveOptions as CoreResolveOptions,
  type Result,
  type UriReference,
} from './uri/index.js';
import {
  normalizeReference,
  tryCompare as tryCompareLadder,
  tryNormalize as tryNormalizeLadder,
  type CompareOptions,
  type Comparison,
  type NormalizeOptions,
  type SyntacticRung,
} from './ladder/index.js';

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

/** RFC 3986 §5.2: resolve `ref` against the absolute URI `base`. */
export function tryResolve(ref: string, base: string, options?: ResolveOptions): Result<string> {
  const rung = options?.rung ?? 'string';
  if (rung !== 'string' && rung !== 'syntax' && rung !== 'scheme') {
    throw new OptionError(`Expected \`rung\` to be one of string, syntax, scheme, got ${describeValue(rung)}`);
  }
  const result = resolveReference(ref, base, options);
  if (!result.ok) return result;
  return { ok: true, value: serialize(rung === 'string' ? result.value : normalizeReference(result.value, rung)) };
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
