// The options of crawl(): defaults in one const, validated once at the boundary.

import { setTimeout as sleepTimer } from 'node:timers/promises';
import { BASE_MODES, isBaseMode, type BaseMode } from '../base/index.js';
import { OptionError, describeValue } from '../errors.js';
import type { Fetcher, RobotsPolicy } from '../fetch/index.js';
import { DEFAULT_FOLLOW, LINK_KINDS, isLinkKind, type LinkKind } from '../html/index.js';
import { normalizeReference } from '../ladder/index.js';
import type { IndexWriter } from '../store/index.js';
import { parseBase, serialize } from '../uri/index.js';
import type { CrawlEvent } from './crawl-summary.js';
import { privateAddressOf } from './private-address.js';
import { CRAWL_SCHEMES, SCOPES, describeVerdict, type Scope } from './scope.js';

/**
 * Which `Content-Location` values (RFC 9110 §8.7) make the URL asked for an alias of
 * the one named (DESIGN.md §2 rung 4). Evidence from another origin never counts.
 * - `negotiated`: only the pattern of content negotiation — a variant in the same
 *   directory whose last segment extends the one asked for (`page.html` →
 *   `page.html.en`, `page` → `page.en.html`), or any file in it for a directory
 *   (`/manual/` → `/manual/index.html.en`). A server that sends `Content-Location: /`
 *   on every page then makes nothing an alias (DESIGN.md §4).
 * - `same-origin`: any URL of the same origin, checked only by contradiction (two
 *   responses that claim to be one URL with different bodies revoke the aliases).
 * - `off`: Content-Location makes no alias (it still plays its part in the base chain).
 */
export const CONTENT_LOCATION_POLICIES = ['negotiated', 'same-origin', 'off'] as const;

export type ContentLocationPolicy = (typeof CONTENT_LOCATION_POLICIES)[number];

