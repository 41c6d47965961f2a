// RFC 3986 §4.4 Same-Document Reference.

import { resourceKey } from '../ladder/index.js';
import { parseBase, resolveReference, transformReference, type ResolveOptions } from '../uri/index.js';

// Links come in runs against one base (a page's): remember the last keys.
let lastBase: string | undefined;
let lastBaseKeys: readonly string[] = [];

/**
 * RFC 3986 §4.4: whether `target` — a URI-reference, relative or absolute — is a
 * same-document reference against `base`: its target URI (§5.2, resolved against
 * `base`) minus the fragment equals `base` minus its fragment. Dereferencing one
 * "should not result in a new retrieval action", so the crawler never fetches it:
 * the link points at the page itself.
 *
 * `""` and `#x` always are; `?a` is not (another query is another resource). Both
 * sides are compared at the scheme rung (§6.2.3) without their fragments, so
 * `http://A:80/x` and `http://a/x#f` are the same document. Pass the page's base
 * from `computeBaseChain`: with `Content-Location: core.html.en` on
 * `/manual/mod/core.html`, `#x` resolves to `core.html.en#x` — the page itself.
 *
 * Invalid input is never the same document: `false` when `base` is not an
 * absolute URI or `target` is not a URI-reference. Never throws.
 */
export function isSameDocumentReference(target: string, base: string, options?: ResolveOptions): boolean {
  if (base !== lastBase) {
    const parsed = parseBase(base);
    // The base as it is, and in absolute form (§5.1: dot segments removed). They
    // differ only where "%2E" next to a literal ".." makes §5.2.4 and §6.2.2 part
    // ways (`/a/%2e%2E/..`); either one names this document.
    lastBaseKeys = parsed.ok
      ? [resourceKey(parsed.value), resourceKey(transformReference(parsed.value, parsed.value))]
      : [];
    lastBase = base;
  }
  if (lastBaseKeys.length === 0) return false;
  const T = resolveReference(target, base, options);
  return T.ok && lastBaseKeys.includes(resourceKey(T.value));
}
