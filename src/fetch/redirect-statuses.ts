// The two sets of redirect statuses, side by side so that their difference is seen:
// the fetcher follows the first; a response that ended on one of the second, with
// a Location, is a redirect that was not followed.

/**
 * The statuses the fetcher follows as redirects: those of the Fetch Standard
 * ("redirect status"). 300, 304 and 305 are final responses (RFC 9110 §15.4.1,
 * §15.4.5, §15.4.6).
 */
export const FOLLOWED_REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The 3xx statuses that point elsewhere (RFC 9110 §15.4): the followed ones, and 300
 * (Multiple Choices) and 305 (Use Proxy), whose Location the fetcher does not follow;
 * not 304 (Not Modified: the cached representation) nor 306 (unused). A fetch that
 * ended on one of them ended on a redirect: it has no representation of its own.
 */
export const REDIRECTION_STATUSES: ReadonlySet<number> = new Set([300, ...FOLLOWED_REDIRECT_STATUSES, 305]);

/** Whether `status` is one of `REDIRECTION_STATUSES`. */
export function isRedirectionStatus(status: number | undefined): boolean {
  return status !== undefined && REDIRECTION_STATUSES.has(status);
}