export interface CrawlOptions {
  /** Where the crawl starts: absolute http(s) URLs, admitted at depth 0. */
  readonly seeds: string | readonly string[];
  /** The index: seen-set, frontier and evidence. A second crawl on the same index resumes. */
  readonly store: IndexWriter;
  /** Fetches one URL, following redirects hop by hop. */
  readonly fetcher: Fetcher;
  /**
   * robots.txt for the crawler's user-agent; its Crawl-delay raises `perHostDelayMs`.
   * @default undefined (robots.txt is not consulted)
   */
  readonly robots?: RobotsPolicy | undefined;
  /**
   * Fetches in flight at once, over all hosts.
   * @default 4
   */
  readonly concurrency?: number;
  /**
   * Fetches in flight at once to one host.
   * @default 1
   */
  readonly perHostConcurrency?: number;
  /**
   * Least time between the starts of two requests to one host, in ms; a larger
   * robots.txt Crawl-delay wins.
   * @default 0
   */
  readonly perHostDelayMs?: number;
  /**
   * Links deeper than this (seeds are depth 0) are recorded, not followed.
   * @default Infinity
   */
  readonly maxDepth?: number;
  /**
   * Stop after this many URLs were requested (retries of one URL count once).
   * @default Infinity
   */
  readonly maxPages?: number;
  /**
   * How far from the seeds the crawl goes (see `SCOPES`).
   * @default 'origin'
   */
  readonly scope?: Scope;
  /**
   * When not empty, a URL is followed only if one of these matches it (tested
   * against its key: the RFC 3986 §6.2.3 scheme-rung form, without fragment).
   * @default []
   */
  readonly include?: readonly RegExp[];
  /**
   * A URL that one of these matches is recorded, not followed.
   * @default []
   */
  readonly exclude?: readonly RegExp[];
  /**
   * Follow links to loopback, private and link-local addresses and `localhost`
   * (compared numerically: `0x7f.1`, `2130706433`, `[::1]`).
   * @default false
   */
  readonly allowPrivate?: boolean;
  /**
   * The base URI chain (DESIGN.md §3): `rfc3986` uses Content-Location, `browser`
   * does not.
   * @default 'rfc3986'
   */
  readonly baseMode?: BaseMode;
  /**
   * The kinds of reference followed; every reference is recorded anyway. `link`
   * covers `<link href>` and the HTTP `Link` header.
   * @default ['navigation', 'frame', 'refresh']
   */
  readonly follow?: readonly LinkKind[];
  /**
   * Which Content-Location values make an alias (see `CONTENT_LOCATION_POLICIES`).
   * @default 'negotiated'
   */
  readonly contentLocationAlias?: ContentLocationPolicy;
  /**
   * How many times a transient failure (a timeout, a network error, 429, 503 …) is
   * tried again, within the same claim, before it is recorded.
   * @default 2
   */
  readonly retries?: number;
  /**
   * The first retry's backoff in ms, doubled for each next one; a longer
   * `Retry-After` wins (at most 60 s). The host waits, other hosts go on.
   * @default 1000
   */
  readonly retryDelayMs?: number;
  /**
   * Stops the crawl: nothing more is claimed, fetches in flight are aborted, and
   * URLs claimed but not fetched go back to the frontier.
   * @default undefined
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called with each event (`page`, `error`, `evidence`, `progress`). If it throws,
   * the crawl stops with `ERR_CRAWL_STOPPED`.
   * @default undefined
   */
  readonly onEvent?: ((event: CrawlEvent) => void) | undefined;
  /**
   * The clock: Unix ms, for fetch records and the per-host schedule.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Waits `ms` (for a host's delay or backoff); must settle, in any way, when `signal` aborts.
   * @default setTimeout of node:timers/promises
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The default of every option that has one. */
export const CRAWL_DEFAULTS = Object.freeze({
  robots: undefined,
  concurrency: 4,
  perHostConcurrency: 1,
  perHostDelayMs: 0,
  maxDepth: Infinity,
  maxPages: Infinity,
  scope: 'origin',
  include: Object.freeze([]) as readonly RegExp[],
  exclude: Object.freeze([]) as readonly RegExp[],
  allowPrivate: false,
  baseMode: 'rfc3986',
  follow: DEFAULT_FOLLOW,
  contentLocationAlias: 'negotiated',
  retries: 2,
  retryDelayMs: 1000,
  signal: undefined,
  onEvent: undefined,
  now: Date.now,
  sleep: (ms: number, signal: AbortSignal): Promise<void> => sleepTimer(ms, undefined, { signal }).catch(() => undefined),
} as const satisfies Omit<Required<CrawlOptions>, 'seeds' | 'store' | 'fetcher'> & Record<string, unknown>);

/** Options checked once; every field set. */
export interface ValidCrawlOptions {
  /** The seeds at the scheme rung (RFC 3986 §6.2.3), fragments dropped. */
  readonly seeds: readonly string[];
  readonly store: IndexWriter;
  readonly fetcher: Fetcher;
  readonly robots: RobotsPolicy | undefined;
  readonly concurrency: number;
  readonly perHostConcurrency: number;
  readonly perHostDelayMs: number;
  readonly maxDepth: number;
  readonly maxPages: number;
  readonly scope: Scope;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
  readonly allowPrivate: boolean;
  readonly baseMode: BaseMode;
  readonly follow: readonly LinkKind[];
  readonly contentLocationAlias: ContentLocationPolicy;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly signal: AbortSignal | undefined;
  readonly onEvent: ((event: CrawlEvent) => void) | undefined;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

const KNOWN = [
  'seeds',
  'store',
  'fetcher',
  'robots',
  'concurrency',
  'perHostConcurrency',
  'perHostDelayMs',
  'maxDepth',
  'maxPages',
  'scope',
  'include',
  'exclude',
  'allowPrivate',
  'baseMode',
  'follow',
  'contentLocationAlias',
  'retries',
  'retryDelayMs',
  'signal',
  'onEvent',
  'now',
  'sleep',
] as const;

/** Names people reach for, and the option that does it. */
const RENAMED: Readonly<Record<string, string>> = {
  seed: 'seeds',
  urls: 'seeds',
  maxConcurrency: 'concurrency',
  hostConcurrency: 'perHostConcurrency',
  delay: 'perHostDelayMs',
  delayMs: 'perHostDelayMs',
  depth: 'maxDepth',
  limit: 'maxPages',
  maxRequests: 'maxPages',
  base: 'baseMode',
  mode: 'baseMode',
  maxRetries: 'retries',
};

/** Check options once, at the boundary; a bad option throws `OptionError`. */
export function validateCrawlOptions(options: CrawlOptions): ValidCrawlOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const given = options as unknown as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(given)) {
    if ((KNOWN as readonly string[]).includes(key)) continue;
    const replacement = RENAMED[key];
    throw new OptionError(
      replacement === undefined
        ? `Unknown option \`${key}\`; the options are ${KNOWN.map((name) => `\`${name}\``).join(', ')}`
        : `Option \`${key}\` is not supported; use \`${replacement}\``,
    );
  }
  const allowPrivate = checkBoolean('allowPrivate', given.allowPrivate, CRAWL_DEFAULTS.allowPrivate);
  return Object.freeze({
    seeds: checkSeeds(given.seeds, allowPrivate),
    store: checkObject<IndexWriter>('store', given.store, ['admit', 'claim', 'recordFetch', 'addAlias', 'revokeAlias', 'getUrl', 'findUrl', 'stats'], 'an IndexWriter'),
    fetcher: checkObject<Fetcher>('fetcher', given.fetcher, ['fetch'], 'a Fetcher'),
    robots:
      given.robots === undefined
        ? undefined
        : checkObject<RobotsPolicy>('robots', given.robots, ['isAllowed', 'crawlDelayMs'], 'a RobotsPolicy'),
    concurrency: checkInteger('concurrency', given.concurrency, CRAWL_DEFAULTS.concurrency, 1, false),
    perHostConcurrency: checkInteger('perHostConcurrency', given.perHostConcurrency, CRAWL_DEFAULTS.perHostConcurrency, 1, false),
    perHostDelayMs: checkInteger('perHostDelayMs', given.perHostDelayMs, CRAWL_DEFAULTS.perHostDelayMs, 0, false),
    maxDepth: checkInteger('maxDepth', given.maxDepth, CRAWL_DEFAULTS.maxDepth, 0, true),
    maxPages: checkInteger('maxPages', given.maxPages, CRAWL_DEFAULTS.maxPages, 0, true),
    scope: checkOneOf('scope', given.scope, CRAWL_DEFAULTS.scope, SCOPES),
    include: checkPatterns('include', given.include),
    exclude: checkPatterns('exclude', given.exclude),
    allowPrivate,
    baseMode: checkBaseMode(given.baseMode),
    follow: checkFollow(given.follow),
    contentLocationAlias: checkOneOf('contentLocationAlias', given.contentLocationAlias, CRAWL_DEFAULTS.contentLocationAlias, CONTENT_LOCATION_POLICIES),
    retries: checkInteger('retries', given.retries, CRAWL_DEFAULTS.retries, 0, false),
    retryDelayMs: checkInteger('retryDelayMs', given.retryDelayMs, CRAWL_DEFAULTS.retryDelayMs, 0, false),
    signal: checkSignal(given.signal),
    onEvent: given.onEvent === undefined ? undefined : checkFunction<NonNullable<CrawlOptions['onEvent']>>('onEvent', given.onEvent),
    now: given.now === undefined ? CRAWL_DEFAULTS.now : checkFunction<() => number>('now', given.now),
    sleep: given.sleep === undefined ? CRAWL_DEFAULTS.sleep : checkFunction<ValidCrawlOptions['sleep']>('sleep', given.sleep),
  });
}

