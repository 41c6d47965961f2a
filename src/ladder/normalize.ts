// RFC 3986 §6.2: a URI's key at each rung of the comparison ladder.

import { OptionError, describeValue } from '../errors.js';
import { parseUriReference, serialize, serializeWithoutFragment, ok, type AbsoluteUri, type Result, type UriReference } from '../uri/index.js';
import type { AliasMap } from './alias-map.js';
import { RUNGS, isRung, type Rung, type SyntacticRung } from './rung.js';
import { normalizeScheme } from './scheme-normalize.js';
import { lookupScheme } from './scheme-registry.js';
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
 *
 * The one key function: seeds, redirect targets and resolved links are all keyed
 * by it. For every absolute URI `u` and base `b`, `resourceKey(u)` equals
 * `resourceKey(resolve(u, b))` and `normalize(u)` without its fragment (a property
 * test holds it; see the §5.2.4 DEVIATION in src/uri/remove-dot-segments.ts).
 */
export function resourceKey(ref: UriReference, aliases?: AliasMap): string {
  const key = serializeWithoutFragment(normalizeReference(ref, 'scheme'));
  return aliases ? aliases.resolve(key).key : key;
}

/** `resourceKey` of a URI given as text, or `undefined` when it is no absolute URI (§4.3). */
export function resourceKeyOf(uri: string): string | undefined {
  const parsed = parseUriReference(uri);
  return parsed.ok && parsed.value.scheme !== undefined ? resourceKey(parsed.value) : undefined;
}

/**
 * A target's forms on the ladder (RFC 3986 §6.2.1–§6.2.3), all without fragment:
 * what an index needs to admit it without parsing or normalizing again.
 */
export interface LadderForms {
  /** §6.2.1: the URI as written (serialized, RFC 3986 §5.3). */
  readonly string: string;
  /** §6.2.2: the syntax-rung form. */
  readonly syntax: string;
  /** §6.2.3: the scheme-rung form — `resourceKey` without aliases. */
  readonly key: string;
  /** The scheme and host of the key form. */
  readonly scheme: string;
  readonly host: string | undefined;
  /** The scheme-rung components (fragment kept, if any), for scope tests. */
  readonly keyReference: UriReference;
}

/**
 * The ladder forms of an absolute URI; `string` is given when the caller already
 * serialized it (without fragment). `key` is `resourceKey(uri)`.
 */
export function ladderForms(uri: UriReference & { readonly scheme: string }, string?: string): LadderForms {
  const text = string ?? serializeWithoutFragment(uri);
  const syntaxRef = normalizeSyntax(uri);
  const syntax = syntaxRef === uri ? text : serializeWithoutFragment(syntaxRef);
  const schemeRef = normalizeScheme(syntaxRef);
  const key = schemeRef === syntaxRef ? syntax : serializeWithoutFragment(schemeRef);
  return { string: text, syntax, key, scheme: schemeRef.scheme!, host: schemeRef.host, keyReference: schemeRef };
}

/**
 * What the keys of `base`'s neighbours start with: `scheme://authority` as the
 * scheme rung writes it, when `base`'s scheme and authority are already in normal
 * form and its scheme has no path rule. Then every URI with that scheme and
 * authority, a path that is not empty and holds no "%" and no dot segment, and a
 * query without "%", is its own key: `resourceKey(u) = prefix + path [ "?" query ]`.
 * `undefined` when that does not hold (no authority, `HTTP://`, a default port, …).
 * A resolver bound to a page's base uses it to key relative references without
 * normalizing each one (RFC 3986 §6.2.2–§6.2.3 have nothing to change there).
 */
export function normalKeyPrefix(base: AbsoluteUri): string | undefined {
  if (base.host === undefined) return undefined;
  const spec = lookupScheme(base.scheme);
  if (spec?.normalizePath !== undefined) return undefined;
  const probe: AbsoluteUri = { ...base, path: '/', query: undefined, fragment: undefined };
  const forms = ladderForms(probe);
  return forms.key === forms.string ? forms.key.slice(0, -1) : undefined;
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
