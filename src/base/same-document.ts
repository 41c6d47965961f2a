// RFC 3986 §4.4 Same-Document Reference.

import { resourceKey } from '../ladder/index.js';
import { ReferenceResolver, parseUriReference, type ResolveOptions } from '../uri/index.js';

/**
 * RFC 3986 §4.4: whether `target` — a URI-reference, relative or absolute — is a
 * same-document reference against `base`: its target URI (§5.2, resolved against
 * `base`) minus the fragment equals `base` minus its fragment. Dereferencing one
 * "should not result in a new retrieval action", so the crawler never fetches it:
 * the link points at the page itself.
 *
 * `""` and `#x` always are; `?a` is not (another query is another resource). Both
 * sides are compared by their resource keys (§6.2.3, no fragment), so
 * `http://A:80/x` and `http://a/x#f` are the same document. Pass the page's base
 * from `computeBaseChain`: with `Content-Location: core.html.en` on
 * `/manual/mod/core.html`, `#x` resolves to `core.html.en#x` — the page itself.
 *
 * Invalid input is never the same document: `false` when `base` is not an
 * absolute URI or `target` is not a URI-reference. Never throws. For many
 * references on one page, `PageResolver` parses the base once.
 */
export function isSameDocumentReference(target: string, base: string, options?: ResolveOptions): boolean {
  const resolver = ReferenceResolver.forBase(base, options);
  if (!resolver.ok) return false;
  const R = parseUriReference(target);
  return R.ok && resourceKey(resolver.value.resolve(R.value)) === resourceKey(resolver.value.base);
}
