// RFC 3986 §7.4 Rare IP Address Formats: the crawl's guard over URLs as written.
// The address classification lives in the fetch layer, whose connection guard also
// judges the addresses host names resolve to.

import { privateAddressOf } from '../fetch/index.js';
import { schemeRung } from './origin-key.js';

export { privateAddressOf, parseIPv4Number, type PrivateAddress, type PrivateAddressKind } from '../fetch/index.js';

/** Whether an absolute URI's host names a private address (see `privateAddressOf`). */
export function isPrivateUrl(uri: string): boolean {
  const host = schemeRung(uri)?.host;
  return host !== undefined && privateAddressOf(host) !== undefined;
}
