// RFC 3986 §6.2: the lowest rung of the ladder at which two URIs meet.

import { parseUriReference, failIn, ok, serialize, type Result, type UriReference } from '../uri/index.js';
import type { AliasMap } from './alias-map.js';
import { normalizeParsed } from './normalize.js';
import type { Rung } from './rung.js';
import { normalizeScheme } from './scheme-normalize.js';
import { normalizeSyntax } from './syntax-normalize.js';

export interface Comparison {
  /** Whether some rung (up to `protocol` when aliases are given) joins them. */
  readonly equivalent: boolean;
  /** The lowest rung at which they meet, or `null`. */
  readonly rung: Rung | null;
}

export interface CompareOptions {
  /** The protocol rung's evidence; without it the ladder stops at `scheme`. */
  readonly aliases?: AliasMap;
}

/**
 * Climb the ladder cheapest-first: §6.2.1 string, §6.2.2 syntax, §6.2.3 scheme,
 * §6.2.4 protocol. Fragments take part (they are part of the URI, §6.1).
 */
export function compareReferences(a: UriReference, b: UriReference, options?: CompareOptions): Comparison {
  if (serialize(a) === serialize(b)) return { equivalent: true, rung: 'string' };
  const syntaxA = normalizeSyntax(a);
  const syntaxB = normalizeSyntax(b);
  if (serialize(syntaxA) === serialize(syntaxB)) return { equivalent: true, rung: 'syntax' };
  const schemeA = serialize(normalizeScheme(syntaxA));
  const schemeB = serialize(normalizeScheme(syntaxB));
  if (schemeA === schemeB) return { equivalent: true, rung: 'scheme' };
  const aliases = options?.aliases;
  if (aliases && normalizeParsed(a, 'protocol', aliases) === normalizeParsed(b, 'protocol', aliases)) {
    return { equivalent: true, rung: 'protocol' };
  }
  return { equivalent: false, rung: null };
}

/** Parse both and compare (non-throwing on bad input). */
export function tryCompare(a: string, b: string, options?: CompareOptions): Result<Comparison> {
  const parsedA = parseUriReference(a);
  if (!parsedA.ok) return failIn(parsedA.error, 'a');
  const parsedB = parseUriReference(b);
  if (!parsedB.ok) return failIn(parsedB.error, 'b');
  return ok(compareReferences(parsedA.value, parsedB.value, options));
}
