// What the crawl does with each way a URL can go wrong: retry it
// (with backoff, within the same claim), record it and go on (permanent), or stop
// the whole crawl (fatal). One table, tested; a code it does not know is permanent.

import type { ErrorCode } from '../errors.js';

/**
 * - `retry`: transient; fetched again after a backoff, up to `retries` times, then
 *   recorded as the last attempt ended;
 * - `permanent`: recorded in the URL's `fetch` row, and the crawl goes on;
 * - `fatal`: the crawl cannot go on (the index failed, a caller bug): it stops and
 *   `crawl()` rejects with `ERR_CRAWL_STOPPED`.
 */
export type Outcome = 'retry' | 'permanent' | 'fatal';

export const OUTCOMES: readonly Outcome[] = ['retry', 'permanent', 'fatal'];

/** The codes the table must cover: every fetch result, every crawl code. */
export type TabledCode = Extract<ErrorCode, `ERR_FETCH_${string}` | `ERR_CRAWL_${string}`>;

/** code → outcome, with why. Exhaustive over `TabledCode`: a new code does not compile until it has a row. */
export const OUTCOME_TABLE = {
  // The URL itself: asking again changes nothing.
  ERR_FETCH_INVALID_URL: 'permanent',
  ERR_FETCH_UNSUPPORTED_SCHEME: 'permanent',
  // The server's redirects: recorded hop by hop, as they are.
  ERR_FETCH_TOO_MANY_REDIRECTS: 'permanent',
  ERR_FETCH_REDIRECT_LOOP: 'permanent',
  ERR_FETCH_REDIRECT_WITHOUT_LOCATION: 'permanent',
  ERR_FETCH_BAD_LOCATION: 'permanent',
  // The network and a busy server: worth another try.
  ERR_FETCH_CONNECT_TIMEOUT: 'retry',
  ERR_FETCH_HEADERS_TIMEOUT: 'retry',
  ERR_FETCH_BODY_TIMEOUT: 'retry',
  // A slow server: retried once at most (SLOW_FAILURES).
  ERR_FETCH_REQUEST_TIMEOUT: 'retry',
  ERR_FETCH_TOO_SLOW: 'retry',
  // A body cut short (reset, fewer bytes than Content-Length): the next try may come whole.
  ERR_FETCH_BODY_TRUNCATED: 'retry',
  ERR_FETCH_NETWORK: 'retry',
  // A name that did not resolve, a refused connection: a resolver or a server restarting may answer next time.
  ERR_FETCH_DNS: 'retry',
  ERR_FETCH_DNS_TEMPORARY: 'retry',
  ERR_FETCH_CONNECTION_REFUSED: 'retry',
  // Our crawl aborting a fetch: the URL goes back to the frontier unrecorded when the
  // crawl is stopping; an abort at any other time is treated as a transient failure.
  ERR_FETCH_ABORTED: 'retry',
  // The proxy: down, restarting or overloaded (a 502 to CONNECT) may answer next time.
  ERR_FETCH_PROXY: 'retry',
  // What the server sends is broken the same way every time.
  ERR_FETCH_TLS: 'permanent',
  ERR_FETCH_TLS_CERT_EXPIRED: 'permanent',
  ERR_FETCH_TLS_SELF_SIGNED: 'permanent',
  ERR_FETCH_TLS_HOSTNAME: 'permanent',
  ERR_FETCH_TLS_UNTRUSTED: 'permanent',
  ERR_FETCH_PROTOCOL: 'permanent',
  ERR_FETCH_UNSOLICITED_NOT_MODIFIED: 'permanent',
  ERR_FETCH_BODY_TOO_LARGE: 'permanent',
  ERR_FETCH_CONTENT_ENCODING: 'permanent',
  // The crawler's own redirect hook threw: a bug of ours, not the site's; not retried.
  ERR_FETCH_REDIRECT_HOOK_FAILED: 'permanent',
  // The fetcher's connection guard: the host resolves to a private address (recorded as ERR_CRAWL_PRIVATE_ADDRESS).
  ERR_FETCH_PRIVATE_ADDRESS: 'permanent',
  // A folder's file: the disk answers the same way every time.
  ERR_FETCH_NO_ROOT: 'permanent',
  ERR_FETCH_FILE_UNREADABLE: 'permanent',
  ERR_FETCH_FILE_NOT_REGULAR: 'permanent',
  // The crawl's own refusals.
  ERR_CRAWL_ROBOTS_DISALLOWED: 'permanent',
  ERR_CRAWL_ROBOTS_UNREACHABLE: 'retry',
  ERR_CRAWL_PRIVATE_ADDRESS: 'permanent',
  // Its host was paused for the run (host-breaker.ts): recorded, not requested.
  ERR_CRAWL_HOST_UNREACHABLE: 'permanent',
  ERR_CRAWL_FETCHER_THREW: 'permanent',
  ERR_CRAWL_STOPPED: 'fatal',
} as const satisfies Readonly<Record<TabledCode, Outcome>>;

