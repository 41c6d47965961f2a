// The index behind two contracts (DESIGN.md §6): the crawler writes through an
// IndexWriter and reports read through an IndexReader; neither learns that it is SQLite.

import type { BaseLevel } from '../base/index.js';
import type { RobotsCache } from '../fetch/index.js';
import type { AliasEvidence, LadderForms } from '../ladder/index.js';

export type { BaseLevel };

/** Where a URL is in its life. */
export type UrlState = 'queued' | 'fetching' | 'done' | 'failed' | 'skipped' | 'alias';

export const URL_STATES: readonly UrlState[] = ['queued', 'fetching', 'done', 'failed', 'skipped', 'alias'];

/**
 * The rung of the RFC 3986 §6.2 ladder at which a link's target met a URL already
 * in the index: `new` when it met none; `protocol` when it met an alias, whose
 * target the link now names.
 */
export type MatchRung = 'new' | 'string' | 'syntax' | 'scheme' | 'protocol';

export const MATCH_RUNGS: readonly MatchRung[] = ['new', 'string', 'syntax', 'scheme', 'protocol'];

/**
 * How a URL relates to the crawl (migration 006):
 * - `page`: in scope and named by a followed link (or a seed): fetched with GET and read for links;
 * - `resource`: in scope and used by a page (an image, a script, a stylesheet …): fetched
 *   once with GET and not read for links, except a stylesheet, read for `url()` and `@import`;
 * - `external`: out of the crawl's scope: checked once (HEAD, GET where HEAD is refused), never read.
 */
export type UrlRole = 'page' | 'resource' | 'external';

export const URL_ROLES: readonly UrlRole[] = ['page', 'resource', 'external'];

/** Which role wins when links of two roles name one queued URL: `page` over `resource` over `external`. */
export function roleRank(role: UrlRole): number {
  return role === 'page' ? 2 : role === 'resource' ? 1 : 0;
}

/**
 * What a fetch says of its URL as a link's target (src/crawl/verdict.ts decides it):
 * `ok` it answered; `broken` it is not there or leads nowhere; `unverified` the answer
 * proves neither (a timeout, 5xx, 429, a bot wall, a robots.txt refusal …).
 */
export type Verdict = 'ok' | 'broken' | 'unverified';

/** The HTTP method of a fetch. */
export type FetchMethod = 'GET' | 'HEAD';


/** One link to admit: where it was found, as written, and what it resolved to. */
export interface AdmitEntry {
  /** The page it is on; `undefined` for a seed (no link row is written). */
  readonly fromUrlId?: number | undefined;
  /** The href exactly as written. */
  readonly rawHref: string;
  /** The resolved absolute URI (with its fragment), or `undefined` when it did not resolve. */
  readonly target: string | undefined;
  /**
   * The ladder forms of `target` without its fragment (`ladderForms`), when the
   * caller has them: the index then neither parses nor normalizes the target.
   * Must describe `target`; ignored when `forms.string` is not `target` minus its fragment.
   */
  readonly forms?: LadderForms | undefined;
  /** The code of the failure when `target` is undefined. */
  readonly error?: string | undefined;
  readonly element?: string | undefined;
  readonly attribute?: string | undefined;
  readonly baseLevel?: BaseLevel | undefined;
  /**
   * Whether a target new to the index should be fetched (`queued`) or only
   * recorded (`skipped`, e.g. out of scope or an element not followed).
   * @default true
   */
  readonly follow?: boolean | undefined;
  /**
   * Depth of the target if it is new.
   * @default 0
   */
  readonly depth?: number | undefined;
  /**
   * How the target relates to the crawl: what it is queued as when `follow`, and the
   * role it keeps when only recorded. A queued URL that a link of a higher role names
   * is raised to it before it is claimed (`roleRank`).
   * @default 'page'
   */
  readonly role?: UrlRole | undefined;
  /**
   * Codes of what was noticed about this link as written (`HREF_*` clean-ups,
   * `REF_*` resolution findings), recorded on its link row for the audit.
   */
  readonly findings?: readonly string[] | undefined;
  /**
   * The target in the other base mode (rfc3986 / browser) when it differs from
   * `target`: recorded on the link row for the audit.
   */
  readonly alternateTarget?: string | undefined;
  /**
   * Where the href's value is written in the page: its 1-based line, recorded on the
   * link row so that reports (SARIF) can place a finding in the page's source.
   * @default undefined (unknown)
   */
  readonly line?: number | undefined;
  /**
   * The 1-based column of that value, in UTF-16 code units; recorded only with `line`.
   * @default undefined (unknown)
   */
  readonly column?: number | undefined;
}

