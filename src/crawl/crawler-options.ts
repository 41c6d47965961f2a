// The options of runCrawler(), the crawl loop behind the public crawl() (src/api.ts)
// and the command line: the data options come from one schema (crawl-settings.ts),
// the rest — the seeds, and what a crawl is given to work with (index, fetcher,
// robots.txt, signal, events, clocks) — are declared here. Validated once, at the
// boundary: an object this module returned passes runCrawler() as it is.

import { setTimeout as sleepTimer } from 'node:timers/promises';
import { OptionError, describeValue } from '../errors.js';
import type { Fetcher, RobotsPolicy } from '../fetch/index.js';
import { checkFunction, checkOptionsObject } from '../infra/index.js';
import { normalizeReference } from '../ladder/index.js';
import type { IndexWriter } from '../store/index.js';
import { parseBase, serialize } from '../uri/index.js';
import type { ArchivedRecordData } from './crawl-archive.js';
import type { CrawlEvent } from './crawl-summary.js';
import { RENAMED_CRAWL_OPTIONS, crawlOptionsSchema, type CrawlSettingsData, type CrawlSettingsInput } from './crawl-settings.js';
import { parseOptionData } from './option-issues.js';
import { privateAddressOf } from './private-address.js';
import { CRAWL_SCHEMES, describeVerdict } from './scope.js';
import type { VerdictCache } from './verdict-cache.js';

/** What a crawl is given to work with: not data, so not in the settings' schema. */
export interface CrawlRuntime {
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
  /**
   * Answers of external links kept from an earlier run (`readVerdictCache`): a claimed
   * external URL with an entry is recorded from it, with the time it was really asked,
   * and requested not at all.
   * @default undefined (every external link is requested)
   */
  readonly verdictCache?: VerdictCache | undefined;
  /**
   * The URLs the scope is measured from, instead of the seeds (absolute http(s) URLs):
   * a folder being checked has every file as a seed, yet its links may name any URL
   * under its root (`scope: 'prefix'` with the root then keeps the crawl to it).
   * @default undefined (the seeds)
   */
  readonly scopeRoots?: readonly string[] | undefined;
  /**
   * Whether the external links of a page (by its retrieval URL) are checked, when
   * `checkExternal` is on; those of a page it refuses are recorded, not requested.
   * Checking only what changed leaves the external links of unchanged pages alone.
   * @default undefined (every page's)
   */
  readonly isExternalChecked?: ((pageUrl: string) => boolean) | undefined;
  /**
   * With `warc`: told of each response, revisit and lone request record once it is
   * written (its file's base name, offset, length, type, payload digest, date, status),
   * for an index of which record stands for which URL. If it throws, the archive's
   * summary says so; the crawl goes on.
   * @default undefined
   */
  readonly onArchived?: ((record: ArchivedRecordData) => void) | undefined;
}

/** The options of runCrawler(): the seeds, the data options of `crawlOptionsSchema`, and the runtime. */
export interface CrawlerOptions extends CrawlSettingsInput, CrawlRuntime {
  /** Where the crawl starts: absolute http(s) URLs, admitted at depth 0. */
  readonly seeds: string | readonly string[];
}

/** The defaults of the runtime options that have one. */
const RUNTIME_DEFAULTS: Required<Omit<CrawlRuntime, 'store' | 'fetcher'>> = Object.freeze({
  robots: undefined,
  signal: undefined,
  onEvent: undefined,
  now: Date.now,
  sleep: (ms: number, signal: AbortSignal): Promise<void> => sleepTimer(ms, undefined, { signal }).catch(() => undefined),
  verdictCache: undefined,
  scopeRoots: undefined,
  isExternalChecked: undefined,
  onArchived: undefined,
});

/** The options of runCrawler() that are not data, in the order messages list them. */
const RUNTIME_KEYS: readonly string[] = ['seeds', 'store', 'fetcher', ...Object.keys(RUNTIME_DEFAULTS)];

/** The default of every option that has one: the schema's, then the runtime's. */
export const CRAWL_DEFAULTS = Object.freeze({ ...freezeLists(crawlOptionsSchema.parse({})), ...RUNTIME_DEFAULTS });

/** The seeds, checked: at the scheme rung (RFC 3986 §6.2.3), fragments dropped. */
export type CrawlSeeds = readonly string[] & { readonly [seedsChecked]: true };
declare const seedsChecked: unique symbol;

