// crawl(seed, options) of the library API, which opens what `linkladder crawl` opens.
// The URI functions of the API (parse, resolve, …) are in entry/uri.ts.

import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { crawlSettingsSchema } from './config/index.js';
import {
  RENAMED_CRAWL_OPTIONS,
  runCrawler,
  crawlerOptionsOf,
  credentialOptionsOf,
  fetcherOptionsOf,
  httpOptionsOf,
  parseOptionData,
  validateSeeds,
  type CrawlRuntime,
  type CrawlSettingsOf,
  type CrawlSummary,
} from './crawl/index.js';
import { OptionError, describeValue } from './errors.js';
import { checkOptionsObject } from './infra/index.js';
import { createFetcher, createRequestCredentials, createRobotsPolicy, splitSeedUserinfo, type Fetcher, type RobotsPolicy } from './fetch/index.js';
import { PgStore, SqliteStore, isPostgresUrl, type IndexWriter } from './store/index.js';

/** The options of `crawl()`: `linkladder crawl`'s settings but `json`, by the same names, and what is injected. */
const librarySettingsSchema = crawlSettingsSchema.omit({ json: true });

/**
 * The options of `crawl(seed, options)`: the data options of `linkladder crawl` by
 * the same names and with the same defaults (docs/options.md; each documented
 * with its `@default` on `crawlOptionsSchema`), and what a crawl may be given instead
 * of what it opens itself.
 */
export interface CrawlOptions
  extends CrawlSettingsOf<z.input<typeof librarySettingsSchema>>,
    Pick<CrawlRuntime, 'signal' | 'onEvent' | 'now' | 'sleep' | 'verdictCache'> {
  /**
   * The index to crawl into, instead of opening the SQLite one at `db`. Left open.
   * @default the SQLite index at `db`, created if needed, resumed if it holds a crawl, closed at the end
   */
  readonly store?: IndexWriter | undefined;
  /**
   * Fetches each URL, instead of the HTTP fetcher with `userAgent`. Left open. A
   * fetcher given here guards its connections itself (`FetcherOptions.refusePrivate`).
   * @default createFetcher({ userAgent, refusePrivate: !allowPrivate, maxBodyBytes }), closed at the end
   */
  readonly fetcher?: Fetcher | undefined;
  /**
   * robots.txt, instead of the policy for `userAgent` (cached in the index, as the CLI
   * does); `false` does not consult it. Left open.
   * @default createRobotsPolicy({ userAgent, refusePrivate: !allowPrivate, cache: the index }), closed at the end
   */
  readonly robots?: RobotsPolicy | false | undefined;
}

/** The options of crawl() that are not data, in the order messages list them. */
const LIBRARY_RUNTIME_KEYS = ['store', 'fetcher', 'robots', 'signal', 'onEvent', 'now', 'sleep', 'verdictCache'] as const satisfies readonly (keyof CrawlOptions)[];

const LIBRARY_RENAMED: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(Object.entries(RENAMED_CRAWL_OPTIONS).filter(([, to]) => to in librarySettingsSchema.shape)),
  path: 'db',
  dbPath: 'db',
});

/**
 * Crawl from `seed` (absolute http(s) URLs) with the defaults of `linkladder crawl`:
 * into the SQLite index at `db` (`data/linkladder.db`; a second crawl resumes), with
 * the HTTP fetcher and robots.txt for `userAgent`. What it opens it closes; what it
 * is given (`store`, `fetcher`, `robots`) it leaves open. A bad option throws
 * `OptionError` before anything is opened; a crawl that fails throws `CrawlError`
 * (with the summary of what was done).
 */
