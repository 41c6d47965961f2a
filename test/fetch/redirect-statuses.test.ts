import { describe, expect, it } from 'vitest';
import { FOLLOWED_REDIRECT_STATUSES, REDIRECTION_STATUSES, isRedirectionStatus } from '../../src/fetch/redirect-statuses.js';

describe('redirect statuses', () => {
  it('the fetcher follows the Fetch Standard\'s redirect statuses', () => {
    expect([...FOLLOWED_REDIRECT_STATUSES]).toEqual([301, 302, 303, 307, 308]);
  });

  it('a response ended on a redirect when its status is a 3xx that points elsewhere (not 304, not 306)', () => {
    expect([...REDIRECTION_STATUSES].sort()).toEqual([300, 301, 302, 303, 305, 307, 308]);
    expect(isRedirectionStatus(305)).toBe(true);
    expect(isRedirectionStatus(304)).toBe(false);
    expect(isRedirectionStatus(undefined)).toBe(false);
  });
});