function checkSeeds(value: unknown, allowPrivate: boolean): readonly string[] {
  const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  if (list.length === 0) {
    throw new OptionError(`Expected \`seeds\` to be an absolute http(s) URL or a non-empty array of them, got ${describeValue(value)}`);
  }
  return Object.freeze(
    list.map((seed) => {
      const parsed = typeof seed === 'string' ? parseBase(seed) : undefined;
      const uri = parsed?.ok === true ? normalizeReference(parsed.value, 'scheme') : undefined;
      const scheme = uri?.scheme?.toLowerCase();
      if (uri === undefined || scheme === undefined || !CRAWL_SCHEMES.has(scheme) || uri.host === undefined || uri.host === '') {
        const why = parsed !== undefined && !parsed.ok ? ` (${parsed.error.code} at index ${parsed.error.index})` : '';
        throw new OptionError(`Expected \`seeds\` to hold absolute http(s) URLs with a host, got ${describeValue(seed)}${why}`);
      }
      const address = allowPrivate ? undefined : privateAddressOf(uri.host);
      if (address !== undefined) {
        throw new OptionError(
          `Expected \`seeds\` to name public hosts unless \`allowPrivate\` is true, got ${describeValue(seed)}: ${describeVerdict({ reason: 'private-address', address })}`,
        );
      }
      return serialize({ ...uri, fragment: undefined });
    }),
  );
}

