// The statistics of a crawl: the ladder funnel, what it saved, aliases and errors.

import { checkedCounts, noRequests, type BrokenKind, type ContentEvidenceSummary, type RequestCounts, type Verdict } from '../../crawl/index.js';
import type { AliasEvidence } from '../../ladder/index.js';
import type { CrawlRunRow, Funnel, IndexReader, UrlState, WorkerRow } from '../../store/index.js';
import { collectDuplicateStats, type DuplicateStats } from './duplicate-stats.js';

/** How many distinct targets each rung of the ladder folded into a URL already known. */
export interface FoldedByRung {
  /** Distinct strings that met another at the syntax rung (RFC 3986 §6.2.2). */
  readonly syntax: number;
  /** Distinct syntax-rung forms that met another at the scheme rung (§6.2.3). */
  readonly scheme: number;
  /** Distinct scheme-rung keys that an alias folded into its target (§6.2.4). */
  readonly protocol: number;
}

/** One line that says what `fetchesSaved` counts (the crawl counts it: CrawlSummary.fetchesSaved). */
export const FETCHES_SAVED_DEFINITION =
  'requests avoided: URLs a followed link named that were never requested because, before the request, ' +
  'the index had joined them to a resource already known (a new spelling folded by the syntax or scheme rung, ' +
  "or a queued URL whose representation came with another URL's response); " +
  'a URL that became an alias after its own request saved nothing';

/** One line that says what `linksNotFetched` counts. */
export const LINKS_NOT_FETCHED_DEFINITION =
  'links with a target minus fetches: the requests a crawler without any deduplication would have added';

export interface CrawlStats {
  readonly funnel: Funnel;
  readonly folded: FoldedByRung;
  /**
   * Requests avoided, as each crawl run counted them (see `FETCHES_SAVED_DEFINITION`),
   * summed over the runs; `undefined` for an index crawled before runs were recorded.
   */
  readonly fetchesSaved: number | undefined;
  /**
   * Every HTTP request the runs sent, by kind, summed; `undefined` as `fetchesSaved`.
   * A run that did not end (killed, or still going) counts the requests whose
   * outcomes it committed: those it had in flight or not yet committed are sent
   * again by the run that resumes it, and counted there.
   */
  readonly requests: RequestCounts | undefined;
  /** Runs that did not end (killed, or still going); absent when every run ended. */
  readonly runsNotEnded?: number;
  /** `rawLinks - fetches` (never below 0): see `LINKS_NOT_FETCHED_DEFINITION`. */
  readonly linksNotFetched: number;
  /** Fetch rows (one per URL fetched, retries counted within). */
  readonly fetches: number;
  readonly urls: number;
  readonly aliasesByEvidence: Readonly<Record<AliasEvidence, number>>;
  /** URLs whose last fetch has an error, by code: a fetch error, or an HTTP status of 400 or more (`HTTP_nnn`). */
  readonly errorsByCode: Readonly<Record<string, number>>;
  /** The URLs judged broken (`verdicts.broken`) by kind: 4xx, 5xx, no response (as the crawl's summary counts them). */
  readonly broken: Readonly<Record<BrokenKind, number>>;
  /**
   * The URLs checked (each once, by its last fetch), by verdict: `broken` are what the
   * audit reports as `LINK_BROKEN`, `unverified` as `LINK_UNVERIFIED` (`checkedCounts`).
   */
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /**
   * Byte-identical representations under URLs the ladder did not join
   * (DUPLICATE_REPRESENTATION; content evidence, heuristic): always counted, whether or
   * not the crawl used `--content-evidence`.
   */
  readonly duplicates: DuplicateStats;
  /**
   * What `--content-evidence` did in the last run that used it (heuristic, beyond
   * RFC 3986): URLs held back, joined, fetched, and the rules learned; absent when no run did.
   */
  readonly contentEvidence?: { readonly runId: number } & ContentEvidenceSummary;
  /**
   * The workers of a crawl shared on PostgreSQL, and the frontier they share; absent
   * for an index with one writer at a time (SQLite, or runs one after another that ended).
   */
  readonly workers?: WorkersState;
}

