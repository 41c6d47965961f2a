// What a crawl's settings ask of the HTTP clients made for it (the fetcher and the
// robots.txt policy): one mapping, for crawl() and the command line alike.

import { readFileSync } from 'node:fs';
import { OptionError } from '../errors.js';
import type { CredentialOptions, FetcherOptions, RobotsPolicyOptions } from '../fetch/index.js';
import type { CrawlSettingsData } from './crawl-settings.js';

/** The options both clients share, set from the crawl's settings. */
export type HttpOptions = Pick<
  FetcherOptions & RobotsPolicyOptions,
  'refusePrivate' | 'requestTimeoutMs' | 'minBytesPerSecond' | 'proxy' | 'ca' | 'insecure' | 'http2'
>;

/** The settings both clients are made from. */
export type HttpSettings = Pick<CrawlSettingsData, 'allowPrivate' | 'requestTimeoutMs' | 'minBytesPerSecond'> &
  Partial<Pick<CrawlSettingsData, 'proxy' | 'caFile' | 'insecure' | 'http2'>>;

/**
 * - `refusePrivate` unless `allowPrivate`: a host name that resolves to a private
 *   address is refused at connect time, as a literal one is refused by the scope;
 * - `requestTimeoutMs` and `minBytesPerSecond`, as set;
 * - `proxy`: `none` as `false`, empty as the environment's; `caFile` read here (an
 *   unreadable one is an `OptionError`); `insecure` as set;
 * - `http2`, as set (on unless turned off).
 */
export function httpOptionsOf(settings: HttpSettings): HttpOptions {
  const proxy = settings.proxy ?? '';
  return Object.freeze({
    refusePrivate: !settings.allowPrivate,
    requestTimeoutMs: settings.requestTimeoutMs,
    minBytesPerSecond: settings.minBytesPerSecond,
    proxy: proxy === '' ? undefined : proxy === 'none' ? false : proxy,
    ca: settings.caFile === undefined || settings.caFile === '' ? undefined : [readCaFile(settings.caFile)],
    insecure: settings.insecure ?? false,
    http2: settings.http2 ?? true,
  });
}

function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new OptionError(`Expected \`caFile\` to be a readable PEM file, got \`${path}\`: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new OptionError(`Expected \`caFile\` to be a PEM file of certificates ("-----BEGIN CERTIFICATE-----"), got \`${path}\`, which has none`);
  }
  return text;
}

/** The fetcher's options: the shared ones and the body cap (robots.txt has its own, RFC 9309 §2.5). */
export type FetcherHttpOptions = HttpOptions & Pick<FetcherOptions, 'maxBodyBytes' | 'maxDecodedBytes'>;

/** `httpOptionsOf`, and `maxBodyBytes` as the fetcher's caps on the body's bytes, on the wire and decompressed. */
export function fetcherOptionsOf(settings: HttpSettings & Pick<CrawlSettingsData, 'maxBodyBytes'>): FetcherHttpOptions {
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
