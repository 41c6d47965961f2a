import { describe, expect, it } from 'vitest';
import {
  MAX_RETRY_DELAY_MS,
  OUTCOME_TABLE,
  OUTCOMES,
  RETRY_STATUSES,
  outcomeOf,
  outcomeOfResponse,
  retryDelayMs,
} from '../../src/crawl/index.js';
import { ERROR_MESSAGES } from '../../src/errors.js';

describe('the outcome table', () => {
  const tabled = Object.keys(ERROR_MESSAGES).filter((code) => code.startsWith('ERR_FETCH_') || code.startsWith('ERR_CRAWL_'));

  it('has a row for every fetch and crawl code, and no other', () => {
    expect(Object.keys(OUTCOME_TABLE).sort()).toEqual(tabled.sort());
    expect(Object.values(OUTCOME_TABLE).every((outcome) => OUTCOMES.includes(outcome))).toBe(true);
  });

  it.each([
    ['ERR_FETCH_NETWORK', 'retry'],
    ['ERR_FETCH_DNS', 'retry'],
    ['ERR_FETCH_DNS_TEMPORARY', 'retry'],
    ['ERR_FETCH_CONNECTION_REFUSED', 'retry'],
    ['ERR_FETCH_CONNECT_TIMEOUT', 'retry'],
    ['ERR_FETCH_HEADERS_TIMEOUT', 'retry'],
    ['ERR_FETCH_BODY_TIMEOUT', 'retry'],
    ['ERR_FETCH_ABORTED', 'retry'],
    ['ERR_FETCH_TLS', 'permanent'],
    ['ERR_FETCH_REDIRECT_LOOP', 'permanent'],
    ['ERR_FETCH_TOO_MANY_REDIRECTS', 'permanent'],
    ['ERR_FETCH_BODY_TOO_LARGE', 'permanent'],
    ['ERR_FETCH_UNSUPPORTED_SCHEME', 'permanent'],
    ['ERR_CRAWL_ROBOTS_DISALLOWED', 'permanent'],
    ['ERR_CRAWL_PRIVATE_ADDRESS', 'permanent'],
    ['ERR_CRAWL_FETCHER_THREW', 'permanent'],
    ['ERR_CRAWL_STOPPED', 'fatal'],
    ['ERR_STORE_OPEN', 'fatal'],
    ['ERR_STORE_NOT_FOUND', 'fatal'],
    ['ERR_API_BAD_OPTION', 'fatal'],
    ['ERR_URI_BAD_HOST', 'permanent'],
    ['ERR_SOMETHING_NEW', 'permanent'],
    ['', 'permanent'],
  ])('%s → %s', (code, outcome) => {
    expect(outcomeOf(code)).toBe(outcome);
  });

  it('a response without a code: retried for 408, 429, 500, 502, 503, 504, recorded otherwise', () => {
    expect([...RETRY_STATUSES].sort()).toEqual([408, 429, 500, 502, 503, 504]);
    for (const status of RETRY_STATUSES) expect(outcomeOfResponse(undefined, status)).toBe('retry');
    for (const status of [200, 301, 304, 404, 410, 501, undefined]) expect(outcomeOfResponse(undefined, status)).toBeUndefined();
    expect(outcomeOfResponse('ERR_FETCH_TLS', 503)).toBe('permanent');
  });

  it('backoff doubles from the base, honours a longer Retry-After, and is capped', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect([1, 2, 3].map((attempt) => retryDelayMs(attempt, 1000, undefined, now))).toEqual([1000, 2000, 4000]);
    expect(retryDelayMs(1, 1000, '7', now)).toBe(7000);
    expect(retryDelayMs(1, 1000, '0', now)).toBe(1000);
    expect(retryDelayMs(1, 1000, 'Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(retryDelayMs(1, 1000, 'soon', now)).toBe(1000);
    expect(retryDelayMs(1, 1000, '86400', now)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(20, 1000, undefined, now)).toBe(MAX_RETRY_DELAY_MS);
  });
});
