// One crawl from the command line, shared by `crawl` and `demo`: the index, the
// fetcher and robots.txt, Ctrl-C, progress, events and the summary.

import { setTimeout as sleep } from 'node:timers/promises';
import { SETTINGS } from '../config/index.js';
import {
  CRAWL_DEFAULTS,
  CrawlError,
  checkedCounts,
  runCrawler,
  crawlerOptionsOf,
  fetcherOptionsOf,
  httpOptionsOf,
  originKey,
  runOutcomeOf,
  validateSeeds,
  type ArchiveSummary,
  type CrawlEvent,
  type CrawlRuntime,
  type CrawlSeeds,
  type CrawlSettingsData,
  type CrawlSummary,
} from '../crawl/index.js';
import {
  createFetcher,
  createRobotsPolicy,
  type Fetcher,
  type HttpFetcher,
  type HttpRobotsPolicy,
  type RobotsCache,
  type RequestCredentials,
  type RobotsPolicy,
} from '../fetch/index.js';
import { auditIdentities } from '../report/index.js';
import type { CrawlRunRow } from '../store/index.js';
import { processInterrupts, type CliContext, type InterruptSignal } from './cli-context.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { formatSummary, summaryJson, type IndexStanding } from './format-summary.js';
import { toJsonLine } from './json-line.js';
import type { LineWriter } from './line-writer.js';
import { lockTakeoverNotice, openWritableIndex, type PgConnection, type WritableIndex } from './open-store.js';
import { ProgressLine, isTerminal } from './progress-line.js';
import { waczLine, waczWarnings } from './wacz-lines.js';

/**
 * crawl()'s data options, checked already (the config layer parsed them with the
 * schema); those not given keep their defaults. The crawl command passes all its
 * settings (those that are not crawl()'s are left out), demo a few of its own.
 */
export type CrawlTuning = Partial<CrawlSettingsData>;

export interface CrawlRunSettings {
  readonly seeds: readonly string[];
  /** The index: a database file or a PostgreSQL URL, created if needed, resumed if it holds a crawl. */
  readonly dbPath: string;
  /** How a PostgreSQL index is reached: its pool's size, a pooler in transaction mode. @default a pool of 4, no pooler */
  readonly dbConnection?: PgConnection;
  /** For the fetcher and robots.txt alike; `undefined` for the fetcher's default. */
  readonly userAgent: string | undefined;
  /** One JSON object per event and the summary as the last one, instead of the plain summary. */
  readonly isJson: boolean;
  readonly tuning: CrawlTuning;
  /**
   * `dbPath` is the default index, named by no flag, variable or config file: it
   * takes no seed of a site it does not hold (one usage line), lest unrelated
   * sites share it unasked.
   */
  readonly isDefaultIndex?: boolean;
  /**
   * What the crawl fetches with, given the HTTP fetcher and robots.txt policy the run
   * made (and closes): `check` answers a folder's URLs from disk and sends the rest on.
   * @default the HTTP fetcher and robots.txt policy as they are
   */
  readonly clients?: ((http: CrawlClients) => CrawlClients) | undefined;
  /** runCrawler()'s runtime options beyond the index, the clients, the signal and the events. @default {} */
  readonly runtime?: Omit<CrawlRuntime, 'store' | 'fetcher' | 'robots' | 'signal' | 'onEvent'> | undefined;
  /** The summary on stderr, stdout being the command's own (`check`'s findings). @default false */
  readonly isSummaryOnStderr?: boolean | undefined;
  /** Header fields, Basic auth and cookies, for the fetcher and robots.txt alike (request-credentials.ts). @default none */
  readonly credentials?: RequestCredentials | undefined;
}

/** What a crawl fetches with: pages and robots.txt (`undefined`: not consulted). */
export interface CrawlClients {
  readonly fetcher: Fetcher;
  readonly robots: RobotsPolicy | undefined;
}

/** Printed on stderr by every run with `ignoreRobots`. */
export const IGNORE_ROBOTS_WARNING =
  '--ignore-robots: robots.txt is neither fetched nor obeyed (nor its Crawl-delay) on any host; use it only on sites you run';

export interface CrawlRun {
  readonly exitCode: ExitCode;
  /** `undefined` when the crawl did not start (a usage error). */
  readonly summary: CrawlSummary | undefined;
}

/**
 * Run one crawl and print its summary. Bad options are reported as one usage line
 * (exit 2) before the database is touched; an index that fails, before or during the
 * crawl, exits 3 (after the summary of what was done); Ctrl-C stops the crawl
 * cleanly (exit 130). Page errors are the crawl's business: they are recorded, exit 0.
 */
