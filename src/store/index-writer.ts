// The crawl's side of the index: what it writes as it learns, and the few reads it
// makes while deciding. Async, so that a networked store can sit behind it.

import type { RobotsCache } from '../fetch/index.js';
import type { AdmitEntry, AdmitResult, AliasRecord, UrlRecord } from './admission-records.js';
import type { ArchivedRecord } from './archive-records.js';
import type { ClaimedUrl, FetchRecord } from './fetch-records.js';
import type { UrlHistory } from './reader-rows.js';
import type { CrawlRunEnd, CrawlRunRow, CrawlRunStart, FindingIdentity, RecheckGeneration, RecheckStart, StoreStats } from './run-records.js';
import type { SitemapQueueEntry, SitemapQueueRow, SitemapRecord, SitemapSettlement } from './sitemap-records.js';

/**
 * The seen-set and the link graph: links admitted (each target met at a rung of the
 * ladder, or inserted), and the URLs the crawl looks up while deciding.
 */
export interface AdmissionWriter {
  /** Admit a batch of links as one unit (url-state-machine.ts, `admit`: a new URL is queued or skipped, a skipped one followed is queued). */
  admit(batch: readonly AdmitEntry[]): Promise<AdmitResult[]>;
  /** The URL with this id, if any. */
  getUrl(id: number): Promise<UrlRecord | undefined>;
  /** The URL whose key is the scheme-rung form of `uri` (without fragment), if any. */
  findUrl(uri: string): Promise<UrlRecord | undefined>;
  /** Forget the links recorded on page `fromUrlId` (its new representation is parsed again). */
  dropLinks(fromUrlId: number): Promise<void>;
}

/** The frontier: which URLs are handed out to fetch, and how they go back. */
export interface FrontierWriter {
  /** Move up to `limit` queued URLs (shallowest first) to `fetching` and return them. */
  claim(limit: number): Promise<ClaimedUrl[]>;
  /** Put a URL back on the frontier (`queued`), whatever its state; an alias stays one. */
  requeue(id: number): Promise<void>;
  /**
   * A re-check begins, or is joined. When none is in progress (url-state-machine.ts:
   * the last one begun has URLs left to fetch, queued or fetching, and no run found it
   * finished), a new generation begins: every URL fetched (`done`, `failed`) goes back
   * to `queued`, its fetch rows kept (their validators make the requests conditional),
   * and so does every URL that answered a redirect: no longer an alias (its `redirect`
   * evidence is dropped, a canonical claim kept), it is asked again, and where it leads
   * now is learned anew; with `sitemaps`, the sitemap frontier is emptied in the same
   * unit. When one is in progress, it is joined and nothing moves: a URL re-checked in
   * it already is not queued again. One decides at a time (workers sharing the index).
   */
  requeueFetched(start?: RecheckStart): Promise<RecheckGeneration>;
  /**
   * Present when many workers share this index (PostgreSQL): claims carry leases and
   * hold per-host politeness for the whole crawl. Absent for a store with one writer,
   * whose empty frontier ends the crawl.
   */
  readonly shared?: SharedFrontier | undefined;
  /**
   * With `shared`: whether this worker still holds its claim on `id` (its lease not
   * lapsed, by the index's clock), and in a unit, held until the unit commits. A claim
   * that lapsed may be another worker's now: its results are not to be recorded. A store
   * may answer true in a unit without waiting for the server; a claim then found lost
   * aborts the unit (ERR_STORE_CLAIM_LOST from `transact`), nothing of it recorded.
   * Absent where claims do not lapse (one writer).
   */
  holdClaim?(id: number): Promise<boolean>;
  /**
   * With `shared`: whether `id`, claimed by this writer, is known to be as the claim left
   * it (`fetching`, this worker's) with no read: nothing this writer recorded has touched it
   * since. The crawl then does not read it back before its request. Absent: read it.
   */
  isClaimUntouched?(id: number): boolean;
}

/** The fetch log: what each request answered, and what explains a URL. */
export interface FetchLogWriter {
  /** Record a fetch and move its URL to `done` or `failed` (an alias stays one). */
  recordFetch(record: FetchRecord): Promise<void>;
  /** What explains a URL: its first link, its fetches, the aliases from and to it. */
  history(id: number): Promise<UrlHistory | undefined>;
}

/** Protocol-rung evidence: what the servers proved about which URLs are one resource. */
export interface EvidenceWriter {
  /**
   * Record that `fromId` is `toId` (RFC 3986 §6.2.4, the protocol rung). `redirect`
   * and `content-location` make `fromId` an alias (links to it then name `toId`);
   * `canonical` is only recorded. `digest` and `rule` (content evidence, heuristic,
   * only with `--content-evidence`: a body byte-identical to a fetched page's, a learned
   * rewrite rule's prediction) make an alias too.
   */
  addAlias(record: AliasRecord): Promise<void>;
  /** Undo an alias of `fromId` (contradicting evidence) and queue it again. */
  revokeAlias(fromId: number): Promise<void>;
}

/** Crawl runs: when each started and ended, its counts, and the audit findings it left. */
export interface RunWriter {
  /**
   * Record a crawl run's start; resolves with its id. A re-check whose URLs were all
   * fetched is marked finished here, so that URLs a later run queues are never taken
   * for a re-check in progress.
   */
  startRun(run: CrawlRunStart): Promise<number>;
  /** Record how the run `id` ended. */
  endRun(id: number, end: CrawlRunEnd): Promise<void>;
  /**
   * The counts of the run `id` so far (requests by kind), written in the unit that
   * records the outcomes they account for: a run killed before its end keeps what
   * its committed units counted. Ignored once the run has ended (endRun's counts stand).
   */
  recordRunCounts(id: number, counts: Readonly<Record<string, unknown>>): Promise<void>;
  /** Every crawl run, oldest first. */
  runs(): Promise<readonly CrawlRunRow[]>;
  /** Keep the identities of the audit's findings as run `runId` left the index (replacing any kept before). */
  recordRunFindings(runId: number, findings: readonly FindingIdentity[]): Promise<void>;
}