/** Cooperating workers on one PostgreSQL index: each one, and the frontier's state. */
export interface WorkersState {
  readonly workers: readonly WorkerRow[];
  readonly urlsByState: Readonly<Record<UrlState, number>>;
}

export async function collectStats(reader: IndexReader): Promise<CrawlStats> {
  const funnel = await reader.funnel();
  const stats = await reader.stats();
  const errorsByCode = await reader.errorsByCode();
  const folded: FoldedByRung = {
    syntax: funnel.distinctStrings - funnel.distinctSyntax,
    scheme: funnel.distinctSyntax - funnel.distinctScheme,
    protocol: funnel.distinctScheme - funnel.afterAliases,
  };
  return {
    funnel,
    folded,
    ...runTotals(await reader.runs()),
    linksNotFetched: Math.max(0, funnel.rawLinks - stats.fetches),
    fetches: stats.fetches,
    urls: Object.values(stats.urlsByState).reduce((sum, count) => sum + count, 0),
    aliasesByEvidence: stats.aliasesByEvidence,
    errorsByCode,
    ...(await checkedCounts(reader)),
    duplicates: await collectDuplicateStats(reader),
    ...contentEvidenceOf(await reader.runs()),
    ...(await workersState(reader, stats.urlsByState)),
  };
}

// Shown when there is more to say than of an index with one writer at a time: workers
// that ran at the same time, or one that has not ended (running, or killed).
async function workersState(reader: IndexReader, urlsByState: Readonly<Record<UrlState, number>>): Promise<{ workers?: WorkersState }> {
  const workers = (await reader.workers?.()) ?? [];
  if (workers.some((worker) => worker.endedAt === undefined)) return { workers: { workers, urlsByState } };
  const byStart = [...workers].sort((a, b) => a.startedAt - b.startedAt);
  let endedBefore = -Infinity;
  for (const worker of byStart) {
    if (worker.startedAt < endedBefore) return { workers: { workers, urlsByState } };
    endedBefore = Math.max(endedBefore, worker.endedAt!);
  }
  return {};
}

/** What the last run with `--content-evidence` recorded of it (crawl-run.ts `runCountsOf`). */
function contentEvidenceOf(runs: readonly CrawlRunRow[]): Pick<CrawlStats, 'contentEvidence'> {
  const run = runs.findLast((each) => each.counts?.contentEvidence !== undefined);
  if (run === undefined) return {};
  return { contentEvidence: { runId: run.id, ...(run.counts!.contentEvidence as ContentEvidenceSummary) } };
}

/**
 * The counts the crawl runs recorded, summed: requests and fetches saved. A run that
 * did not end has the requests of the outcomes it committed (crawl-tally.ts `recordRequests`).
 * Runs recorded before sitemap requests had a kind of their own counted them as fetches
 * and redirect hops.
 */
function runTotals(runs: readonly CrawlRunRow[]): Pick<CrawlStats, 'fetchesSaved' | 'requests' | 'runsNotEnded'> {
  if (runs.length === 0) return { fetchesSaved: undefined, requests: undefined };
  const runsNotEnded = runs.filter((run) => run.endedAt === undefined).length;
  let fetchesSaved = 0;
  const requests = noRequests();
  for (const run of runs) {
    const counts = run.counts;
    if (counts === undefined) continue;
    if (typeof counts.fetchesSaved === 'number') fetchesSaved += counts.fetchesSaved;
    const byKind = counts.requestsByKind as Partial<RequestCounts> | undefined;
    for (const key of Object.keys(requests) as (keyof RequestCounts)[]) {
      const n = byKind?.[key];
      if (typeof n === 'number') requests[key] += n;
    }
  }
  return { fetchesSaved, requests, ...(runsNotEnded === 0 ? {} : { runsNotEnded }) };
}
