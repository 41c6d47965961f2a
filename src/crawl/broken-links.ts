// What counts as an error, and how the URLs judged broken are counted by kind: one
// definition for the crawl's summary, `stats` and the HTML report.

/** How a URL's last fetch went wrong. */
export type ErrorKind =
  /** 4xx: the server says there is no such resource (or not for us). */
  | 'client-error'
  /** 5xx: the server failed. */
  | 'server-error'
  /** No usable response: network failure, timeout, TLS, a redirect chain that leads nowhere. */
  | 'failed'
  /** Not requested: robots.txt (disallowed, or unreachable for an external link) or the private-address guard refused it. */
  | 'refused'
  /** A response came and is kept, its body cut by the size cap or undecodable. */
  | 'cut';

/** The kinds a broken URL is counted under (its verdict says whether it is broken). */
export type BrokenKind = Extract<ErrorKind, 'client-error' | 'server-error' | 'failed'>;

export const BROKEN_KINDS: readonly BrokenKind[] = ['client-error', 'server-error', 'failed'];

const REFUSED: ReadonlySet<string> = new Set(['ERR_CRAWL_ROBOTS_DISALLOWED', 'ERR_CRAWL_ROBOTS_UNREACHABLE', 'ERR_CRAWL_PRIVATE_ADDRESS']);
// A body cut short on the wire (truncated, a deadline, too slow) is no representation:
// the URL is recorded as failed (fetch/read-body.ts `isBodyCut`), a broken link's target.
const CUT: ReadonlySet<string> = new Set(['ERR_FETCH_BODY_TOO_LARGE', 'ERR_FETCH_CONTENT_ENCODING']);

/**
 * The error of a fetch, if it is one: its code, else `HTTP_nnn` for a status of 400
 * or more. The index's reader counts the same (`IndexReader.errorsByCode`).
 */
export function errorCodeOf(errorCode: string | undefined, status: number | undefined): string | undefined {
  if (errorCode !== undefined) return errorCode;
  return status !== undefined && status >= 400 ? `HTTP_${status}` : undefined;
}

/** What kind of error a code of `errorCodeOf` is. */
export function errorKindOf(code: string): ErrorKind {
  const http = /^HTTP_(\d{3})$/.exec(code);
  if (http !== null) return Number(http[1]) >= 500 ? 'server-error' : 'client-error';
  if (REFUSED.has(code)) return 'refused';
  if (CUT.has(code)) return 'cut';
  return 'failed';
}

/**
 * The kind a URL judged broken is counted under, from its `errorCodeOf` code: its
 * status class, else no response (a network failure, a redirect chain that leads
 * nowhere). A status below 400 that a status policy calls broken counts with 4xx.
 */
export function brokenKindOf(error: string | undefined): BrokenKind {
  if (error === undefined) return 'client-error';
  const kind = errorKindOf(error);
  return kind === 'client-error' || kind === 'server-error' ? kind : 'failed';
}

/** No broken URL yet, by kind. */
export function noBroken(): Record<BrokenKind, number> {
  return { 'client-error': 0, 'server-error': 0, failed: 0 };
}