export interface AdmitResult {
  /** The canonical URL of the target (after aliases); `undefined` when the link had none. */
  readonly urlId: number | undefined;
  /** Where on the ladder it met a known URL; `undefined` when the link had no valid target. */
  readonly rung: MatchRung | undefined;
  /**
   * The rung at which its target met the index before aliases were followed (`rung`
   * unless `protocol`): `syntax` or `scheme` means a spelling new to the index.
   */
  readonly ladderRung: Exclude<MatchRung, 'protocol'> | undefined;
  /** Whether this admit put the URL on the frontier (new, or a skipped URL now followed). */
  readonly isQueued: boolean;
  /** The failure, when the target was not a valid absolute URI. */
  readonly error: string | undefined;
}

export interface ClaimedUrl {
  readonly id: number;
  readonly key: string;
  readonly depth: number;
  readonly host: string | undefined;
  /** What the crawl does with it (`page` for a row written before migration 006). */
  readonly role: UrlRole;
}

export interface RedirectHop {
  readonly from: string;
  /** `undefined` for a 3xx without Location. */
  readonly to: string | undefined;
  readonly status: number;
}

/** What happened when a URL was fetched. */
export interface FetchRecord {
  readonly urlId: number;
  /** `done`: fetched (whatever the status); `failed`: no usable response. */
  readonly outcome: 'done' | 'failed';
  readonly startedAt: number;
  readonly durationMs?: number | undefined;
  readonly status?: number | undefined;
  readonly contentType?: string | undefined;
  readonly bytes?: number | undefined;
  readonly errorCode?: string | undefined;
  readonly finalUrl?: string | undefined;
  readonly redirects?: readonly RedirectHop[] | undefined;
  /**
   * How many requests this outcome took (retries included); 0: none, the answer was
   * taken from an earlier run's index (the crawl's verdict cache), `startedAt` being
   * when it was really asked. @default 1
   */
  readonly attempts?: number | undefined;
  /** Codes about the page itself (`HTML_*`, `BASE_*`). */
  readonly findings?: readonly string[] | undefined;
  /** The ids and anchor names of the page: what its URL's fragments may point to. */
  readonly anchors?: readonly string[] | undefined;
  /**
   * The URL whose representation this fetch stands for: the end of its redirect
   * chain (the URL the chain stopped at, when it was not followed), else `urlId`.
   */
  readonly representsUrlId?: number | undefined;
  /** The method of the request that gave this answer; `undefined` when no request was made. */
  readonly method?: FetchMethod | undefined;
  /** The response's `ETag` as sent (RFC 9110 §8.8.3): sent back as If-None-Match by a re-check, never a key. */
  readonly etag?: string | undefined;
  /** The response's `Last-Modified` as sent (RFC 9110 §8.8.2): sent back as If-Modified-Since by a re-check. */
  readonly lastModified?: string | undefined;
  /**
   * The request was answered 304 Not Modified (RFC 9110 §15.4.5): the record carries
   * the status, type, findings and anchors of the representation it revalidated.
   * @default false
   */
  readonly isNotModified?: boolean | undefined;
  /**
   * SHA-256 (base64url) of the body the crawl read, for a 2xx response that had one
   * (HTML and CSS): byte-identical representations under URLs the ladder did not
   * join are reported by it (DUPLICATE_REPRESENTATION, DESIGN.md §9).
   */
  readonly digest?: string | undefined;
  /** The verdict on this answer, as the crawl judged it when it recorded it (`verdictOf`). */
  readonly verdict?: Verdict | undefined;
}

