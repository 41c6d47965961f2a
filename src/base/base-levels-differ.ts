// The audit shows links that resolve differently in the two base modes (`rfc3986`,
// which uses Content-Location as a base, and `browser`, which does not).

import { resourceKey } from '../ladder/index.js';
import type { BaseChain } from './compute-base-chain.js';

/**
 * Whether the `rfc3986` and `browser` modes give this response different bases:
 * a Content-Location or Content-Base level is in effect and names another
 * resource than the retrieval URL, or a `<base href>` resolves differently (it is
 * relative to such a header, or names a `data:`/`javascript:` URL).
 *
 * The bases are compared at the scheme rung (RFC 3986 §6.2.3): a Content-Location
 * that names the retrieval URL again, in whatever spelling, changes nothing.
 * A header naming a sibling (`page.html` → `page.html.en`) does count: `?q` and
 * `""` then resolve to different resources.
 */
export function baseLevelsDiffer(chain: BaseChain): boolean {
  const a = chain.base;
  const b = chain.alternate.base;
  if (a === undefined || b === undefined) return a !== b;
  return chain.baseText !== chain.alternate.baseText && resourceKey(a) !== resourceKey(b);
}
