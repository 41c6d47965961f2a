// What a crawl's settings ask of the HTTP clients made for it (the fetcher and the
// robots.txt policy): one mapping, for crawl() and the command line alike.

import type { CredentialOptions, FetcherOptions, RobotsPolicyOptions } from '../fetch/index.js';
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

/** The fetcher's options: the shared ones and the body cap (robots.txt has its own, RFC 9309 §2.5). */
export type FetcherHttpOptions = HttpOptions & Pick<FetcherOptions, 'maxBodyBytes' | 'maxDecodedBytes'>;

/** `httpOptionsOf`, and `maxBodyBytes` as the fetcher's caps on the body's bytes, on the wire and decompressed. */
export function fetcherOptionsOf(
  settings: Pick<CrawlSettingsData, 'allowPrivate' | 'requestTimeoutMs' | 'minBytesPerSecond' | 'maxBodyBytes'>,
): FetcherHttpOptions {
  return Object.freeze({ ...httpOptionsOf(settings), maxBodyBytes: settings.maxBodyBytes, maxDecodedBytes: settings.maxBodyBytes });
}

/** What a crawl's credentials are made from beyond its settings: what the boundary (the CLI, crawl()) reads. */
export interface CredentialSources {
  /** The seeds, their userinfo taken out (`splitSeedUserinfo`). */
  readonly seeds: readonly string[];
  /** The seeds' userinfo by origin, Basic auth for that origin. */
  readonly userinfo: Readonly<Record<string, string>>;
  /** Where `${NAME}` in a header's value is read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The text of the `cookieJar` file; `undefined` without one. */
  readonly cookieJarText: string | undefined;
}

/**
 * The options of `createRequestCredentials` for a crawl's settings: `header` for the
 * seeds' origins, `headerFor`, the seeds' userinfo, the cookie jar; `undefined` when
 * none is set (the requests then carry nothing of the kind).
 */
export function credentialOptionsOf(
  settings: Pick<CrawlSettingsData, 'header' | 'headerFor' | 'cookieJar' | 'keepCookies'>,
  sources: CredentialSources,
): CredentialOptions | undefined {
  const hasUserinfo = Object.keys(sources.userinfo).length > 0;
  if (settings.header.length === 0 && settings.headerFor.length === 0 && sources.cookieJarText === undefined && !settings.keepCookies && !hasUserinfo) {
    return undefined;
  }
  return {
    headers: settings.header,
    headersFor: settings.headerFor,
    seedOrigins: sources.seeds,
    userinfo: sources.userinfo,
    cookiesTxt: sources.cookieJarText === undefined ? undefined : { text: sources.cookieJarText, source: settings.cookieJar },
    keepCookies: settings.keepCookies,
    env: sources.env,
  };
}