/** A sitemap file as a crawl read it (migration 007 `sitemap`). */
export interface SitemapRecord {
  readonly runId: number | undefined;
  /** Its URL as it was named. */
  readonly url: string;
  /** `origin`: /sitemap.xml of a seed's origin; `robots`: a robots.txt Sitemap: line; `index`: an entry of a sitemap index. */
  readonly source: 'origin' | 'robots' | 'index';
  /** The sitemap index that named it (`source` `index`). */
  readonly parentId?: number | undefined;
  readonly fetchedAt: number;
  readonly status: number | undefined;
  readonly errorCode: string | undefined;
  /** `urlset` or `sitemapindex`; `undefined` when nothing was read. */
  readonly kind: 'urlset' | 'sitemapindex' | undefined;
  /** What was wrong with it (SITEMAP_* codes, with line, column and detail when known). */
  readonly findings: readonly SitemapFindingRecord[];
  /** Its `<loc>` entries, in document order. */
  readonly entries: readonly SitemapEntryRecord[];
}

export interface SitemapFindingRecord {
  readonly code: string;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  readonly detail?: string | undefined;
}

export interface SitemapEntryRecord {
  /** The `<loc>` as written (entities decoded, trimmed). */
  readonly loc: string;
  readonly lastmod: string | undefined;
  readonly line: number | undefined;
  /** The URL of the index it was admitted as; `undefined` when it named none. */
  readonly urlId: number | undefined;
}

/** A sitemap on the sitemap frontier (migration 011), to be read by this run or the next. */
export interface SitemapQueueEntry {
  /** Its URL at the scheme rung without fragment (as a URL's key): each sitemap once. */
  readonly key: string;
  /** The seed origin (`scheme://host[:port]`) whose sitemaps it is among. */
  readonly origin: string;
  /** Its URL as it was named. */
  readonly url: string;
  readonly source: SitemapRecord['source'];
  /** The sitemap index that named it (`source` `index`). */
  readonly parentId: number | undefined;
}

/** `queued`: not read yet; `read`: its entries admitted (or, an index, its sitemaps queued); `failed`: no sitemap was read. */
export type SitemapState = 'queued' | 'read' | 'failed';

/** A sitemap of the sitemap frontier, with its state. */
export interface SitemapQueueRow extends SitemapQueueEntry {
  readonly state: SitemapState;
}

/** How the reading of a queued sitemap ended, recorded with it in one unit (`recordSitemap`). */
export interface SitemapSettlement {
  /** Its key on the sitemap frontier. */
  readonly key: string;
  readonly state: Exclude<SitemapState, 'queued'>;
  /** The sitemaps it names (an index): queued with the recorded sitemap as their parent. */
  readonly children: readonly Omit<SitemapQueueEntry, 'parentId'>[];
}

/** A sitemap as the index keeps it. */
export interface SitemapRow extends Omit<SitemapRecord, 'entries'> {
  readonly id: number;
}

/** One `<loc>` of a sitemap, in sitemap then document order. */
export interface SitemapEntryRow extends SitemapEntryRecord {
  readonly sitemapId: number;
  /** The sitemap's URL. */
  readonly sitemapUrl: string;
  readonly position: number;
}

/**
 * What identifies an audit finding from one run to the next (`audit --since`): its
 * code, the page's key, the target's key and the href as written (`''` where the
 * finding has none).
 */
export interface FindingIdentity {
  readonly code: string;
  readonly page: string;
  readonly target: string;
  readonly href: string;
}