export async function runCrawl(settings: CrawlRunSettings, context: CliContext): Promise<CrawlRun> {
  // robots.txt answers are kept in the index (RFC 9309 §2.4), once it is open.
  let index: WritableIndex | undefined;
  const robotsCache: RobotsCache = { get: (origin) => index?.robotsCache.get(origin), set: (origin, entry) => index?.robotsCache.set(origin, entry) };
  const clients = createClients(settings, robotsCache);
  if (clients instanceof Error) return await reportUsage(clients, context);
  // On every run: a crawl that ignores robots.txt should never be one nobody chose.
  if (settings.tuning.ignoreRobots === true) await context.err.writeLine(`linkladder: warning: ${IGNORE_ROBOTS_WARNING}`);
  if (settings.tuning.insecure === true) await context.err.writeLine(`linkladder: warning: ${INSECURE_WARNING}`);
  const { fetcher, robots } = clients;
  try {
    // The seeds are the one input not checked yet: before the database is touched.
    const seeds = checkSeeds(settings);
    if (seeds instanceof Error) return await reportUsage(seeds, context);
    // A store that fails to open throws on to run-cli: one line, exit 3.
    index = await openWritableIndex(settings.dbPath, settings.dbConnection);
    const notice = lockTakeoverNotice(settings.dbPath, index);
    if (notice !== undefined) await context.err.writeLine(notice);
    // An index whose runs cannot be read is left for the crawl to report.
    const earlierRuns = await index.runs().catch((): CrawlRunRow[] => []);
    const refusal = settings.isDefaultIndex === true ? otherSite(settings.dbPath, earlierRuns, seeds) : undefined;
    if (refusal !== undefined) {
      await index.close();
      return await reportUsage(new Error(refusal), context);
    }
    const used = settings.clients?.({ fetcher, robots }) ?? { fetcher, robots };
    return await crawlInto(index, seeds, settings, used, context, earlierRuns);
  } finally {
    await Promise.all([fetcher.close(), robots.close()]);
  }
}

/** Said on every run with `--insecure`: as a warning when it starts, and in its summary. */
const INSECURE_WARNING = '--insecure: TLS certificates are not verified (expired, self-signed or wrongly named ones are accepted)';
const INSECURE_SUMMARY = 'tls: certificates not verified (--insecure)';

interface Clients {
  readonly fetcher: HttpFetcher;
  readonly robots: HttpRobotsPolicy;
}

function createClients(settings: CrawlRunSettings, cache: RobotsCache): Clients | Error {
  const userAgent = settings.userAgent === undefined ? {} : { userAgent: settings.userAgent };
  const tuning = { ...CRAWL_DEFAULTS, ...settings.tuning };
  // One object for both: robots.txt of a seed's origin gets the seed's credentials, and the cookies are one jar.
  const credentials = settings.credentials === undefined ? {} : { credentials: settings.credentials };
  let fetcher: HttpFetcher | undefined;
  try {
    fetcher = createFetcher({ ...userAgent, ...fetcherOptionsOf(tuning), ...credentials });
    return { fetcher, robots: createRobotsPolicy({ ...userAgent, ...httpOptionsOf(tuning), cache, ...credentials }) };
  } catch (error) {
    void fetcher?.close();
    if (hasCode(error, 'ERR_API_BAD_OPTION')) return error;
    throw error;
  }
}

function checkSeeds(settings: CrawlRunSettings): CrawlSeeds | Error {
  try {
    return validateSeeds(settings.seeds, settings.tuning.allowPrivate ?? CRAWL_DEFAULTS.allowPrivate);
  } catch (error) {
    if (hasCode(error, 'ERR_API_BAD_OPTION')) return error;
    throw error;
  }
}

/**
 * Why the default index takes none of `seeds`: it holds a crawl, and a seed is of an
 * origin (RFC 6454, at the scheme rung) none of its runs started from; else `undefined`.
 */
function otherSite(dbPath: string, runs: readonly CrawlRunRow[], seeds: CrawlSeeds): string | undefined {
  const held = new Map<string, string>();
  for (const run of runs) for (const seed of run.seeds) if (!held.has(originKey(seed) ?? seed)) held.set(originKey(seed) ?? seed, seed);
  if (held.size === 0) return undefined;
  const other = seeds.find((seed) => !held.has(originKey(seed) ?? seed));
  if (other === undefined) return undefined;
  const shown = [...held.values()];
  const sites = shown.length <= 3 ? shown.join(', ') : `${shown.slice(0, 3).join(', ')} and ${shown.length - 3} more`;
  return (
    `the default index ${dbPath} holds a crawl of ${sites}; ${other} is another site: ` +
    `give it an index of its own with --db FILE, or add it to this one with --db ${dbPath}`
  );
}