function checkObject<T>(name: string, value: unknown, methods: readonly string[], what: string): T {
  const missing =
    typeof value === 'object' && value !== null
      ? methods.find((method) => typeof (value as Record<string, unknown>)[method] !== 'function')
      : methods[0];
  if (missing !== undefined) {
    throw new OptionError(`Expected \`${name}\` to be ${what} (with a \`${missing}\` method), got ${describeValue(value)}`);
  }
  return value as T;
}

function checkInteger(name: string, value: unknown, fallback: number, min: number, allowInfinity: boolean): number {
  if (value === undefined) return fallback;
  const isValid = typeof value === 'number' && ((Number.isSafeInteger(value) && value >= min) || (allowInfinity && value === Infinity));
  if (!isValid) {
    throw new OptionError(`Expected \`${name}\` to be an integer >= ${min}${allowInfinity ? ' or Infinity' : ''}, got ${describeValue(value)}`);
  }
  return value;
}

function checkBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new OptionError(`Expected \`${name}\` to be a boolean, got ${describeValue(value)}`);
  return value;
}

function checkOneOf<T extends string>(name: string, value: unknown, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new OptionError(`Expected \`${name}\` to be one of ${allowed.join(', ')}, got ${describeValue(value)}`);
  }
  return value as T;
}

function checkBaseMode(value: unknown): BaseMode {
  if (value === undefined) return CRAWL_DEFAULTS.baseMode;
  if (!isBaseMode(value)) throw new OptionError(`Expected \`baseMode\` to be one of ${BASE_MODES.join(', ')}, got ${describeValue(value)}`);
  return value;
}

function checkPatterns(name: 'include' | 'exclude', value: unknown): readonly RegExp[] {
  if (value === undefined) return CRAWL_DEFAULTS[name];
  if (!Array.isArray(value) || !value.every((pattern) => pattern instanceof RegExp)) {
    throw new OptionError(`Expected \`${name}\` to be an array of RegExp, got ${describeValue(value)}`);
  }
  // A global or sticky RegExp keeps state between test() calls: copy it without those flags.
  return Object.freeze(value.map((pattern: RegExp) => (/[gy]/.test(pattern.flags) ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern)));
}

function checkFollow(value: unknown): readonly LinkKind[] {
  if (value === undefined) return CRAWL_DEFAULTS.follow;
  if (!Array.isArray(value) || !value.every(isLinkKind)) {
    throw new OptionError(`Expected \`follow\` to be an array of ${LINK_KINDS.join(', ')}, got ${describeValue(value)}`);
  }
  return Object.freeze([...(value as LinkKind[])]);
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw new OptionError(`Expected \`signal\` to be an AbortSignal, got ${describeValue(value)}`);
  return value;
}

function checkFunction<F>(name: string, value: unknown): F {
  if (typeof value !== 'function') throw new OptionError(`Expected \`${name}\` to be a function, got ${describeValue(value)}`);
  return value as F;
}