/** Sitemaps: the files read with their entries, and the sitemap frontier. */
export interface SitemapWriter {
  /**
   * Record a sitemap file and its entries (migration 007); resolves with its id. With
   * `settlement`, in the same unit, its row of the sitemap frontier leaves `queued`
   * and the sitemaps it names are queued (migration 011).
   */
  recordSitemap(record: SitemapRecord, settlement?: SitemapSettlement): Promise<number>;
  /** Put sitemaps on the sitemap frontier, `queued`; a key already there is left as it is. */
  queueSitemaps(entries: readonly SitemapQueueEntry[]): Promise<void>;
  /** The sitemap frontier of a seed origin, in the order queued. */
  sitemapQueue(origin: string): Promise<SitemapQueueRow[]>;
  /**
   * Take the queued sitemap `key` to read: false when it is not queued, or (workers
   * sharing the index) another worker holds it. A hold ends when the sitemap is
   * recorded with its settlement, or after the store's lease.
   */
  takeSitemap(key: string): Promise<boolean>;
  /** Give back a sitemap taken but not read (the crawl stopped): it stays queued, free for any worker at once. */
  releaseSitemap(key: string): Promise<void>;
  /** A re-check begins: the sitemap frontier is emptied, so that every sitemap is found and read again. */
  clearSitemapQueue(): Promise<void>;
}

/** The WARC records a crawl wrote (`--warc`): which record stands for which URL, and where it lies. */
export interface ArchiveWriter {
  /** Record WARC records as written (each of the run `runId` names, else of the run this writer started last). */
  recordArchived(records: readonly ArchivedRecord[]): Promise<void>;
  /**
   * The records that stand for `uri`, newest first: those whose target URI has the
   * resource key of `uri` (any spelling of it), or, for a URI without one, is `uri` as written.
   */
  archivedRecords(uri: string): Promise<ArchivedRecord[]>;
  /** The first `response` record written with payload digest `digest` (what a revisit refers to), if any. */
  archivedPayload(digest: string): Promise<ArchivedRecord | undefined>;
}

/** robots.txt answers kept across runs. */
export interface RobotsWriter {
  /** robots.txt answers kept across runs (RFC 9309 §2.4), for the robots policy. */
  readonly robotsCache: RobotsCache;
}

/**
 * How writes are committed: each call is a unit (all of it or nothing); `transact`
 * makes one unit of several calls. Units are committed in groups (a thousand links,
 * or 50 ms): a call resolves once its unit has run, and `flush()` once everything
 * before it is committed.
 */
export interface WriterUnits {
  /**
   * Run `work` as one unit: every call it makes through `tx` is recorded, or
   * (when it throws) none is. `work` should await nothing but `tx`: the units
   * after it wait for it.
   */
  transact<T>(work: (tx: IndexWriter) => Promise<T>): Promise<T>;
  /** Commit every unit that has run. */
  flush(): Promise<void>;
  /** The index's counts: URLs by state, links by rung, aliases by evidence, fetches. */
  stats(): Promise<StoreStats>;
  /** Flush, then close. */
  close(): Promise<void>;
}

/**
 * The crawl's side of the index: the seen-set, the frontier and protocol-rung
 * evidence, written as the crawl learns them, and the few reads it makes while
 * deciding; one contract per concern, and this their sum. Async, so that a networked
 * store can sit behind it. Writes run one at a time. Where a URL changes state, and
 * through which of these calls, is url-state-machine.ts.
 */
export interface IndexWriter
  extends AdmissionWriter,
    FrontierWriter,
    FetchLogWriter,
    EvidenceWriter,
    RunWriter,
    SitemapWriter,
    ArchiveWriter,
    RobotsWriter,
    WriterUnits {}

/** The politeness every worker of a shared crawl keeps, whichever claims the URL. */
export interface SharedPoliteness {
  /** Requests in flight on one host, across all workers. */
  readonly perHostConcurrency: number;
  /** The least time between two request starts on one host, across all workers. */
  readonly perHostDelayMs: number;
}

/** When a shared frontier gave no claim: the crawl is over, or ask again later. */
export interface FrontierIdle {
  /** Nothing is queued and no other worker holds a live lease (its fetches could queue more). */
  readonly isOver: boolean;
  /** When not over: how long to wait before claiming again (a host's next slot, or a poll). */
  readonly retryInMs: number;
}

/**
 * What a frontier shared by cooperating workers adds. `claim` takes only
 * URLs whose host has a free slot (its concurrency and delay held across workers),
 * each with a lease the store renews while the worker lives; a dead worker's claims
 * are taken by another once their lease runs out.
 */
export interface SharedFrontier {
  /** This worker's id, recorded with its claims, fetches and run. */
  readonly workerId: string;
  /** Set the politeness this worker's claims keep (before the first claim). */
  setPoliteness(politeness: SharedPoliteness): void;
  /** Raise a host's least delay between starts for every worker (robots.txt Crawl-delay). */
  setHostDelay(host: string, delayMs: number): Promise<void>;
  /** After `claim` gave nothing: whether the crawl is over, or when to ask again. */
  whenIdle(): Promise<FrontierIdle>;
  /** This worker's progress, kept where every worker and `stats` can read it. */
  reportProgress(counts: Readonly<Record<string, number>>): Promise<void>;
}