export async function crawl(seed: string | readonly string[], options?: CrawlOptions): Promise<CrawlSummary> {
  const given = checkOptionsObject(options);
  const settings = parseOptionData(librarySettingsSchema, given, LIBRARY_RUNTIME_KEYS, LIBRARY_RENAMED);
  if (given.store !== undefined && given.db !== undefined) {
    throw new OptionError('Expected one of `store` and `db`, got both: `db` is the path of the index crawl() opens itself');
  }
  if (given.robots !== undefined && given.robots !== false && (typeof given.robots !== 'object' || given.robots === null)) {
    throw new OptionError(`Expected \`robots\` to be a RobotsPolicy or false, got ${describeValue(given.robots)}`);
  }
  // A seed's userinfo is Basic auth for its origin: the seed is crawled, stored and shown without it.
  const split = splitSeedUserinfo(typeof seed === 'string' ? [seed] : Array.isArray(seed) ? (seed as readonly string[]) : []);
  const seeds = validateSeeds(typeof seed === 'string' || Array.isArray(seed) ? split.seeds : seed, settings.allowPrivate);
  const cookieJarText = settings.cookieJar === '' ? undefined : await readCookieJar(settings.cookieJar);
  const credentialOptions = credentialOptionsOf(settings, { seeds, userinfo: split.userinfo, env: process.env, cookieJarText });
  if (credentialOptions !== undefined && given.fetcher !== undefined) {
    throw new OptionError(
      'Expected no `header`, `headerFor`, `cookieJar`, `keepCookies` or user:password in a seed with `fetcher`: they are for the fetcher crawl() makes (give yours `credentials` instead)',
    );
  }
  const credentials = credentialOptions === undefined ? {} : { credentials: createRequestCredentials(credentialOptions) };
  const closing: (() => unknown)[] = [];
  try {
    let store = given.store as IndexWriter | undefined;
    if (store === undefined) {
      // A postgres:// URL names a PostgreSQL index, never a file.
      const index = isPostgresUrl(settings.db) ? await PgStore.open({ url: settings.db, maxConnections: settings.dbPoolSize, transactionPooling: settings.dbTransactionPooling }) : new SqliteStore({ path: settings.db });
      closing.push(() => index.close());
      store = index;
    }
    let fetcher = given.fetcher as Fetcher | undefined;
    if (fetcher === undefined) {
      // On the crawl's clock: the starts it records are the ones it paces hosts by.
      const http = createFetcher({ userAgent: settings.userAgent, ...fetcherOptionsOf(settings), ...credentials, ...(given.now === undefined ? {} : { now: given.now as () => number }) });
      closing.push(() => http.close());
      fetcher = http;
    }
    let robots = given.robots === false ? undefined : (given.robots as RobotsPolicy | undefined);
    if (robots === undefined && given.robots !== false && !settings.ignoreRobots) {
      // robots.txt answers are kept in the index (RFC 9309 §2.4), as the CLI keeps them.
      const policy = createRobotsPolicy({ userAgent: settings.userAgent, ...httpOptionsOf(settings), cache: store.robotsCache, ...credentials });
      closing.push(() => policy.close());
      robots = policy;
    }
    const runtime: CrawlRuntime = {
      store,
      fetcher,
      robots,
      signal: given.signal as CrawlRuntime['signal'],
      onEvent: given.onEvent as CrawlRuntime['onEvent'],
      ...(given.now === undefined ? {} : { now: given.now as NonNullable<CrawlRuntime['now']> }),
      ...(given.sleep === undefined ? {} : { sleep: given.sleep as NonNullable<CrawlRuntime['sleep']> }),
      verdictCache: given.verdictCache as CrawlRuntime['verdictCache'],
    };
    return await runCrawler(crawlerOptionsOf(settings, seeds, runtime));
  } finally {
    // The clients first, the index last: what the crawl wrote stays written.
    for (const close of closing.reverse()) await close();
  }
}


/** The `cookieJar` file's text; one that cannot be read is a bad option. */
async function readCookieJar(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new OptionError(`Expected \`cookieJar\` to name a readable cookies.txt, got ${describeValue(file)} (${code})`);
  }
}
