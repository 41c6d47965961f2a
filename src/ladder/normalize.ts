// RFC 3986 §6.2: a URI's key at each rung of the comparison ladder.

import { OptionError, describeValue } from '../errors.js';
import { parseUriReference, serialize, ok, type Result, type UriReference } from '../uri/index.js';
import type { AliasMap } from './alias-map.js';
import { RUNGS, isRung, type Rung, type SyntacticRung } from './rung.js';
import { normalizeScheme } from './scheme-normalize.js';
import { normalizeSyntax } from './syntax-normalize.js';

export interface NormalizeOptions {
  /**
   * How far up the ladder to go.
   * @default 'scheme'
   */
  readonly rung?: Rung;
  /** The protocol rung's evidence. Required for `rung: 'protocol'`. */
  readonly aliases?: AliasMap;
}

export const DEFAULT_RUNG: Rung = 'scheme';

/** The components of `ref` at a rung that needs nothing but the reference. */
export function normalizeReference(ref: UriReference, rung: SyntacticRung): UriReference {
  if (rung === 'string') return ref;
  const syntax = normalizeSyntax(ref);
  return rung === 'syntax' ? syntax : normalizeScheme(syntax);
}

/**
 * RFC 3986 §6.1, §6.2.4: the key that names the resource — the scheme-rung form
 * without its fragment (a fragment is not sent to the server), then followed
 * through the alias map when one is given.
 */
export function resourceKey(ref: UriReference, aliases?: AliasMap): string {
  const normalized = normalizeReference(ref, 'scheme');
  const key = serialize(normalized.fragment === undefined ? normalized : { ...normalized, fragment: undefined });
  return aliases ? aliases.resolve(key).key : key;
}

/** Check options once, at the API boundary. */
export function validateNormalizeOptions(options: NormalizeOptions | undefined): Rung {
  const rung = options?.rung ?? DEFAULT_RUNG;
  if (!isRung(rung)) {
    throw new OptionError(`Expected \`rung\` to be one of ${RUNGS.join(', ')}, got ${describeValue(rung)}`);
  }
  if (rung === 'protocol' && options?.aliases === undefined) {
    throw new OptionError('Expected `aliases` (an AliasMap) with `rung: "protocol"`, got `undefined`');
  }
  return rung;
}

/**
 * Normalize a URI-reference string to the given rung. Bad input gives a failed
 * result; only a bad option (a programming error) throws `OptionError`.
 */
export function tryNormalize(input: string, options?: NormalizeOptions): Result<string> {
  const rung = validateNormalizeOptions(options);
  const parsed = parseUriReference(input);
  if (!parsed.ok) return parsed;
  return ok(normalizeParsed(parsed.value, rung, options?.aliases));
}

/** The serialized key of a parsed reference at `rung`. */
export function normalizeParsed(ref: UriReference, rung: Rung, aliases?: AliasMap): string {
  if (rung !== 'protocol') return rung === 'string' ? serialize(ref) : serialize(normalizeReference(ref, rung));
  const scheme = normalizeReference(ref, 'scheme');
  const key = serialize({ ...scheme, fragment: undefined });
  const target = aliases ? aliases.resolve(key).key : key;
  return scheme.fragment === undefined ? target : `${target}#${scheme.fragment}`;
}
