// The words a URL's row is described with besides its state (url-state-machine.ts):
// the rung that matched a link to it, its role in the crawl, the verdict of its fetch.

/**
 * The rung of the RFC 3986 §6.2 ladder at which a link's target met a URL already
 * in the index: `new` when it met none; `protocol` when it met an alias, whose
 * target the link now names.
 */
export type MatchRung = 'new' | 'string' | 'syntax' | 'scheme' | 'protocol';

export const MATCH_RUNGS: readonly MatchRung[] = ['new', 'string', 'syntax', 'scheme', 'protocol'];

/**
 * How a URL relates to the crawl (migration 006):
 * - `page`: in scope and named by a followed link (or a seed): fetched with GET and read for links;
 * - `resource`: in scope and used by a page (an image, a script, a stylesheet …): fetched
 *   once with GET and not read for links, except a stylesheet, read for `url()` and `@import`;
 * - `external`: out of the crawl's scope: checked once (HEAD, GET where HEAD is refused), never read.
 */
export type UrlRole = 'page' | 'resource' | 'external';

export const URL_ROLES: readonly UrlRole[] = ['page', 'resource', 'external'];

/** Which role wins when links of two roles name one queued URL: `page` over `resource` over `external`. */
export function roleRank(role: UrlRole): number {
  return role === 'page' ? 2 : role === 'resource' ? 1 : 0;
}

/**
 * What a fetch says of its URL as a link's target (src/crawl/verdict.ts decides it):
 * `ok` it answered; `broken` it is not there or leads nowhere; `unverified` the answer
 * proves neither (a timeout, 5xx, 429, a bot wall, a robots.txt refusal …).
 */
export type Verdict = 'ok' | 'broken' | 'unverified';

/** The HTTP method of a fetch. */
export type FetchMethod = 'GET' | 'HEAD';

/** The protocol a fetch's response came over, as ALPN names it: HTTP/1.1 or HTTP/2 (`h2`). */
export type FetchProtocol = 'http/1.1' | 'h2';



/** A zero count for each of `keys`, to be filled in. */
export function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}