async function crawlInto(
  store: WritableIndex,
  seeds: CrawlSeeds,
  settings: CrawlRunSettings,
  clients: CrawlClients,
  context: CliContext,
  earlierRuns: readonly CrawlRunRow[],
): Promise<CrawlRun> {
  const { io, out } = context;
  const progress = new ProgressLine(io.stderr, { isEnabled: isTerminal(io.stderr), now: Date.now });
  const events = new EventOutput(out, settings.isJson);
  const interrupt = new AbortController();
  let stoppedBy: InterruptSignal | undefined;
  const unsubscribe = (io.onInterrupt ?? processInterrupts)((signal) => {
    stoppedBy = signal;
    interrupt.abort();
  });
  let summary: CrawlSummary;
  let failure: CrawlError | undefined;
  let standing: IndexStanding | undefined;
  /** Closing commits the last group: it fails too once a commit has failed (a full disk), and the summary is still printed. */
  let closeError: unknown;
  try {
    await keepLastRunFindings(store, context);
    summary = await runCrawler(
      crawlerOptionsOf({ ...CRAWL_DEFAULTS, ...settings.tuning }, seeds, {
        ...settings.runtime,
        store,
        fetcher: settings.isJson ? events.gate(clients.fetcher) : clients.fetcher,
        robots: clients.robots,
        signal: interrupt.signal,
        onEvent: (event) => {
          progress.see(event);
          events.write(event);
        },
      }),
    );
    if (earlierRuns.length > 0) standing = await standingOf(store);
  } catch (error) {
    if (!(error instanceof CrawlError) || error.summary === undefined) throw error;
    failure = error;
    summary = error.summary;
  } finally {
    unsubscribe();
    progress.clear();
    closeError = await store.close().then(
      () => undefined,
      (error: unknown) => error,
    );
  }
  // stdout itself failed (a closed pipe): nothing more can be said there.
  if (failure !== undefined && events.failure !== undefined && failure.cause === events.failure) throw failure.cause;
  const summaryOut = settings.isSummaryOnStderr === true ? context.err : out;
  if (settings.isJson) await summaryOut.writeLine(summaryJson(summary, standing, { insecure: settings.tuning.insecure === true }));
  else for (const line of formatSummary(summary, stoppedBy, standing)) await summaryOut.writeLine(line);
  if (!settings.isJson && settings.tuning.insecure === true) await summaryOut.writeLine(INSECURE_SUMMARY);
  const archive = summary.archive;
  if (archive !== undefined) {
    if (!settings.isJson) await summaryOut.writeLine(archiveLine(archive));
    if (archive.error !== undefined) await context.err.writeLine(`linkladder: warning: ${oneLine(archive.error)}`);
    if (archive.wacz !== undefined) {
      for (const warning of waczWarnings(archive.wacz)) await context.err.writeLine(`linkladder: warning: ${oneLine(warning)}`);
      if (!settings.isJson) await summaryOut.writeLine(`package: ${waczLine(archive.wacz)}`);
    }
    if (archive.waczError !== undefined) await context.err.writeLine(`linkladder: warning: the WACZ package was not written: ${oneLine(archive.waczError)}`);
  }
  if (failure !== undefined || closeError !== undefined) {
    const message = failure?.message ?? `the last commit of the index failed: ${closeError instanceof Error ? closeError.message : String(closeError)}`;
    await context.err.writeLine(`linkladder: error: ${oneLine(message)}`);
    return { exitCode: EXIT_CODES.FAILURE, summary };
  }
  if (summary.stoppedBy === 'seeds-failed') {
    await context.err.writeLine(`linkladder: error: ${oneLine(runOutcomeOf(summary))}`);
    return { exitCode: EXIT_CODES.NO_CRAWL, summary };
  }
  if (summary.stoppedBy !== 'signal') return { exitCode: EXIT_CODES.OK, summary };
  return { exitCode: stoppedBy === 'SIGTERM' ? EXIT_CODES.TERMINATED : EXIT_CODES.INTERRUPTED, summary };
}

