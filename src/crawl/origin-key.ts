// RFC 6454 origins, compared at the RFC 3986 §6.2.3 scheme rung: evidence stays
// scoped to its origin.

import { normalizeReference } from '../ladder/index.js';
import { parseUriReference, type UriReference } from '../uri/index.js';

/** An absolute URI at the scheme rung (`HTTP://A:80/x` → `http://a/x`), or `undefined`. */
export function schemeRung(uri: string): UriReference | undefined {
  const parsed = parseUriReference(uri);
  return parsed.ok && parsed.value.scheme !== undefined ? normalizeReference(parsed.value, 'scheme') : undefined;
}

/** RFC 6454 §6.2 the ASCII serialization of a URI's origin (`scheme://host[:port]`), at the scheme rung; `undefined` when it has none. */
export function originOf(uri: string): string | undefined {
  const ref = schemeRung(uri);
  if (ref === undefined || ref.host === undefined) return undefined;
  return `${ref.scheme}://${ref.host}${ref.port === undefined || ref.port === '' ? '' : `:${ref.port}`}`;
}

/** Scheme, host and port of an absolute URI at the scheme rung, as one string; `undefined` when it is not one. */
export function originKey(uri: string): string | undefined {
  const ref = schemeRung(uri);
  return ref === undefined ? undefined : `${ref.scheme}://${ref.host ?? ''}:${ref.port ?? ''}`;
}
