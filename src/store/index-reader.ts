// The reports' side of the index: read-only, streaming.

import type { AliasRow, DuplicateBodyRow, EdgeRow, FetchRow, FormRow, Funnel, LinkRow, UrlRow, WorkerRow } from './reader-rows.js';
import type { CrawlRunRow, FindingIdentity, StoreStats } from './run-records.js';
import type { SitemapEntryRow, SitemapRow } from './sitemap-records.js';

/**
 * Read-only access to a crawl's index, for reports; they never learn which store
 * holds it. Async, so that
 * a networked store can sit behind it: single reads are promises, lists are async
 * iterables read a page of rows at a time (a cursor), each call a new pass in the
 * order given. Stopping a pass early (`break`) releases its cursor.
 */
export interface IndexReader {
  stats(): Promise<StoreStats>;
  funnel(): Promise<Funnel>;
  /** Every URL, in id order. */
  urls(): AsyncIterable<UrlRow>;
  /** The URL with this id, if any. */
  url(id: number): Promise<UrlRow | undefined>;
  /** Every spelling recorded, ordered by URL id, then as first recorded. */
  forms(): AsyncIterable<FormRow>;
  /** Every link, ordered by page then position. */
  links(): AsyncIterable<LinkRow>;
  /**
   * Links grouped by (page, target, element, attribute), ordered by page, target,
   * element, attribute (absent first). The target is the URL the link met
   * (`metUrlId`); an alias stays a node of its own (the graph report merges aliases
   * into their targets itself).
   */
  edges(): AsyncIterable<EdgeRow>;
  /** Every fetch, in the order recorded. */
  fetches(): AsyncIterable<FetchRow>;
  /** Every alias, ordered by when it was recorded, then `fromId`, then evidence. */
  aliases(): AsyncIterable<AliasRow>;
  /**
   * Fetch errors (and HTTP error statuses as `HTTP_nnn`) of each URL's last fetch,
   * by code: the most frequent first, then by code.
   */
  errorsByCode(): Promise<Readonly<Record<string, number>>>;
  /** Every crawl run, oldest first (none in an index crawled before migration 005). */
  runs(): Promise<readonly CrawlRunRow[]>;
  /** Every sitemap read, in the order recorded. Optional: a reader without one has none. */
  sitemaps?(): AsyncIterable<SitemapRow>;
  /** Every sitemap entry, by sitemap then position. Optional: a reader without one has none. */
  sitemapEntries?(): AsyncIterable<SitemapEntryRow>;
  /** The finding identities kept for run `runId` (`undefined`: none were kept). Optional. */
  runFindings?(runId: number): Promise<readonly FindingIdentity[] | undefined>;
  /** The workers of a crawl shared by cooperating workers (PostgreSQL), by id. Optional: a store with one writer has none. */
  workers?(): Promise<readonly WorkerRow[]>;
  /**
   * Byte-identical representations under URLs the ladder did not join (heuristic,
   * DUPLICATE_REPRESENTATION): one row per URL of each group, the rows of a group
   * together; groups in the order of their first URL's key, a group's URLs by key.
   * See `DuplicateBodyRow` for which fetches count. Streams: the grouping is the
   * store's (SQL), only the alias chains are walked in memory.
   */
  duplicateBodies(): AsyncIterable<DuplicateBodyRow>;
  close(): Promise<void>;
}
