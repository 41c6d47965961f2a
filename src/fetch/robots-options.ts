// Options of createRobotsPolicy, validated once at the boundary.

import type { LookupFunction } from 'node:net';
import { OptionError, describeValue } from '../errors.js';
import type { RequestCredentials } from './credentials.js';
import { FETCHER_DEFAULTS, RENAMED_FETCH_OPTIONS, checkCredentials, checkTransferOptions } from './fetcher-options.js';
import { MAX_TIMER_MS, checkBoolean, checkFunction, checkInteger, checkKnownKeys, checkOptionsObject } from '../infra/index.js';
import { checkCa, checkHosts, checkProxy, checkUserAgent } from './fetch-option-checks.js';
import type { RobotsCache } from './types.js';

export interface RobotsPolicyOptions {
  /**
   * Sent as the `User-Agent` header of robots.txt requests.
   * @default 'linkladder'
   */
  readonly userAgent?: string;
  /**
   * RFC 9309 §2.2.1: the product token matched (case-insensitively) against
   * `user-agent` lines. Letters, `_` and `-` only.
   * @default the leading letters, `_` and `-` of `userAgent` (`linkladder` of `linkladder/0.1 (+https://…)`)
   */
  readonly productToken?: string;
  /** @default 10000 — as `FetcherOptions.connectTimeoutMs` */
  readonly connectTimeoutMs?: number;
  /** @default 15000 — as `FetcherOptions.headersTimeoutMs` */
  readonly headersTimeoutMs?: number;
  /** @default 30000 — as `FetcherOptions.bodyTimeoutMs` */
  readonly bodyTimeoutMs?: number;
  /** @default 60000 — as `FetcherOptions.requestTimeoutMs` */
  readonly requestTimeoutMs?: number;
  /** @default 1024 — as `FetcherOptions.minBytesPerSecond` */
  readonly minBytesPerSecond?: number;
  /** @default 10000 — as `FetcherOptions.rateWindowMs` */
  readonly rateWindowMs?: number;
  /**
   * RFC 9309 §2.5: how much of a robots.txt is parsed (the RFC asks for at least
   * 500 KiB). Rules past it are not seen.
   * @default 512000 (500 KiB)
   */
  readonly maxBytes?: number;
  /**
   * RFC 9309 §2.3.1.2: redirects followed for robots.txt ("at least five
   * consecutive redirects"); past them it is taken as unavailable.
   * @default 5
   */
  readonly maxRedirects?: number;
  /**
   * RFC 9309 §2.4: how long a robots.txt is used before it is fetched again
   * (the RFC: "SHOULD NOT use the cached version for more than 24 hours"), counted
   * from its fetch, whether it was kept in memory or in `cache`.
   * @default 86400000 (24 h)
   */
  readonly cacheTtlMs?: number;
  /**
   * Keeps robots.txt across runs (the index database). An entry younger than
   * `cacheTtlMs` is used without a request; an older one is fetched again and
   * replaced. An unreachable robots.txt (5xx, 429, network failure) is not stored.
   * A cache that throws is taken as a miss (`get`) or ignored (`set`): it never changes a decision.
   * @default undefined (robots.txt is kept in memory only, for this policy's life)
   */
  readonly cache?: RobotsCache | undefined;
  /**
   * How many origins' robots.txt are kept; the least recently used is forgotten
   * past it (and fetched again if needed).
   * @default 10000
   */
  readonly maxCachedOrigins?: number;
  /**
   * As `FetcherOptions.refusePrivate`: set it as the fetcher's. A refused robots.txt
   * counts as unavailable (RFC 9309 §2.3.1.3), since the fetcher refuses the host's URLs too.
   * @default false
   */
  readonly refusePrivate?: boolean;
  /** @default [] — as `FetcherOptions.trustedHosts` */
  readonly trustedHosts?: readonly string[];
  /** @default dns.lookup — as `FetcherOptions.lookup` */
  readonly lookup?: LookupFunction;
  /**
   * The clock of the cache (ms since the epoch).
   * @default Date.now
   */
  readonly now?: () => number;
  /** @default none — as `FetcherOptions.credentials`: give both the same object */
  readonly credentials?: RequestCredentials | undefined;
  /** @default undefined (the environment's) — as `FetcherOptions.proxy` */
  readonly proxy?: string | false | undefined;
  /** @default undefined — as `FetcherOptions.ca` */
  readonly ca?: readonly string[] | undefined;
  /** @default false — as `FetcherOptions.insecure` */
  readonly insecure?: boolean | undefined;
  /** @default true — as `FetcherOptions.http2` */
  readonly http2?: boolean;
}

