// The statistics of a crawl: the ladder funnel, what it saved, aliases and errors.

import { brokenCounts, type BrokenKind } from '../../crawl/index.js';
import type { AliasEvidence } from '../../ladder/index.js';
import type { Funnel, IndexReader } from '../../store/index.js';

/** How many distinct targets each rung of the ladder folded into a URL already known. */
export interface FoldedByRung {
  /** Distinct strings that met another at the syntax rung (RFC 3986 §6.2.2). */
  readonly syntax: number;
  /** Distinct syntax-rung forms that met another at the scheme rung (§6.2.3). */
  readonly scheme: number;
  /** Distinct scheme-rung keys that an alias folded into its target (§6.2.4). */
  readonly protocol: number;
}

/** One line that says what `fetchesSaved` counts. */
export const FETCHES_SAVED_DEFINITION =
  'distinct target strings (fragment removed) minus distinct URLs after aliases: ' +
  'each is a target that a crawler deduplicating exact strings would request as a resource of its own, ' +
  'and that a rung of the ladder folded into a URL already known instead';

/** One line that says what `linksNotFetched` counts. */
export const LINKS_NOT_FETCHED_DEFINITION =
  'links with a target minus fetches: the requests a crawler without any deduplication would have added';

export interface CrawlStats {
  readonly funnel: Funnel;
  readonly folded: FoldedByRung;
  /** `distinctStrings - afterAliases`: see `FETCHES_SAVED_DEFINITION`. */
  readonly fetchesSaved: number;
  /** `rawLinks - fetches` (never below 0): see `LINKS_NOT_FETCHED_DEFINITION`. */
  readonly linksNotFetched: number;
  /** Fetch rows (one per URL fetched, retries counted within). */
  readonly fetches: number;
  readonly urls: number;
  readonly aliasesByEvidence: Readonly<Record<AliasEvidence, number>>;
  /** URLs whose last fetch has an error, by code: a fetch error, or an HTTP status of 400 or more (`HTTP_nnn`). */
  readonly errorsByCode: Readonly<Record<string, number>>;
  /** Broken links among them: 4xx, 5xx, no response (`brokenCounts`, as the crawl's summary counts them). */
  readonly broken: Readonly<Record<BrokenKind, number>>;
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
    fetchesSaved: funnel.distinctStrings - funnel.afterAliases,
    linksNotFetched: Math.max(0, funnel.rawLinks - stats.fetches),
    fetches: stats.fetches,
    urls: Object.values(stats.urlsByState).reduce((sum, count) => sum + count, 0),
    aliasesByEvidence: stats.aliasesByEvidence,
    errorsByCode,
    broken: brokenCounts(errorsByCode),
  };
}
