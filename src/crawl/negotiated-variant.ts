// What a Content-Location of content negotiation looks like (RFC 9110 §8.7, §12):
// the crawl accepts it as protocol-rung evidence only in this shape by default, so
// that a server sending `Content-Location: /` on every page makes nothing an alias
// (protocol evidence can lie; a lie must not merge a site into one URL).

import { schemeRung } from './origin-key.js';

/**
 * The pattern of HTTP content negotiation (Apache MultiViews and type maps): the
 * variant is a file of the same directory whose last segment extends the one asked
 * for with "." (`page.html` → `page.html.en`, `page` → `page.en.html`), or any file
 * of the directory asked for (`/manual/` → `/manual/index.html.en`). Both URIs are
 * compared at the scheme rung; the origin is checked by the caller.
 */
export function isNegotiatedVariant(requested: string, variant: string): boolean {
  const a = schemeRung(requested);
  const b = schemeRung(variant);
  if (a === undefined || b === undefined) return false;
  const slashA = a.path.lastIndexOf('/');
  const slashB = b.path.lastIndexOf('/');
  if (a.path.slice(0, slashA + 1) !== b.path.slice(0, slashB + 1)) return false;
  const lastA = a.path.slice(slashA + 1);
  const lastB = b.path.slice(slashB + 1);
  return lastA === '' ? lastB !== '' : lastB.startsWith(`${lastA}.`);
}
