// What a crawl's settings ask of the HTTP clients made for it (the fetcher and the
// robots.txt policy): one mapping, for crawl() and the command line alike.

import type { FetcherOptions, RobotsPolicyOptions } from '../fetch/index.js';
import type { CrawlSettingsData } from './crawl-settings.js';

/** The options both clients share, set from the crawl's settings. */
export type HttpOptions = Pick<FetcherOptions & RobotsPolicyOptions, 'refusePrivate' | 'requestTimeoutMs' | 'minBytesPerSecond'>;

/**
 * - `refusePrivate` unless `allowPrivate`: a host name that resolves to a private
 *   address is refused at connect time, as a literal one is refused by the scope;
 * - `requestTimeoutMs` and `minBytesPerSecond`, as set.
 */
export function httpOptionsOf(settings: Pick<CrawlSettingsData, 'allowPrivate' | 'requestTimeoutMs' | 'minBytesPerSecond'>): HttpOptions {
  return Object.freeze({
    refusePrivate: !settings.allowPrivate,
    requestTimeoutMs: settings.requestTimeoutMs,
    minBytesPerSecond: settings.minBytesPerSecond,
  });
}