export interface AliasRecord {
  readonly fromId: number;
  readonly toId: number;
  readonly evidence: AliasEvidence;
  readonly detail?: string | undefined;
}

export interface UrlRecord {
  readonly id: number;
  readonly key: string;
  readonly state: UrlState;
  readonly depth: number;
  readonly aliasOf: number | undefined;
  /** How it relates to the crawl (`page` for a row written before migration 006). */
  readonly role: UrlRole;
}

export interface StoreStats {
  readonly urlsByState: Readonly<Record<UrlState, number>>;
  readonly links: number;
  /** Links by the rung at which their target met a known URL. */
  readonly linksByRung: Readonly<Record<MatchRung, number>>;
  readonly linksWithoutTarget: number;
  readonly aliasesByEvidence: Readonly<Record<AliasEvidence, number>>;
  readonly fetches: number;
}

/** What a crawl run was asked to do, recorded when it starts (DESIGN.md §5 `crawl_run`). */
export interface CrawlRunStart {
  readonly startedAt: number;
  /** The seeds, at the scheme rung. */
  readonly seeds: readonly string[];
  /** Its settings as plain JSON data: scope, include, exclude, maxDepth, follow, allowPrivate, … */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** How a crawl run ended. */
export interface CrawlRunEnd {
  readonly endedAt: number;
  /** Why it stopped (the crawl's StopReason). */
  readonly stoppedBy: string;
  /** One line on how it ended; the reason of a non-zero exit. */
  readonly outcome: string;
  /** The run's counts as plain JSON data (requests by kind, fetches saved, …). */
  readonly counts: Readonly<Record<string, unknown>>;
}

/**
 * One crawl run of the index; the end fields are `undefined` for a run still going, or
 * killed, whose `counts` are those its committed units wrote (`recordRunCounts`), if any.
 */
export interface CrawlRunRow extends CrawlRunStart {
  readonly id: number;
  readonly endedAt: number | undefined;
  readonly stoppedBy: string | undefined;
  readonly outcome: string | undefined;
  readonly counts: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The crawl's side of the index (DESIGN.md §6): the seen-set, the frontier and
 * protocol-rung evidence, written as the crawl learns them, and the few reads it
 * makes while deciding. Async, so that a networked store can sit behind it.
 *
 * Writes run one at a time. Each call is a unit (all of it or nothing); `transact`
 * makes one unit of several calls. Units are committed in groups (a thousand
 * links, or 50 ms): a call resolves once its unit has run, and `flush()` once
 * everything before it is committed.
 */
export interface IndexWriter {
  /** Admit a batch of links as one unit. */
  admit(batch: readonly AdmitEntry[]): Promise<AdmitResult[]>;
  /** Move up to `limit` queued URLs (shallowest first) to `fetching` and return them. */
  claim(limit: number): Promise<ClaimedUrl[]>;
  /** Record a fetch and move its URL to `done` or `failed`. */
  recordFetch(record: FetchRecord): Promise<void>;
  /**
   * Record that `fromId` is `toId` (DESIGN.md §2, rung 4). `redirect` and
   * `content-location` make `fromId` an alias (links to it then name `toId`);
   * `canonical` is only recorded. `digest` and `rule` (content evidence, DESIGN.md
   * §9, heuristic) make an alias too.
   */
  addAlias(record: AliasRecord): Promise<void>;
  /** Undo an alias of `fromId` (contradicting evidence) and queue it again. */
  revokeAlias(fromId: number): Promise<void>;
  /** Put a URL back on the frontier (`queued`), whatever its state; an alias stays one. */
  requeue(id: number): Promise<void>;
  /** The URL with this id, if any. */
  getUrl(id: number): Promise<UrlRecord | undefined>;
  /** The URL whose key is the scheme-rung form of `uri` (without fragment), if any. */
  findUrl(uri: string): Promise<UrlRecord | undefined>;
  /**
   * Run `work` as one unit: every call it makes through `tx` is recorded, or
   * (when it throws) none is. `work` should await nothing but `tx`: the units
   * after it wait for it.
   */
  transact<T>(work: (tx: IndexWriter) => Promise<T>): Promise<T>;
  /** Commit every unit that has run. */
  flush(): Promise<void>;
  stats(): Promise<StoreStats>;
  /** What explains a URL: its first link, its fetches, the aliases from and to it. */
  history(id: number): Promise<UrlHistory | undefined>;
  /** Record a crawl run's start; resolves with its id. */
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
  /**
   * A re-check begins: every URL fetched (`done`, `failed`) goes back to `queued`,
   * its fetch rows kept (their validators make the requests conditional), and so does
   * every URL that answered a redirect: no longer an alias (its `redirect` evidence
   * is dropped, a canonical claim kept), it is asked again, and where it leads now is
   * learned anew. Resolves with how many were queued.
   */
  requeueFetched(): Promise<number>;
  /** Forget the links recorded on page `fromUrlId` (its new representation is parsed again). */
  dropLinks(fromUrlId: number): Promise<void>;
  /** Keep the identities of the audit's findings as run `runId` left the index (replacing any kept before). */
  recordRunFindings(runId: number, findings: readonly FindingIdentity[]): Promise<void>;
  /** robots.txt answers kept across runs (RFC 9309 §2.4), for the robots policy. */
  readonly robotsCache: RobotsCache;
  /**
   * Present when many workers share this index (PostgreSQL, issue 12): claims carry
   * leases and hold per-host politeness for the whole crawl. Absent for a store with
   * one writer, whose empty frontier ends the crawl.
   */
  readonly shared?: SharedFrontier | undefined;
  /**
   * With `shared`: whether this worker still holds its claim on `id` (its lease not
   * lapsed, by the index's clock), and in a unit, held until the unit commits. A claim
   * that lapsed may be another worker's now: its results are not to be recorded.
   * Absent where claims do not lapse (one writer).
   */
  holdClaim?(id: number): Promise<boolean>;
  /** Flush, then close. */
  close(): Promise<void>;
}

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
 * What a frontier shared by cooperating workers adds (issue 12). `claim` takes only
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

/** The link that first named a URL (DESIGN.md §5): where a crawl found it. */
export interface FirstLink {
  /** The page (`undefined` for a seed or a URL learned from a response). */
  readonly fromUrlId: number | undefined;
  readonly fromKey: string | undefined;
  readonly rawHref: string;
  /** The element and attribute of that link on its page (`a`/`href`, `img`/`src` …), when known. */
  readonly element?: string | undefined;
  readonly attribute?: string | undefined;
}

export interface FetchRow {
  readonly id: number;
  readonly urlId: number;
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly bytes: number | undefined;
  readonly errorCode: string | undefined;
  readonly finalUrl: string | undefined;
  readonly attempts: number;
  readonly redirects: readonly RedirectHop[];
  readonly findings: readonly string[];
  readonly anchors: readonly string[];
  /**
   * The URL whose representation this fetch stands for (`FetchRecord.representsUrlId`);
   * `undefined` in rows written before it was recorded (migration 003).
   */
  readonly representsUrlId: number | undefined;
  /** `FetchRecord.etag`; absent in rows written before migration 007. */
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
  /** `FetchRecord.isNotModified`: this request was answered 304. */
  readonly isNotModified?: boolean | undefined;
  /** `GET` or `HEAD`; `undefined` when no request was made, and in rows written before migration 006. */
  readonly method: FetchMethod | undefined;
  /** `FetchRecord.digest`; absent in rows written before migration 009. */
  readonly digest?: string | undefined;
  /**
   * `FetchRecord.verdict`; `undefined` in rows written before migration 012 (readers
   * derive it with `verdictOfRow`, src/crawl/verdict.ts).
   */
  readonly verdict?: Verdict | undefined;
}

export interface AliasRow {
  readonly fromId: number;
  readonly fromKey: string;
  readonly toId: number;
  readonly toKey: string;
  readonly evidence: AliasEvidence;
  readonly detail: string | undefined;
  readonly createdAt: number;
}

export interface UrlHistory {
  readonly url: UrlRecord;
  readonly firstLink: FirstLink | undefined;
  readonly fetches: readonly FetchRow[];
  /** Aliases whose `from` is this URL (what it was proved to be). */
  readonly aliasesFrom: readonly AliasRow[];
  /** Aliases whose `to` is this URL (what was proved to be it). */
  readonly aliasesTo: readonly AliasRow[];
}

// ---------------------------------------------------------------------------
// Reading a crawl's index for reports (issue 5). Everything streams: async
// iterables over cursors, never whole tables in memory.

/** A URL of the index with the outcome of its last fetch. */
export interface UrlRow {
  readonly id: number;
  /** The scheme-rung key (RFC 3986 §6.2.3) without fragment. */
  readonly key: string;
  readonly state: UrlState;
  readonly depth: number;
  readonly aliasOf: number | undefined;
  /** How it relates to the crawl (`page` for a row written before migration 006). */
  readonly role: UrlRole;
  readonly firstLink: FirstLink | undefined;
  /** The last fetch of this URL, if any. */
  readonly lastFetch: FetchRow | undefined;
}

/** A spelling seen of a URL that differs from its key, and the rung that folds it. */
export interface FormRow {
  readonly urlId: number;
  readonly text: string;
  /** `string`: seen as written; `syntax`: only the syntax-rung form of a spelling seen. */
  readonly rung: 'string' | 'syntax';
}

/** One link as recorded, in page order. */
export interface LinkRow {
  readonly fromUrlId: number;
  readonly position: number;
  /** The canonical target (after aliases); `undefined` when the href did not resolve. */
  readonly toUrlId: number | undefined;
  readonly rawHref: string;
  readonly fragment: string | undefined;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly baseLevel: BaseLevel | undefined;
  /** Where it met the index; `protocol` when through an alias. */
  readonly rung: MatchRung | undefined;
  /** The ladder rung it met the index at before aliases were followed (`rung` unless `protocol`). */
  readonly ladderRung: Exclude<MatchRung, 'protocol'> | undefined;
  readonly error: string | undefined;
  readonly findings: readonly string[];
  readonly alternateTarget: string | undefined;
  /** The URL the target met before aliases were followed (`toUrlId` unless `protocol`). */
  readonly metUrlId: number | undefined;
  /** The 1-based line of the href's value in the page; `undefined` when not recorded (rows written before positions were). */
  readonly line?: number | undefined;
  /** The 1-based column of the href's value (UTF-16 code units); `undefined` when not recorded. */
  readonly column?: number | undefined;
}

/** Links from one page to one target with one element/attribute, counted. */
export interface EdgeRow {
  readonly fromUrlId: number;
  readonly toUrlId: number;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly count: number;
}

/**
 * The ladder funnel (RFC 3986 §6.2): how many distinct targets remain at each
 * step of the comparison ladder, over the links of the crawl.
 */
export interface Funnel {
  /** Link rows with a resolved target. */
  readonly rawLinks: number;
  /**
   * Distinct resolved target strings (fragment removed), as far as links first
   * saw them: a string first seen as a seed or a redirect target is not counted.
   */
  readonly distinctStrings: number;
  /** Distinct after syntax-based normalization (§6.2.2). */
  readonly distinctSyntax: number;
  /** Distinct after scheme-based normalization (§6.2.3). */
  readonly distinctScheme: number;
  /**
   * Distinct after the protocol rung (§6.2.4): the URLs links created, each alias
   * counted as the URL its chain ends at (which may be one no link named, as a
   * negotiated variant named by Content-Location).
   */
  readonly afterAliases: number;
  /** Links without a valid target. */
  readonly unresolved: number;
}

/** What `IndexReader.edges` takes. */
export interface EdgeOptions {
  /**
   * Pages and targets are the URLs their alias chains end at (RFC 3986 §6.2.4).
   * @default false
   */
  readonly collapseAliases?: boolean | undefined;
}

/**
 * Read-only access to a crawl's index, for reports (DESIGN.md §6). Async, so that
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
   * (`metUrlId`); with `collapseAliases`, pages and targets are the URLs their alias
   * chains end at (RFC 3986 §6.2.4).
   */
  edges(options?: EdgeOptions): AsyncIterable<EdgeRow>;
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
  /** The workers of a crawl shared by cooperating workers (issue 12), by id. Optional: a store with one writer has none. */
  workers?(): Promise<readonly WorkerRow[]>;
  /**
   * Byte-identical representations under URLs the ladder did not join (DESIGN.md §9,
   * DUPLICATE_REPRESENTATION): one row per URL of each group, the rows of a group
   * together; groups in the order of their first URL's key, a group's URLs by key.
   * See `DuplicateBodyRow` for which fetches count. Streams: the grouping is the
   * store's (SQL), only the alias chains are walked in memory.
   */
  duplicateBodies(): AsyncIterable<DuplicateBodyRow>;
  close(): Promise<void>;
}

/**
 * One URL of a group of byte-identical representations that the ladder did not join
 * (DESIGN.md §9). A group is the URLs whose current representation has one digest:
 * - each fetch stands for the URL `representsUrlId` names, followed through the
 *   aliases of redirects and Content-Location (RFC 3986 §6.2.4: what those join is one
 *   resource, never a duplicate of itself) — the row's `urlId`;
 * - a URL's current representation is its latest fetch made with a request of its
 *   own or derived from another URL's response (a 304 revalidation, and a row
 *   written without any response, are no new representation of it);
 * - it counts when it has a digest (a 2xx body read) and no error code.
 * URLs that content evidence (`digest`, `rule`; heuristic) joined are still listed,
 * marked by `contentEvidence`.
 */
export interface DuplicateBodyRow {
  /** SHA-256 (base64url) of the body the group shares (`FetchRow.digest`). */
  readonly digest: string;
  /** The URL whose representation it is: the end of its redirect and Content-Location aliases. */
  readonly urlId: number;
  readonly key: string;
  /** The fetch that carried it (the URL's current representation). */
  readonly fetchId: number;
  /** The URL that fetch was recorded for: `urlId`, or one whose redirects or Content-Location lead to it. */
  readonly fetchedUrlId: number;
  readonly fetchedKey: string;
  /**
   * The content evidence (`digest` or `rule`, written by `--content-evidence`,
   * heuristic) that joined this URL to another URL of its group; `undefined` when
   * none did.
   */
  readonly contentEvidence: AliasEvidence | undefined;
}

/** One worker of a shared crawl as the index has it now (`crawl_worker`, and its claims). */
export interface WorkerRow {
  readonly id: string;
  /** The machine it runs on, and its process. */
  readonly host: string;
  readonly pid: number;
  readonly startedAt: number;
  /** When it last renewed its leases. */
  readonly heartbeatAt: number;
  /** `undefined` while it runs, or when it died (no heartbeat since). */
  readonly endedAt: number | undefined;
  /** Not ended, and no heartbeat for longer than its lease: it stopped without ending (killed, machine lost). */
  readonly isSilent: boolean;
  /** What it reported last (`SharedFrontier.reportProgress`): requests, fetched, failed, links, queued, fetchesSaved, inFlight. */
  readonly counts: Readonly<Record<string, number>>;
  /** URLs it holds in `fetching` whose lease is live. */
  readonly claims: number;
  /** URLs it held whose lease ran out (it died, or stalled): another worker's to take. */
  readonly lapsedClaims: number;
}

/** A zero count for each of `keys`, to be filled in. */
export function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}
