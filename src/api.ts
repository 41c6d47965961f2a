// The library API: throwing forms of the core for ordinary use, and the
// result-returning `try*` forms beside them for hot loops and untrusted input; and
// crawl(seed, options), which opens what `linkladder crawl` opens.

import type { z } from 'zod';
import { crawlSettingsSchema } from './config/index.js';
import {
  RENAMED_CRAWL_OPTIONS,
  runCrawler,
  crawlerOptionsOf,
  fetcherOptionsOf,
  httpOptionsOf,
  parseOptionData,
  validateSeeds,
  type CrawlRuntime,
  type CrawlSettingsOf,
  type CrawlSummary,
} from './crawl/index.js';
import { OptionError, UriError, describeValue } from './errors.js';
import { checkOptionsObject } from './infra/index.js';
import { createFetcher, createRobotsPolicy, type Fetcher, type RobotsPolicy } from './fetch/index.js';
import { PgStore, SqliteStore, isPostgresUrl, type IndexWriter } from './store/index.js';
import {
  ReferenceResolver,
  failIn,
  mapIriToUri,
  parseUriReference,
  resolveReference,
  serialize,
  type ResolveOptions as CoreResolveOptions,
  type Result,
  type UriReference,
} from './uri/index.js';
import {
  normalizeReference,
  tryCompare as tryCompareLadder,
  tryNormalize as tryNormalizeLadder,
  type CompareOptions,
  type Comparison,
  type NormalizeOptions,
  type SyntacticRung,
} from './ladder/index.js';

function unwrap<T>(result: Result<T>, inputs: Readonly<Record<string, string>>): T {
  if (result.ok) return result.value;
  const { code, index, subject } = result.error;
  const input = (subject === undefined ? undefined : inputs[subject]) ?? Object.values(inputs)[0] ?? '';
  throw new UriError(code, index, input, subject);
}

/** RFC 3986 §4.1: parse a URI-reference into its (read-only) components, or return the first syntax error. */
export function tryParse(input: string): Result<UriReference> {
  return parseUriReference(input);
}

/** RFC 3986 §4.1: parse a URI-reference into its (frozen) components. Throws `UriError`. */
export function parse(input: string): UriReference {
  return Object.freeze(unwrap(parseUriReference(input), { input }));
}

export interface ResolveOptions extends CoreResolveOptions {
  /**
   * Normalize the target to this rung before writing it out — what a crawler keys
   * on — in one pass, without serializing and parsing it again.
   * @default 'string' (the §5.2 target as it is)
   */
  readonly rung?: SyntacticRung;
}

/** RFC 3986 §5.2: resolve `ref` against the absolute URI `base` (both parsed on each call; see `resolverFor`). */
export function tryResolve(ref: string, base: string, options?: ResolveOptions): Result<string> {
  const rung = resolveRung(options);
  const result = resolveReference(ref, base, options);
  if (!result.ok) return result;
  return { ok: true, value: serialize(rung === 'string' ? result.value : normalizeReference(result.value, rung)) };
}

/** References resolved against one base, parsed once: what a page's links need. */
export interface BoundResolver {
  /** The base, serialized without its fragment. */
  readonly base: string;
  tryResolve(ref: string): Result<string>;
  /** Throws `UriError` (`subject: 'reference'`). */
  resolve(ref: string): string;
}

/**
 * RFC 3986 §5.2 against one base, parsed once (§5.1): `resolverFor(page).resolve(href)`
 * for each link of a page, instead of `resolve(href, page)`. Throws `UriError`
 * when `base` is not an absolute URI.
 */
export function resolverFor(base: string, options?: ResolveOptions): BoundResolver {
  const rung = resolveRung(options);
  const bound = unwrap(ReferenceResolver.forBase(base, options), { base });
  const tryOne = (ref: string): Result<string> => {
    const R = parseUriReference(ref);
    if (!R.ok) return failIn(R.error, 'reference');
    const T = bound.resolve(R.value);
    return { ok: true, value: serialize(rung === 'string' ? T : normalizeReference(T, rung)) };
  };
  return Object.freeze({
    base: serialize(bound.base),
    tryResolve: tryOne,
    resolve: (ref: string) => unwrap(tryOne(ref), { reference: ref, base }),
  });
}

function resolveRung(options: ResolveOptions | undefined): SyntacticRung {
  const rung = options?.rung ?? 'string';
  if (rung !== 'string' && rung !== 'syntax' && rung !== 'scheme') {
    throw new OptionError(`Expected \`rung\` to be one of string, syntax, scheme, got ${describeValue(rung)}`);
  }
  return rung;
}

/** RFC 3986 §5.2: resolve `ref` against the absolute URI `base`. Throws `UriError`. */
export function resolve(ref: string, base: string, options?: ResolveOptions): string {
  return unwrap(tryResolve(ref, base, options), { reference: ref, base });
}

/** RFC 3986 §6.2: normalize to a rung of the ladder (default `scheme`). */
export function tryNormalize(uri: string, options?: NormalizeOptions): Result<string> {
  return tryNormalizeLadder(uri, options);
}

/** RFC 3986 §6.2: normalize to a rung of the ladder (default `scheme`). Throws `UriError`. */
export function normalize(uri: string, options?: NormalizeOptions): string {
  return unwrap(tryNormalizeLadder(uri, options), { uri });
}

/** RFC 3986 §6.2: the lowest rung at which `a` and `b` meet. */
export function tryCompare(a: string, b: string, options?: CompareOptions): Result<Comparison> {
  return tryCompareLadder(a, b, options);
}

/** RFC 3986 §6.2: the lowest rung at which `a` and `b` meet, or `rung: null`. Throws `UriError`. */
export function compare(a: string, b: string, options?: CompareOptions): Comparison {
  return unwrap(tryCompareLadder(a, b, options), { a, b });
}

/** RFC 3987 §3.1: percent-encode the non-ASCII characters of an IRI as UTF-8. */
export function tryIriToUri(iri: string): Result<string> {
  return mapIriToUri(iri);
}

/** RFC 3987 §3.1: percent-encode the non-ASCII characters of an IRI as UTF-8. Throws `UriError`. */
export function iriToUri(iri: string): string {
  return unwrap(mapIriToUri(iri), { iri });
}

/** The options of `crawl()`: `linkladder crawl`'s settings but `json`, by the same names, and what is injected. */
const librarySettingsSchema = crawlSettingsSchema.omit({ json: true });

/**
 * The options of `crawl(seed, options)`: the data options of `linkladder crawl` by
 * the same names and with the same defaults (README's options table; each documented
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
  const seeds = validateSeeds(seed, settings.allowPrivate);
  const closing: (() => unknown)[] = [];
  try {
    let store = given.store as IndexWriter | undefined;
    if (store === undefined) {
      // A postgres:// URL names a PostgreSQL index, never a file.
      const index = isPostgresUrl(settings.db) ? await PgStore.open({ url: settings.db }) : new SqliteStore({ path: settings.db });
      closing.push(() => index.close());
      store = index;
    }
    let fetcher = given.fetcher as Fetcher | undefined;
    if (fetcher === undefined) {
      const http = createFetcher({ userAgent: settings.userAgent, ...fetcherOptionsOf(settings) });
      closing.push(() => http.close());
      fetcher = http;
    }
    let robots = given.robots === false ? undefined : (given.robots as RobotsPolicy | undefined);
    if (robots === undefined && given.robots !== false) {
      // robots.txt answers are kept in the index (RFC 9309 §2.4), as the CLI keeps them.
      const policy = createRobotsPolicy({ userAgent: settings.userAgent, ...httpOptionsOf(settings), cache: store.robotsCache });
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