/** Options checked once; every field set. */
export interface ValidCrawlerOptions extends CrawlSettingsData, Required<CrawlRuntime> {
  /** The seeds at the scheme rung (RFC 3986 §6.2.3), fragments dropped. */
  readonly seeds: readonly string[];
}

/** What this module returned: checked already, so runCrawler() takes it as it is. */
const VALIDATED = new WeakSet<object>();

/** Check options once, at the boundary; a bad option throws `OptionError`. */
export function validateCrawlerOptions(options: CrawlerOptions): ValidCrawlerOptions {
  if (typeof options === 'object' && options !== null && VALIDATED.has(options)) return options as unknown as ValidCrawlerOptions;
  const given = checkOptionsObject(options);
  const settings = parseOptionData(crawlOptionsSchema, given, RUNTIME_KEYS, RENAMED_CRAWL_OPTIONS);
  const seeds = validateSeeds(given.seeds, settings.allowPrivate);
  return crawlerOptionsOf(freezeLists(settings), seeds, given as unknown as CrawlRuntime);
}

/**
 * The options of a crawl whose settings were checked already (by the config layer,
 * or the library entry): only the runtime is checked here.
 */
export function crawlerOptionsOf(settings: CrawlSettingsData, seeds: CrawlSeeds, runtime: CrawlRuntime): ValidCrawlerOptions {
  const given = runtime as unknown as Readonly<Record<string, unknown>>;
  const data = Object.fromEntries(Object.keys(crawlOptionsSchema.shape).map((key) => [key, (settings as Readonly<Record<string, unknown>>)[key]]));
  const valid: ValidCrawlerOptions = Object.freeze({
    ...(data as unknown as CrawlSettingsData),
    seeds,
    store: checkObject<IndexWriter>('store', given.store, ['admit', 'claim', 'recordFetch', 'addAlias', 'revokeAlias', 'getUrl', 'findUrl', 'stats'], 'an IndexWriter'),
    fetcher: checkObject<Fetcher>('fetcher', given.fetcher, ['fetch'], 'a Fetcher'),
    // `ignoreRobots`: no robots.txt is asked or obeyed, whatever policy was given.
    robots:
      given.robots === undefined || settings.ignoreRobots
        ? undefined
        : checkObject<RobotsPolicy>('robots', given.robots, ['isAllowed', 'crawlDelayMs'], 'a RobotsPolicy'),
    signal: checkSignal(given.signal),
    onEvent: checkFunction('onEvent', given.onEvent, RUNTIME_DEFAULTS.onEvent),
    now: checkFunction('now', given.now, RUNTIME_DEFAULTS.now),
    sleep: checkFunction('sleep', given.sleep, RUNTIME_DEFAULTS.sleep),
    verdictCache: given.verdictCache === undefined ? undefined : checkObject<VerdictCache>('verdictCache', given.verdictCache, ['get'], 'a VerdictCache'),
    scopeRoots: given.scopeRoots === undefined ? undefined : checkScopeRoots(given.scopeRoots),
    isExternalChecked: checkFunction('isExternalChecked', given.isExternalChecked, RUNTIME_DEFAULTS.isExternalChecked),
    onArchived: checkFunction('onArchived', given.onArchived, RUNTIME_DEFAULTS.onArchived),
  });
  VALIDATED.add(valid);
  return valid;
}

/**
 * The seeds, checked before anything is opened: absolute http(s) URLs with a host,
 * public unless `allowPrivate`; put at the scheme rung, without fragment.
 */
export function validateSeeds(value: unknown, allowPrivate: boolean): CrawlSeeds {
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
  ) as CrawlSeeds;
}

/** The parsed settings with their lists frozen (the patterns are the caller's: left as they are). */
function freezeLists<T extends object>(settings: T): CrawlSettingsData & T {
  for (const value of Object.values(settings)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(settings) as CrawlSettingsData & T;
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

/** Scope roots are measured as seeds are (scheme rung, no fragment); a private one is no refusal here: the scope test judges links. */
function checkScopeRoots(value: unknown): readonly string[] {
  try {
    return validateSeeds(value, true);
  } catch (error) {
    throw new OptionError(`Expected \`scopeRoots\` to be a non-empty array of absolute http(s) URLs, got ${describeValue(value)} (${error instanceof Error ? error.message : String(error)})`);
  }
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw new OptionError(`Expected \`signal\` to be an AbortSignal, got ${describeValue(value)}`);
  return value;
}
