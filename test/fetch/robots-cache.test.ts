import { describe, expect, it } from 'vitest';
import { isFetchErrorCode, readRobotsCacheEntry, robotsFacts } from '../../src/fetch/robots-cache.js';
import type { FetchedResponse } from '../../src/fetch/index.js';

const response: FetchedResponse = {
  requestUrl: 'http://a.test/robots.txt',
  finalUrl: 'http://a.test/robots.txt',
  hops: [],
  status: 200,
  headers: {},
  contentType: 'text/plain',
  charset: 'utf-8',
  body: 'User-agent: *\nDisallow: /x\n',
  bytes: 27,
  startedAt: 1_700_000_000_000,
  durationMs: 3,
  errorCode: undefined,
};

describe('robotsFacts', () => {
  it('keeps the body only when its rules apply', () => {
    expect(robotsFacts(response, true)).toEqual({ fetchedAt: 1_700_000_000_000, status: 200, errorCode: undefined, body: response.body });
    expect(robotsFacts({ ...response, status: 404, body: 'not found' }, false)).toEqual({
      fetchedAt: 1_700_000_000_000,
      status: 404,
      errorCode: undefined,
      body: undefined,
    });
    expect(robotsFacts({ ...response, body: undefined }, true).body).toBe('');
  });
});

describe('readRobotsCacheEntry', () => {
  const entry = { fetchedAt: 1, status: 200, errorCode: 'ERR_FETCH_BODY_TOO_LARGE', body: 'abcdef' };

  it('accepts an entry, cutting the body to maxBytes', () => {
    expect(readRobotsCacheEntry(entry, 4)).toEqual({ ...entry, body: 'abcd' });
    expect(readRobotsCacheEntry({ fetchedAt: 1, status: undefined, errorCode: 'ERR_FETCH_NETWORK', body: undefined }, 4)).toEqual({
      fetchedAt: 1,
      status: undefined,
      errorCode: 'ERR_FETCH_NETWORK',
      body: undefined,
    });
  });

  it('reads null as undefined', () => {
    expect(readRobotsCacheEntry({ fetchedAt: 1, status: null, errorCode: null, body: null }, 10)).toEqual({
      fetchedAt: 1,
      status: undefined,
      errorCode: undefined,
      body: undefined,
    });
  });

  it.each([
    undefined,
    null,
    'entry',
    { ...entry, fetchedAt: '1' },
    { ...entry, fetchedAt: Number.NaN },
    { ...entry, status: 99 },
    { ...entry, status: 200.5 },
    { ...entry, errorCode: 'ERR_STORE_OPEN' },
    { ...entry, errorCode: 'ERR_FETCH_UNHEARD_OF' },
    { ...entry, body: ['x'] },
  ])('refuses %j', (value) => {
    expect(readRobotsCacheEntry(value, 10)).toBeUndefined();
  });
});

describe('isFetchErrorCode', () => {
  it('knows the fetch codes only', () => {
    expect(isFetchErrorCode('ERR_FETCH_REDIRECT_HOOK_FAILED')).toBe(true);
    expect(isFetchErrorCode('ERR_CRAWL_STOPPED')).toBe(false);
    expect(isFetchErrorCode('ERR_FETCH_toString')).toBe(false);
    expect(isFetchErrorCode(undefined)).toBe(false);
  });
});
