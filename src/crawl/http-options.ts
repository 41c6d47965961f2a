// What a crawl's settings ask of the HTTP clients made for it (the fetcher and the
// robots.txt policy): one mapping, for crawl() and the command line alike.

import type { FetcherOptions, RobotsPolicyOptions } from '../fetch/index.js';
import type { CrawlSettingsData } from './crawl-settings.js';

/** The options both clients share, set from the crawl's settings. */
export type HttpOptions = Pick<FetcherOptions & RobotsPolicyOptions, 'refusePrivate' | 'requestTimeoutMs' | 'minBytesPerSecond' | 'http2'>;

/**
 * - `refusePrivate` unless `allowPrivate`: a host name that resolves to a private
 *   address is refused at connect time, as a literal one is refused by the scope;
 * - `requestTimeoutMs` and `minBytesPerSecond`, as set;
 * - `http2`, as set (on unless turned off).
 */
export function httpOptionsOf(
  settings: Pick<CrawlSettingsData, 'allowPrivate' | 'requestTimeoutMs' | 'minBytesPerSecond'> & Partial<Pick<CrawlSettingsData, 'http2'>>,
): HttpOptions {
  return Object.freeze({
    refusePrivate: !settings.allowPrivate,
    requestTimeoutMs: settings.requestTimeoutMs,
    minBytesPerSecond: settings.minBytesPerSecond,
    http2: settings.http2 ?? true,
  });
}

/** The fetcher's options: the shared ones and the body cap (robots.txt has its own, RFC 9309 §2.5). */
export type FetcherHttpOptions = HttpOptions & Pick<FetcherOptions, 'maxBodyBytes' | 'maxDecodedBytes'>;

/** `httpOptionsOf`, and `maxBodyBytes` as the fetcher's caps on the body's bytes, on the wire and decompressed. */
export function fetcherOptionsOf(
  settings: Pick<CrawlSettingsData, 'allowPrivate' | 'requestTimeoutMs' | 'minBytesPerSecond' | 'maxBodyBytes'> & Partial<Pick<CrawlSettingsData, 'http2'>>,
): FetcherHttpOptions {
  return Object.freeze({ ...httpOptionsOf(settings), maxBodyBytes: settings.maxBodyBytes, maxDecodedBytes: settings.maxBodyBytes });
}
