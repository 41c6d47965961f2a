// The async IndexWriter over a store whose operations are synchronous (SQLite,
// memory): every call is a unit of write-units.ts, or a read answered at once.
// A store supplies its operations and its transaction steps; this class is the
// contract's one implementation of units, transact() and close().

import type { RobotsCache } from '../fetch/index.js';
import { StoreError } from '../errors.js';
import type {
  AdmitEntry,
  AdmitResult,
  AliasRecord,
  ArchivedRecord,
  ClaimedUrl,
  CrawlRunEnd,
  CrawlRunRow,
  CrawlRunStart,
  FetchRecord,
  FindingIdentity,
  IndexWriter,
  RecheckGeneration,
  RecheckStart,
  SitemapQueueEntry,
  SitemapQueueRow,
  SitemapRecord,
  SitemapSettlement,
  StoreStats,
  UrlHistory,
  UrlRecord,
} from './types.js';
import { WriteUnits, settled, type GroupCommitOptions, type TransactionSteps } from './write-units.js';

export abstract class UnitStore implements IndexWriter {
  abstract readonly robotsCache: RobotsCache;
  readonly #groupCommit: GroupCommitOptions | undefined;
  #units: WriteUnits | undefined;
  #tx: IndexWriter | undefined;

  constructor(groupCommit: GroupCommitOptions | undefined) {
    this.#groupCommit = groupCommit;
  }

  // The store's operations, synchronous; the writes run inside a unit.
  protected abstract admitNow(batch: readonly AdmitEntry[]): AdmitResult[];
  protected abstract claimNow(limit: number): ClaimedUrl[];
  protected abstract recordFetchNow(record: FetchRecord): void;
  protected abstract addAliasNow(record: AliasRecord): void;
  protected abstract revokeAliasNow(fromId: number): void;
  protected abstract requeueNow(id: number): void;
  protected abstract getUrlNow(id: number): UrlRecord | undefined;
  protected abstract findUrlNow(uri: string): UrlRecord | undefined;
  protected abstract historyNow(id: number): UrlHistory | undefined;
  protected abstract statsNow(): StoreStats;
  protected abstract startRunNow(run: CrawlRunStart): number;
  protected abstract endRunNow(id: number, end: CrawlRunEnd): void;
  protected abstract recordRunCountsNow(id: number, counts: Readonly<Record<string, unknown>>): void;
  protected abstract runsNow(): CrawlRunRow[];
  protected abstract recordSitemapNow(record: SitemapRecord, settlement: SitemapSettlement | undefined): number;
  protected abstract queueSitemapsNow(entries: readonly SitemapQueueEntry[]): void;
  protected abstract sitemapQueueNow(origin: string): SitemapQueueRow[];
  protected abstract clearSitemapQueueNow(): void;
  protected abstract isQueuedSitemapNow(key: string): boolean;
  protected abstract requeueFetchedNow(start: RecheckStart): RecheckGeneration;
  protected abstract dropLinksNow(fromUrlId: number): void;
  protected abstract recordRunFindingsNow(runId: number, findings: readonly FindingIdentity[]): void;
  protected abstract recordArchivedNow(records: readonly ArchivedRecord[]): void;
  protected abstract archivedRecordsNow(uri: string): ArchivedRecord[];
  protected abstract archivedPayloadNow(digest: string): ArchivedRecord | undefined;
  /** How this store opens, nests and ends its transactions. */
  protected abstract transactionSteps(): TransactionSteps;
  /** Release the store (the last group is committed before). */
  protected abstract closeNow(): void;