export const ROBOTS_DEFAULTS = Object.freeze({
  userAgent: FETCHER_DEFAULTS.userAgent,
  productToken: undefined,
  connectTimeoutMs: FETCHER_DEFAULTS.connectTimeoutMs,
  headersTimeoutMs: FETCHER_DEFAULTS.headersTimeoutMs,
  bodyTimeoutMs: FETCHER_DEFAULTS.bodyTimeoutMs,
  requestTimeoutMs: FETCHER_DEFAULTS.requestTimeoutMs,
  minBytesPerSecond: FETCHER_DEFAULTS.minBytesPerSecond,
  rateWindowMs: FETCHER_DEFAULTS.rateWindowMs,
  maxBytes: 500 * 1024,
  maxRedirects: 5,
  cacheTtlMs: 24 * 60 * 60 * 1000,
  cache: undefined,
  maxCachedOrigins: 10_000,
  refusePrivate: FETCHER_DEFAULTS.refusePrivate,
  trustedHosts: FETCHER_DEFAULTS.trustedHosts,
  lookup: undefined,
  now: Date.now,
  credentials: undefined,
  proxy: undefined,
  ca: undefined,
  insecure: false,
  http2: FETCHER_DEFAULTS.http2,
} as const);

export interface ValidRobotsPolicyOptions {
  readonly userAgent: string;
  readonly productToken: string;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly minBytesPerSecond: number;
  readonly rateWindowMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly cacheTtlMs: number;
  readonly cache: RobotsCache | undefined;
  readonly maxCachedOrigins: number;
  readonly refusePrivate: boolean;
  readonly trustedHosts: readonly string[];
  readonly lookup: LookupFunction | undefined;
  readonly now: () => number;
  readonly credentials: RequestCredentials | undefined;
  readonly proxy: string | false | undefined;
  readonly ca: readonly string[] | undefined;
  readonly insecure: boolean;
  readonly http2: boolean;
}

const KNOWN = Object.keys(ROBOTS_DEFAULTS);

/** RFC 9309 §2.2.1 `product-token = identifier`, `identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)`. */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

export function validateRobotsPolicyOptions(input: RobotsPolicyOptions | undefined): ValidRobotsPolicyOptions {
  const options = checkOptionsObject(input);
  checkKnownKeys(options, KNOWN, { ...RENAMED_FETCH_OPTIONS, maxSize: 'maxBytes', maxBodyBytes: 'maxBytes' });
  const d = ROBOTS_DEFAULTS;
  const userAgent = checkUserAgent(options.userAgent, d.userAgent);
  const token: unknown = options.productToken ?? /^[A-Za-z_-]+/.exec(userAgent)?.[0];
  if (typeof token !== 'string' || !PRODUCT_TOKEN.test(token)) {
    throw new OptionError(
      options.productToken === undefined
        ? `Expected \`productToken\` (letters, "_" and "-") when \`userAgent\` does not start with one, got \`userAgent\` ${describeValue(userAgent)}`
        : `Expected \`productToken\` to be letters, "_" and "-" only (RFC 9309 §2.2.1), got ${describeValue(token)}`,
    );
  }
  return Object.freeze({
    userAgent,
    productToken: token,
    connectTimeoutMs: checkInteger('connectTimeoutMs', options.connectTimeoutMs, d.connectTimeoutMs, 1, MAX_TIMER_MS),
    headersTimeoutMs: checkInteger('headersTimeoutMs', options.headersTimeoutMs, d.headersTimeoutMs, 1, MAX_TIMER_MS),
    bodyTimeoutMs: checkInteger('bodyTimeoutMs', options.bodyTimeoutMs, d.bodyTimeoutMs, 1, MAX_TIMER_MS),
    ...checkTransferOptions(options, d),
    maxBytes: checkInteger('maxBytes', options.maxBytes, d.maxBytes, 1, Number.MAX_SAFE_INTEGER),
    maxRedirects: checkInteger('maxRedirects', options.maxRedirects, d.maxRedirects, 0, 1000),
    cacheTtlMs: checkInteger('cacheTtlMs', options.cacheTtlMs, d.cacheTtlMs, 0, Number.MAX_SAFE_INTEGER),
    cache: checkRobotsCache(options.cache),
    maxCachedOrigins: checkInteger('maxCachedOrigins', options.maxCachedOrigins, d.maxCachedOrigins, 1, Number.MAX_SAFE_INTEGER),
    refusePrivate: checkBoolean('refusePrivate', options.refusePrivate, d.refusePrivate),
    trustedHosts: checkHosts('trustedHosts', options.trustedHosts),
    lookup: checkFunction<LookupFunction | undefined>('lookup', options.lookup, undefined),
    now: checkFunction<() => number>('now', options.now, d.now),
    credentials: checkCredentials(options.credentials),
    proxy: checkProxy(options.proxy),
    ca: checkCa(options.ca),
    insecure: checkBoolean('insecure', options.insecure, d.insecure),
    http2: checkBoolean('http2', options.http2, d.http2),
  });
}

function checkRobotsCache(value: unknown): RobotsCache | undefined {
  if (value === undefined) return undefined;
  const cache = value as Partial<Record<keyof RobotsCache, unknown>> | null;
  if (typeof cache !== 'object' || cache === null || typeof cache.get !== 'function' || typeof cache.set !== 'function') {
    throw new OptionError(`Expected \`cache\` to be a RobotsCache (an object with get and set methods), got ${describeValue(value)}`);
  }
  return value as RobotsCache;
}
