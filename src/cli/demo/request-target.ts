// How the demo server and its request-log check read a request target
// (RFC 9112 §3.2 origin-form: absolute-path [ "?" query ]).

import { normalizePercentEncoding, removeDotSegments } from '../../uri/index.js';

/**
 * The key a logged request target is counted under: RFC 3986 §6.2.2.1–2 only
 * (hex digits upper case, percent-encoded unreserved octets decoded), so
 * `/%7euser/`, `/%7Euser/` and `/~user/` count as one. Dot segments are kept:
 * §5.2 resolution removes them from every target, so a request that still has
 * one comes from a crawler that did not resolve the link as RFC 3986 says.
 */
export function requestKey(target: string): string {
  return normalizePercentEncoding(target);
}

/**
 * The site path a request target is served from, or `undefined` when it is not
 * in origin-form (absolute-form and `*` are answered 404: the server proxies
 * nothing). Like Apache and nginx, the server removes dot segments (§5.2.4) and
 * ignores the query. Never throws.
 */
export function routeKey(target: string): string | undefined {
  if (!target.startsWith('/')) return undefined;
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  return removeDotSegments(normalizePercentEncoding(path));
}
