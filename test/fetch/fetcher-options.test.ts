import { describe, expect, it } from 'vitest';
import { OptionError } from '../../src/errors.js';
import {
  FETCHER_DEFAULTS,
  ROBOTS_DEFAULTS,
  createFetcher,
  createRobotsPolicy,
  validateFetcherOptions,
  validateRobotsPolicyOptions,
} from '../../src/fetch/index.js';

describe('fetcher options', () => {
  it('defaults', () => {
    expect(validateFetcherOptions(undefined)).toEqual({
      http2: true,
      userAgent: 'linkladder',
      maxRedirects: 10,
      connectTimeoutMs: 10_000,
      headersTimeoutMs: 15_000,
      bodyTimeoutMs: 30_000,
      requestTimeoutMs: 60_000,
      minBytesPerSecond: 1024,
      rateWindowMs: 10_000,
      maxBodyBytes: 10 * 1024 * 1024,
      maxDecodedBytes: 10 * 1024 * 1024,
      refusePrivate: false,
      trustedHosts: [],
      lookup: undefined,
      now: Date.now,
      proxy: undefined,
      ca: undefined,
      insecure: false,
    });
    expect(Object.isFrozen(validateFetcherOptions({}))).toBe(true);
    expect(FETCHER_DEFAULTS.maxRedirects).toBe(10);
  });

  it('proxy: an http(s) URL, false or undefined; ca: PEM certificates', () => {
    expect(validateFetcherOptions({ proxy: 'http://user:pw@127.0.0.1:3128' }).proxy).toBe('http://user:pw@127.0.0.1:3128');
    expect(validateFetcherOptions({ proxy: false }).proxy).toBe(false);
    expect(() => validateFetcherOptions({ proxy: 'socks5://127.0.0.1:1080' })).toThrow(/Expected `proxy` to be an http: or https: URL/);
    expect(() => validateFetcherOptions({ proxy: true as unknown as string })).toThrow(/Expected `proxy`/);
    expect(() => validateFetcherOptions({ ca: 'PEM' as unknown as string[] })).toThrow(/Expected `ca` to be an array of PEM texts/);
    expect(() => validateFetcherOptions({ insecure: 'yes' as unknown as boolean })).toThrow(/insecure/);
  });

  it('trustedHosts are lower-cased, IPv6 literals without brackets', () => {
    expect(validateFetcherOptions({ trustedHosts: ['Intranet.Example', '[FD00::1]'] }).trustedHosts).toEqual(['intranet.example', 'fd00::1']);
  });

  it.each([
    [{ maxRedirects: -1 }, 'Expected `maxRedirects` to be an integer between 0 and 1000, got `-1` (number)'],
    [{ maxRedirects: 1.5 }, 'Expected `maxRedirects` to be an integer between 0 and 1000, got `1.5` (number)'],
    [{ connectTimeoutMs: 0 }, 'Expected `connectTimeoutMs` to be an integer between 1 and 2147483647, got `0` (number)'],
    [{ headersTimeoutMs: '5' }, 'Expected `headersTimeoutMs` to be an integer between 1 and 2147483647, got `5` (string)'],
    [{ bodyTimeoutMs: Infinity }, 'Expected `bodyTimeoutMs` to be an integer between 1 and 2147483647, got `Infinity` (number)'],
    [{ maxBodyBytes: 0 }, 'Expected `maxBodyBytes` to be an integer >= 1, got `0` (number)'],
    [{ maxDecodedBytes: null }, 'Expected `maxDecodedBytes` to be an integer >= 1, got `null`'],
    [{ userAgent: '' }, 'Expected `userAgent` to be a non-empty string without CR, LF or NUL, got `` (string)'],
    [{ userAgent: 'a\r\nX-Injected: 1' }, 'Expected `userAgent` to be a non-empty string without CR, LF or NUL'],
    [{ lookup: 'dns' }, 'Expected `lookup` to be a function, got `dns` (string)'],
    [{ refusePrivate: 'yes' }, 'Expected `refusePrivate` to be true or false, got `yes` (string)'],
    [{ trustedHosts: 'intranet' }, 'Expected `trustedHosts` to be an array of host names, got `intranet` (string)'],
    [{ maxRedirections: 5 }, 'Option `maxRedirections` is not supported; use `maxRedirects`'],
    [{ timeout: 5 }, 'Option `timeout` is not supported; use `connectTimeoutMs, headersTimeoutMs and bodyTimeoutMs`'],
    [{ maxRedirect: 5 }, 'Unknown option `maxRedirect`; the options are `userAgent`, `maxRedirects`'],
  ])('%j throws OptionError', (options, message) => {
    expect(() => createFetcher(options as never)).toThrow(OptionError);
    expect(() => validateFetcherOptions(options as never)).toThrow(message);
  });

  it('options must be an object', () => {
    expect(() => createFetcher(5 as never)).toThrow('Expected `options` to be an object, got `5` (number)');
    expect(() => createFetcher(null as never)).toThrow('Expected `options` to be an object, got `null`');
  });
});

describe('robots policy options', () => {
  it('defaults: 500 KiB, 5 redirects, 24 h', () => {
    expect(validateRobotsPolicyOptions(undefined)).toMatchObject({
      userAgent: 'linkladder',
      productToken: 'linkladder',
      maxBytes: 500 * 1024,
      maxRedirects: 5,
      cacheTtlMs: 86_400_000,
      maxCachedOrigins: 10_000,
    });
    expect(ROBOTS_DEFAULTS.maxBytes).toBe(512_000);
  });

  it('takes the product token from the user agent', () => {
    expect(validateRobotsPolicyOptions({ userAgent: 'LinkLadder-Bot/1.2 (+https://x.example)' }).productToken).toBe(
      'LinkLadder-Bot',
    );
    expect(validateRobotsPolicyOptions({ userAgent: 'Mozilla/5.0 (compatible)', productToken: 'ladder' }).productToken).toBe(
      'ladder',
    );
  });

  it.each([
    [{ productToken: 'link ladder' }, 'Expected `productToken` to be letters, "_" and "-" only (RFC 9309 §2.2.1), got `link ladder` (string)'],
    [{ userAgent: '(bot)' }, 'Expected `productToken` (letters, "_" and "-") when `userAgent` does not start with one'],
    [{ maxBytes: 0 }, 'Expected `maxBytes` to be an integer >= 1, got `0` (number)'],
    [{ maxBodyBytes: 10 }, 'Option `maxBodyBytes` is not supported; use `maxBytes`'],
    [{ cacheTtlMs: -1 }, 'Expected `cacheTtlMs` to be an integer >= 0, got `-1` (number)'],
  ])('%j throws OptionError', (options, message) => {
    expect(() => createRobotsPolicy(options as never)).toThrow(OptionError);
    expect(() => validateRobotsPolicyOptions(options as never)).toThrow(message);
  });
});