/** The summary's line of what `--warc` kept. */
function archiveLine(archive: ArchiveSummary): string {
  const files = archive.files.length === 1 ? archive.files[0]! : `${archive.files.length} files, ${archive.files[0] ?? ''} to ${archive.files.at(-1) ?? ''}`;
  const alone = archive.requestsAlone > 0 ? `, ${archive.requestsAlone} requests without a response` : '';
  const trimmed = archive.trimmedBytes > 0 ? `; the last run's torn tail trimmed (${archive.trimmedBytes} bytes)` : '';
  const index = archive.index === '' ? 'no index' : `index ${archive.index}`;
  return `archive: ${archive.responses} responses, ${archive.revisits} revisits${alone} in ${files}; ${index}${trimmed}`;
}

/**
 * Keep the identities of the audit's findings as the index's last run left it, for
 * `audit --since <run>` (src/report/audit/since.ts), before this run changes the
 * index. Kept then, not when a run ends: a first crawl pays nothing, a run killed
 * mid-way is kept too, and the last run's findings are the index's own until the
 * next run starts (audit-since.ts). Here, not in crawl(): the audit is the report
 * layer's, which the crawl layer may not import. A failure is a warning; the crawl goes on.
 */
async function keepLastRunFindings(store: WritableIndex, context: CliContext): Promise<void> {
  // Asked again after a pause, a few times: a PostgreSQL index may be away for a moment
  // (a restart, a failover) just as a worker starts. Each step may be repeated: the
  // reads change nothing, and recordRunFindings replaces the run's findings whole.
  for (let attempt = 1; ; attempt++) {
    try {
      const run = (await store.runs()).at(-1);
      if (run === undefined || (await store.reader().runFindings?.(run.id)) !== undefined) return;
      await store.recordRunFindings(run.id, await auditIdentities(store.reader()));
      await store.flush();
      return;
    } catch (error) {
      if (attempt < KEEP_FINDINGS_ATTEMPTS) {
        await sleep(KEEP_FINDINGS_FIRST_PAUSE_MS * 2 ** (attempt - 1));
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      await context.err.writeLine(`linkladder: warning: the last run's findings were not kept (audit --since cannot compare with it): ${oneLine(message)}`);
      return;
    }
  }
}

/** Tries at keeping the last run's findings, the first pause between two (doubled each time): 0.5 + 1 + 2 + 4 s at most. */
const KEEP_FINDINGS_ATTEMPTS = 5;
const KEEP_FINDINGS_FIRST_PAUSE_MS = 500;

/**
 * What the index holds beyond this run (an earlier run crawled into it): its broken
 * URLs, counted as `stats` counts them; `undefined` when the index cannot say.
 */
async function standingOf(store: WritableIndex): Promise<IndexStanding | undefined> {
  try {
    return await checkedCounts(store.reader());
  } catch {
    return undefined;
  }
}

/**
 * `--json` events on stdout. runCrawler() calls `onEvent` synchronously and cannot wait
 * for a slow reader, so the lines are handed over at once and the fetcher is gated
 * instead: no new request starts while stdout is above its high-water mark.
 */
class EventOutput {
  readonly #out: LineWriter;
  readonly #isJson: boolean;
  /** Why stdout failed; thrown from `onEvent`, it stops the crawl. */
  failure: unknown;

  constructor(out: LineWriter, isJson: boolean) {
    this.#out = out;
    this.#isJson = isJson;
  }

  write(event: CrawlEvent): void {
    if (!this.#isJson) return;
    if (this.failure !== undefined) throw this.failure;
    this.#out.writeLine(toJsonLine(event)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  gate(fetcher: Fetcher): Fetcher {
    return {
      fetch: async (url, signal, options) => {
        await untilAborted(this.#out.waitForRoom(), signal);
        // Aborted while waiting: the fetcher answers ERR_FETCH_ABORTED at once, and the crawl requeues the URL.
        return fetcher.fetch(url, signal, options);
      },
    };
  }
}

function untilAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}

/** crawl()'s option names in its messages, and the flags that set them: the same names. */
const FLAGS: ReadonlyMap<string, string> = new Map(SETTINGS.map((setting) => [setting.key, setting.flag]));

async function reportUsage(error: Error, context: CliContext): Promise<CrawlRun> {
  const message = oneLine(error.message).replace(/`(\w+)`/g, (quoted, name: string) => {
    const flag = FLAGS.get(name);
    return flag === undefined ? quoted : `\`${flag}\``;
  });
  await context.err.writeLine(`linkladder: error: ${message}`);
  return { exitCode: EXIT_CODES.USAGE, summary: undefined };
}

function hasCode(error: unknown, prefix: string): error is Error & { code: string } {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith(prefix);
}

function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, ' ');
}