/**
 * HTTP statuses that say "try again later" (RFC 9110 §15.5.9 408, §15.6.4 503,
 * §15.6.3 502, §15.6.5 504, §15.6.1 500; RFC 6585 §4 429). Retried like a
 * transient error; after the last attempt the response is recorded as it is.
 */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Failures a slow server causes: each try held the host for a deadline (up to
 * `requestTimeoutMs`) while data may still have been coming, or nothing came. Tried again once at
 * most, whatever `retries` says: a server that trickles once mostly trickles again.
 */
export const SLOW_FAILURES: ReadonlySet<string> = new Set<TabledCode>([
  'ERR_FETCH_REQUEST_TIMEOUT',
  'ERR_FETCH_TOO_SLOW',
  'ERR_FETCH_BODY_TIMEOUT',
  // No connection, or no answer to the request, within a deadline: each held the host as long.
  'ERR_FETCH_CONNECT_TIMEOUT',
  'ERR_FETCH_HEADERS_TIMEOUT',
]);

/** How many retries a failure with `code` gets: `retries`, or at most one for a slow failure. */
export function retriesFor(code: string | undefined, retries: number): number {
  return code !== undefined && SLOW_FAILURES.has(code) ? Math.min(1, retries) : retries;
}

/** The outcome of an error code; a code the table does not know is permanent. */
export function outcomeOf(code: string): Outcome {
  if (code.startsWith('ERR_STORE_') || code === 'ERR_API_BAD_OPTION') return 'fatal';
  return (OUTCOME_TABLE as Readonly<Record<string, Outcome>>)[code] ?? 'permanent';
}

/**
 * The outcome of one fetch: by its error code when it has one, else by its status.
 * `undefined` means it went well enough to be recorded as it is.
 */
export function outcomeOfResponse(errorCode: string | undefined, status: number | undefined): Outcome | undefined {
  if (errorCode !== undefined) return outcomeOf(errorCode);
  return status !== undefined && RETRY_STATUSES.has(status) ? 'retry' : undefined;
}

/** The largest wait before a retry, whatever `Retry-After` asks for. */
export const MAX_RETRY_DELAY_MS = 60_000;

/**
 * Exponential backoff: `baseMs` · 2^(attempt − 1) before the attempt after `attempt`
 * (1-based), or the response's `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an
 * HTTP-date) when that is longer; never more than `MAX_RETRY_DELAY_MS`.
 */
export function retryDelayMs(attempt: number, baseMs: number, retryAfter: string | undefined, now: number): number {
  let delay = baseMs * 2 ** (attempt - 1);
  const asked = retryAfterMs(retryAfter, now);
  if (asked !== undefined && asked > delay) delay = asked;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

/**
 * RFC 9110 §10.2.3 `Retry-After = HTTP-date / delay-seconds`: the wait it asks for
 * from `now`, in ms (≤ 0 for a date past), uncapped; `undefined` when absent or unreadable.
 */
export function retryAfterMs(retryAfter: string | undefined, now: number): number | undefined {
  if (retryAfter === undefined) return undefined;
  const text = retryAfter.trim();
  const asked = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(asked) ? asked : undefined;
}