  // Built on first use: a subclass's fields are not set yet while this constructor runs.
  protected get units(): WriteUnits {
    return (this.#units ??= new WriteUnits(this.transactionSteps(), this.#groupCommit));
  }

  /** A write step of the running unit: when it throws, the whole unit is rolled back. */
  protected inUnit<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      this.units.failUnit(error);
      throw error;
    }
  }

  admit(batch: readonly AdmitEntry[]): Promise<AdmitResult[]> {
    return this.units.run(() => this.admitNow(batch));
  }

  claim(limit: number): Promise<ClaimedUrl[]> {
    return this.units.run(() => this.claimNow(limit));
  }

  recordFetch(record: FetchRecord): Promise<void> {
    return this.units.run(() => this.recordFetchNow(record));
  }

  addAlias(record: AliasRecord): Promise<void> {
    return this.units.run(() => this.addAliasNow(record));
  }

  revokeAlias(fromId: number): Promise<void> {
    return this.units.run(() => this.revokeAliasNow(fromId));
  }

  requeue(id: number): Promise<void> {
    return this.units.run(() => this.requeueNow(id));
  }

  getUrl(id: number): Promise<UrlRecord | undefined> {
    return settled(() => this.getUrlNow(id));
  }

  findUrl(uri: string): Promise<UrlRecord | undefined> {
    return settled(() => this.findUrlNow(uri));
  }

  history(id: number): Promise<UrlHistory | undefined> {
    return settled(() => this.historyNow(id));
  }

  stats(): Promise<StoreStats> {
    return settled(() => this.statsNow());
  }

  startRun(run: CrawlRunStart): Promise<number> {
    return this.units.run(() => this.startRunNow(run));
  }

  endRun(id: number, end: CrawlRunEnd): Promise<void> {
    return this.units.run(() => this.endRunNow(id, end));
  }

  recordRunCounts(id: number, counts: Readonly<Record<string, unknown>>): Promise<void> {
    return this.units.run(() => this.recordRunCountsNow(id, counts));
  }

  runs(): Promise<readonly CrawlRunRow[]> {
    return settled(() => this.runsNow());
  }

  recordSitemap(record: SitemapRecord, settlement?: SitemapSettlement): Promise<number> {
    return this.units.run(() => this.recordSitemapNow(record, settlement));
  }

  queueSitemaps(entries: readonly SitemapQueueEntry[]): Promise<void> {
    return this.units.run(() => this.queueSitemapsNow(entries));
  }

  sitemapQueue(origin: string): Promise<SitemapQueueRow[]> {
    return settled(() => this.sitemapQueueNow(origin));
  }

  // One writer: a queued sitemap is this writer's to read.
  takeSitemap(key: string): Promise<boolean> {
    return settled(() => this.isQueuedSitemapNow(key));
  }

  // One writer holds no lease: nothing to give back.
  async releaseSitemap(_key: string): Promise<void> {}

  clearSitemapQueue(): Promise<void> {
    return this.units.run(() => this.clearSitemapQueueNow());
  }

  requeueFetched(start: RecheckStart = {}): Promise<RecheckGeneration> {
    return this.units.run(() => this.requeueFetchedNow(start));
  }

  dropLinks(fromUrlId: number): Promise<void> {
    return this.units.run(() => this.dropLinksNow(fromUrlId));
  }

  recordRunFindings(runId: number, findings: readonly FindingIdentity[]): Promise<void> {
    return this.units.run(() => this.recordRunFindingsNow(runId, findings));
  }

  recordArchived(records: readonly ArchivedRecord[]): Promise<void> {
    return this.units.run(() => this.recordArchivedNow(records));
  }

  archivedRecords(uri: string): Promise<ArchivedRecord[]> {
    return settled(() => this.archivedRecordsNow(uri));
  }

  archivedPayload(digest: string): Promise<ArchivedRecord | undefined> {
    return settled(() => this.archivedPayloadNow(digest));
  }

  transact<T>(work: (tx: IndexWriter) => Promise<T>): Promise<T> {
    return this.units.run(() => work((this.#tx ??= this.#unitView())));
  }

  flush(): Promise<void> {
    return this.units.flush();
  }

  async close(): Promise<void> {
    try {
      await this.units.flush();
    } finally {
      this.closeNow();
    }
  }

  // The running unit's view of the store: the same calls, run at once (the unit holds the turn).
  #unitView(): IndexWriter {
    const tx: IndexWriter = {
      admit: (batch) => settled(() => this.admitNow(batch)),
      claim: (limit) => settled(() => this.claimNow(limit)),
      recordFetch: (record) => settled(() => this.recordFetchNow(record)),
      addAlias: (record) => settled(() => this.addAliasNow(record)),
      revokeAlias: (fromId) => settled(() => this.revokeAliasNow(fromId)),
      requeue: (id) => settled(() => this.requeueNow(id)),
      getUrl: (id) => this.getUrl(id),
      findUrl: (uri) => this.findUrl(uri),
      history: (id) => this.history(id),
      stats: () => this.stats(),
      startRun: (run) => settled(() => this.startRunNow(run)),
      endRun: (id, end) => settled(() => this.endRunNow(id, end)),
      recordRunCounts: (id, counts) => settled(() => this.recordRunCountsNow(id, counts)),
      runs: () => this.runs(),
      recordSitemap: (record, settlement) => settled(() => this.recordSitemapNow(record, settlement)),
      queueSitemaps: (entries) => settled(() => this.queueSitemapsNow(entries)),
      sitemapQueue: (origin) => this.sitemapQueue(origin),
      takeSitemap: (key) => this.takeSitemap(key),
      releaseSitemap: (key) => this.releaseSitemap(key),
      clearSitemapQueue: () => settled(() => this.clearSitemapQueueNow()),
      requeueFetched: (start = {}) => settled(() => this.requeueFetchedNow(start)),
      dropLinks: (fromUrlId) => settled(() => this.dropLinksNow(fromUrlId)),
      recordRunFindings: (runId, findings) => settled(() => this.recordRunFindingsNow(runId, findings)),
      recordArchived: (records) => settled(() => this.recordArchivedNow(records)),
      archivedRecords: (uri) => this.archivedRecords(uri),
      archivedPayload: (digest) => this.archivedPayload(digest),
      transact: (work) => work(tx),
      flush: () => Promise.resolve(),
      robotsCache: this.robotsCache,
      close: () => Promise.reject(new StoreError('ERR_STORE_WRITE_FAILED', 'a unit of work cannot close the index')),
    };
    return tx;
  }
}
