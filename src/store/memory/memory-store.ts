// The IndexWriter and IndexReader in plain Maps: for tests and short-lived use. It
// shares the admitter and the link codec with the SQLite store and passes the same
// contract tests. It changes a URL's state only where the URL state machine
// (url-state-machine.ts) allows the move (`mayMove`).

import type { RobotsCache, RobotsCacheEntry } from '../../fetch/index.js';
import { ALIAS_EVIDENCE, ALIAS_MAKING_EVIDENCE, isAliasMaking, resourceKey, resourceKeyOf } from '../../ladder/index.js';
import { parseUriReference } from '../../uri/index.js';
import { StoreError } from '../../errors.js';
import { Admitter, type FormHit } from '../admitter.js';
import { decodeLink, encodeLink, rungOf, type EncodedLink } from '../link-codec.js';
import { MemoryIndexReader } from './memory-reader.js';
import { UnitStore } from '../unit-store.js';
import { LEFT_TO_FETCH, mayMove } from '../url-state-machine.js';
import { inTurns } from '../claim-turns.js';
import type { GroupCommitOptions, TransactionSteps } from '../write-units.js';
import {
  MATCH_RUNGS,
  URL_STATES,
  zeroCounts,
  type AdmitEntry,
  type AdmitResult,
  type AliasRecord,
  type AliasRow,
  type ArchivedRecord,
  type ClaimedUrl,
  type CrawlRunEnd,
  type CrawlRunRow,
  type CrawlRunStart,
  type FetchRow,
  type FindingIdentity,
  type RecheckGeneration,
  type RecheckStart,
  type SitemapEntryRow,
  type SitemapQueueEntry,
  type SitemapQueueRow,
  type SitemapRecord,
  type SitemapSettlement,
  type SitemapRow,
  type UrlHistory,
  type FetchRecord,
  type IndexReader,
  type StoreStats,
  type UrlRecord,
  type UrlRole,
  type UrlState,
} from '../types.js';

interface MemoryUrl {
  id: number;
  key: string;
  host: string | undefined;
  state: UrlState;
  depth: number;
  aliasOf: number | undefined;
  role: UrlRole;
  firstFrom: number | undefined;
  firstHref: string;
}

export interface MemoryStoreOptions {
  /** @default Date.now */
  readonly now?: () => number;
  /** When units of work are committed together (here: when their undo log is dropped). */
  readonly groupCommit?: GroupCommitOptions | undefined;
}

export class MemoryStore extends UnitStore {
  readonly #urls: MemoryUrl[] = [];
  readonly #byKey = new Map<string, MemoryUrl>();
  readonly #forms = new Map<string, FormHit>();
  // Each page's links, encoded as in SQLite's page_link rows.
  readonly #pages = new Map<number, EncodedLink[]>();
  #linkCount = 0;
  readonly #aliases = new Map<string, AliasRow>();
  readonly #fetches: FetchRow[] = [];
  readonly #robots = new Map<string, RobotsCacheEntry>();
  readonly #runs: CrawlRunRow[] = [];
  /** Re-check generations, in the order begun (migration 015's rows). */
  readonly #rechecks: { generation: number; startedAt: number; runId: number | undefined; queued: number; settledAt: number | undefined }[] = [];
  readonly #sitemaps: SitemapRow[] = [];
  readonly #sitemapEntries: SitemapEntryRow[] = [];
  /** The sitemap frontier by key, in the order queued (a Map keeps it). */
  readonly #sitemapQueue = new Map<string, SitemapQueueRow>();
  readonly #runFindings = new Map<number, readonly FindingIdentity[]>();
  /** The WARC records, in the order recorded, each with its target URI's resource key. */
  readonly #archived: { readonly record: ArchivedRecord; readonly key: string | undefined }[] = [];
  readonly #now: () => number;
  readonly #admitter: Admitter;

  // Undo steps of the open group, replayed backwards to undo a unit (or the group) that failed.
  #undo: (() => void)[] = [];
  readonly robotsCache: RobotsCache = {
    get: (origin) => this.#robots.get(origin),
    set: (origin, entry) => void this.#robots.set(origin, entry),
  };

  constructor(options?: MemoryStoreOptions) {
    super(options?.groupCommit);
    const now = (this.#now = options?.now ?? Date.now);
    this.#admitter = new Admitter(
      {
        findForm: (text) => this.#forms.get(text),
        putForm: (text, urlId, rung) => {
          const existing = this.#forms.get(text);
          if (existing !== undefined && rung !== 'string') return;
          this.#undo.push(existing === undefined ? () => this.#forms.delete(text) : () => this.#forms.set(text, existing));
          this.#forms.set(text, { urlId: existing?.urlId ?? urlId, rung });
        },
        findUrlByKey: (key) => this.#byKey.get(key)?.id,
        standing: (id) => {
          const row = this.#urls[id - 1];
          return row === undefined ? undefined : { isSkipped: row.state === 'skipped', role: row.role };
        },
        insertUrl: (url) => {
          const row: MemoryUrl = {
            id: this.#urls.length + 1,
            key: url.key,
            host: url.host,
            state: url.state,
            depth: url.depth,
            aliasOf: undefined,
            role: url.role,
            firstFrom: url.firstFrom,
            firstHref: url.firstHref,
          };
          this.#urls.push(row);
          this.#byKey.set(row.key, row);
          this.#undo.push(() => {
            this.#urls.pop();
            this.#byKey.delete(row.key);
          });
          return row.id;
        },
        followSkipped: (id, depth, role) => {
          const row = this.#urls[id - 1];
          if (row === undefined || !mayMove('admit', row.state, 'queued')) return false;
          const before = { state: row.state, depth: row.depth, role: row.role };
          this.#undo.push(() => Object.assign(row, before));
          row.state = 'queued';
          row.depth = Math.min(row.depth, depth);
          row.role = role;
          return true;
        },
        raiseRole: (id, role) => {
          const row = this.#urls[id - 1];
          if (row?.state !== 'queued') return;
          const before = row.role;
          this.#undo.push(() => void (row.role = before));
          row.role = role;
        },
        insertLink: (link) => {
          let links = this.#pages.get(link.fromUrlId);
          if (links === undefined) this.#pages.set(link.fromUrlId, (links = []));
          links.push(encodeLink(link));
          this.#linkCount++;
          this.#undo.push(() => {
            links.pop();
            if (links.length === 0) this.#pages.delete(link.fromUrlId);
            this.#linkCount--;
          });
        },
        aliasTarget: (id) => this.#urls[id - 1]?.aliasOf,
      },
      { now },
    );
  }

  protected closeNow(): void {}

  // The writes, each undone with its unit when it throws.
  protected admitNow(batch: readonly AdmitEntry[]): AdmitResult[] {
    return this.inUnit(() => batch.map((entry) => this.#admitter.admit(entry)));
  }

  protected claimNow(limit: number): ClaimedUrl[] {
    return this.inUnit(() => this.#claim(limit));
  }

  protected recordFetchNow(record: FetchRecord): void {
    this.inUnit(() => this.#recordFetch(record));
  }

  protected addAliasNow(record: AliasRecord): void {
    this.inUnit(() => this.#addAlias(record));
  }

  protected revokeAliasNow(fromId: number): void {
    this.inUnit(() => this.#revokeAlias(fromId));
  }

  protected requeueNow(id: number): void {
    this.inUnit(() => this.#requeue(id));
  }

  /** Read the index for reports: what has been written so far, as the SQLite reader reads it. */
  reader(): IndexReader {
    return new MemoryIndexReader({
      urls: this.#urls,
      forms: this.#forms,
      pages: this.#pages,
      aliases: { [Symbol.iterator]: () => this.#aliases.values() },
      fetches: this.#fetches,
      stats: () => this.statsNow(),
      runs: () => this.runsNow(),
      sitemaps: this.#sitemaps,
      sitemapEntries: this.#sitemapEntries,
      runFindings: (runId) => this.#runFindings.get(runId),
    });
  }

  protected recordSitemapNow(record: SitemapRecord, settlement: SitemapSettlement | undefined): number {
    return this.inUnit(() => {
      const { entries, ...sitemap } = record;
      const id = this.#sitemaps.length + 1;
      this.#sitemaps.push({ ...sitemap, id, parentId: record.parentId, findings: record.findings.map((f) => ({ ...f })) });
      const before = this.#sitemapEntries.length;
      entries.forEach((entry, position) =>
        this.#sitemapEntries.push({ sitemapId: id, sitemapUrl: record.url, position, urlId: entry.urlId, loc: entry.loc, lastmod: entry.lastmod, line: entry.line }),
      );
      this.#undo.push(() => {
        this.#sitemaps.pop();
        this.#sitemapEntries.length = before;
      });
      if (settlement !== undefined) {
        const row = this.#sitemapQueue.get(settlement.key);
        if (row?.state === 'queued') this.#setSitemapRow({ ...row, state: settlement.state });
        this.#queueSitemaps(settlement.children.map((child) => ({ ...child, parentId: id })));
      }
      return id;
    });
  }

  protected queueSitemapsNow(entries: readonly SitemapQueueEntry[]): void {
    this.inUnit(() => this.#queueSitemaps(entries));
  }

  #queueSitemaps(entries: readonly SitemapQueueEntry[]): void {
    for (const e of entries) {
      if (this.#sitemapQueue.has(e.key)) continue;
      this.#sitemapQueue.set(e.key, { key: e.key, origin: e.origin, url: e.url, source: e.source, parentId: e.parentId, state: 'queued' });
      this.#undo.push(() => this.#sitemapQueue.delete(e.key));
    }
  }

  #setSitemapRow(row: SitemapQueueRow): void {
    const before = this.#sitemapQueue.get(row.key)!;
    this.#sitemapQueue.set(row.key, row);
    this.#undo.push(() => this.#sitemapQueue.set(row.key, before));
  }

  protected sitemapQueueNow(origin: string): SitemapQueueRow[] {
    return [...this.#sitemapQueue.values()].filter((row) => row.origin === origin).map((row) => ({ ...row }));
  }

  protected isQueuedSitemapNow(key: string): boolean {
    return this.#sitemapQueue.get(key)?.state === 'queued';
  }

  protected clearSitemapQueueNow(): void {
    this.inUnit(() => {
      const before = [...this.#sitemapQueue];
      this.#sitemapQueue.clear();
      this.#undo.push(() => {
        for (const [key, row] of before) this.#sitemapQueue.set(key, row);
      });
    });
  }

  protected requeueFetchedNow(start: RecheckStart): RecheckGeneration {
    return this.inUnit(() => {
      // A re-check in progress is joined: what it queued is left to fetch, and what it fetched stays so.
      const open = this.#rechecks.at(-1);
      if (open !== undefined && open.settledAt === undefined && this.#isAnyLeftToFetch()) return { generation: open.generation, isJoined: true, queued: 0 };
      this.#settleRecheck();
      let count = 0;
      for (const row of this.#urls) {
        if (row.state !== 'alias' && mayMove('requeueFetched', row.state, 'queued')) {
          this.#setRow(row, 'queued', row.aliasOf);
          count++;
        } else if (row.state === 'alias' && this.#aliases.has(`${row.id} redirect`) && mayMove('requeueFetched', row.state, 'queued')) {
          // A URL that answered a redirect is asked again too: it may lead elsewhere now, or nowhere.
          this.#revokeAlias(row.id);
          count++;
        }
      }
      if (start.sitemaps === true) this.clearSitemapQueueNow();
      const generation = { generation: this.#rechecks.length + 1, startedAt: this.#now(), runId: start.runId, queued: count, settledAt: undefined };
      this.#rechecks.push(generation);
      this.#undo.push(() => this.#rechecks.pop());
      return { generation: generation.generation, isJoined: false, queued: count };
    });
  }

  #isAnyLeftToFetch(): boolean {
    for (const row of this.#urls) if (LEFT_TO_FETCH.includes(row.state)) return true;
    return false;
  }

  // A re-check with nothing left to fetch is finished.
  #settleRecheck(): void {
    const open = this.#rechecks.at(-1);
    if (open === undefined || open.settledAt !== undefined || this.#isAnyLeftToFetch()) return;
    open.settledAt = this.#now();
    this.#undo.push(() => (open.settledAt = undefined));
  }

  protected dropLinksNow(fromUrlId: number): void {
    this.inUnit(() => {
      const links = this.#pages.get(fromUrlId);
      if (links === undefined) return;
      this.#pages.delete(fromUrlId);
      this.#linkCount -= links.length;
      this.#undo.push(() => {
        this.#pages.set(fromUrlId, links);
        this.#linkCount += links.length;
      });
    });
  }

  protected recordRunFindingsNow(runId: number, findings: readonly FindingIdentity[]): void {
    this.inUnit(() => {
      const before = this.#runFindings.get(runId);
      this.#runFindings.set(runId, findings.map((f) => ({ ...f })));
      this.#undo.push(() => (before === undefined ? this.#runFindings.delete(runId) : this.#runFindings.set(runId, before)));
    });
  }

  protected recordArchivedNow(records: readonly ArchivedRecord[]): void {
    this.inUnit(() => {
      const before = this.#archived.length;
      const runId = this.#runs.at(-1)?.id;
      for (const r of records) this.#archived.push({ record: { ...r, date: new Date(r.date.getTime()), runId: r.runId ?? runId }, key: resourceKeyOf(r.uri) });
      this.#undo.push(() => (this.#archived.length = before));
    });
  }

  protected archivedRecordsNow(uri: string): ArchivedRecord[] {
    const key = resourceKeyOf(uri);
    const found = this.#archived.flatMap((row, order) =>
      (key === undefined ? row.key === undefined && row.record.uri === uri : row.key === key) ? [{ row, order }] : [],
    );
    // Newest first: by WARC-Date, then the later recorded.
    found.sort((a, b) => b.row.record.date.getTime() - a.row.record.date.getTime() || b.order - a.order);
    return found.map(({ row }) => copyArchived(row.record));
  }

  protected archivedPayloadNow(digest: string): ArchivedRecord | undefined {
    const row = this.#archived.find(({ record }) => record.type === 'response' && record.payloadDigest === digest);
    return row === undefined ? undefined : copyArchived(row.record);
  }

  #undoTo(mark: number): void {
    for (const step of this.#undo.splice(mark).reverse()) step();
    this.#admitter.forget();
  }

  // Every change is undoable: a unit that throws leaves nothing behind; a group's log is dropped when it commits.
  protected transactionSteps(): TransactionSteps {
    const marks: number[] = [];
    return {
      begin: () => {},
      savepoint: () => marks.push(this.#undo.length),
      release: () => marks.pop(),
      rollbackUnit: () => this.#undoTo(marks.pop() ?? 0),
      commit: () => {
        this.#undo = [];
      },
      rollbackGroup: () => this.#undoTo(0),
    };
  }

  #requeue(id: number): void {
    const row = this.#require(id);
    if (!mayMove('requeue', row.state, 'queued')) return;
    const before = row.state;
    this.#undo.push(() => (row.state = before));
    row.state = 'queued';
  }

  protected historyNow(id: number): UrlHistory | undefined {
    const url = this.getUrlNow(id);
    const row = this.#urls[id - 1];
    if (url === undefined || row === undefined) return undefined;
    const from = row.firstFrom === undefined ? undefined : this.#urls[row.firstFrom - 1];
    const aliases = [...this.#aliases.values()];
    return {
      url,
      firstLink: { fromUrlId: row.firstFrom, fromKey: from?.key, rawHref: row.firstHref, ...this.#firstLinkElement(row.firstFrom, id) },
      fetches: this.#fetches.filter((f) => f.urlId === id),
      aliasesFrom: aliases.filter((a) => a.fromId === id),
      aliasesTo: aliases.filter((a) => a.toId === id),
    };
  }

  /** The element and attribute of the first link from page `from` to URL `id`, as the SQLite store finds them. */
  #firstLinkElement(from: number | undefined, id: number): { element?: string | undefined; attribute?: string | undefined } {
    if (from === undefined) return {};
    const links = this.#pages.get(from) ?? [];
    for (let i = 0; i < links.length; i++) {
      const link = decodeLink(from, i, links[i]!);
      if (link.toUrlId === id || link.metUrlId === id) return { element: link.element, attribute: link.attribute };
    }
    return {};
  }

  #claim(limit: number): ClaimedUrl[] {
    const queued = this.#urls.filter((u) => mayMove('claim', u.state, 'fetching', 'memory')).sort((a, b) => a.depth - b.depth || a.id - b.id);
    return inTurns(queued, limit).map((u) => {
      this.#setRow(u, 'fetching', u.aliasOf);
      return { id: u.id, key: u.key, depth: u.depth, host: u.host, role: u.role };
    });
  }

  #recordFetch(record: FetchRecord): void {
    const row = this.#require(record.urlId);
    const before = row.state;
    this.#fetches.push({
      id: this.#fetches.length + 1,
      urlId: record.urlId,
      startedAt: record.startedAt,
      durationMs: record.durationMs,
      status: record.status,
      contentType: record.contentType,
      bytes: record.bytes,
      errorCode: record.errorCode,
      finalUrl: record.finalUrl,
      attempts: record.attempts ?? 1,
      redirects: record.redirects ?? [],
      findings: record.findings ?? [],
      anchors: record.anchors ?? [],
      representsUrlId: record.representsUrlId,
      etag: record.etag,
      lastModified: record.lastModified,
      isNotModified: record.isNotModified === true,
      method: record.method,
      digest: record.digest,
      verdict: record.verdict,
      protocol: record.protocol,
    });
    this.#undo.push(() => {
      this.#fetches.pop();
      row.state = before;
    });
    if (mayMove('recordFetch', row.state, record.outcome)) row.state = record.outcome;
  }

  #addAlias(record: AliasRecord): void {
    const from = this.#require(record.fromId);
    const to = this.#require(record.toId);
    const key = `${record.fromId} ${record.evidence}`;
    this.#setAlias(key, {
      fromId: record.fromId,
      fromKey: from.key,
      toId: record.toId,
      toKey: to.key,
      evidence: record.evidence,
      detail: record.detail,
      createdAt: this.#now(),
    });
    if (isAliasMaking(record.evidence) && record.fromId !== record.toId && mayMove('addAlias', from.state, 'alias')) this.#setRow(from, 'alias', record.toId);
  }

  #revokeAlias(fromId: number): void {
    const row = this.#require(fromId);
    // Every alias that made it one (content evidence too, as SQLite and PostgreSQL do); a canonical claim stays.
    for (const evidence of ALIAS_MAKING_EVIDENCE) this.#setAlias(`${fromId} ${evidence}`, undefined);
    if (mayMove('revokeAlias', row.state, 'queued')) this.#setRow(row, 'queued', undefined);
  }

  #setAlias(key: string, alias: AliasRow | undefined): void {
    const before = this.#aliases.get(key);
    this.#undo.push(() => (before === undefined ? this.#aliases.delete(key) : this.#aliases.set(key, before)));
    if (alias === undefined) this.#aliases.delete(key);
    else this.#aliases.set(key, alias);
  }

  #setRow(row: MemoryUrl, state: UrlState, aliasOf: number | undefined): void {
    const [stateBefore, aliasBefore] = [row.state, row.aliasOf];
    this.#undo.push(() => Object.assign(row, { state: stateBefore, aliasOf: aliasBefore }));
    Object.assign(row, { state, aliasOf });
  }

  protected getUrlNow(id: number): UrlRecord | undefined {
    const row = this.#urls[id - 1];
    return row && { id: row.id, key: row.key, state: row.state, depth: row.depth, aliasOf: row.aliasOf, role: row.role };
  }

  protected findUrlNow(uri: string): UrlRecord | undefined {
    const parsed = parseUriReference(uri);
    const row = parsed.ok ? this.#byKey.get(resourceKey(parsed.value)) : undefined;
    return row && this.getUrlNow(row.id);
  }

  protected startRunNow(run: CrawlRunStart): number {
    return this.inUnit(() => {
      // A re-check with nothing left to fetch is finished: what this run queues is not its.
      this.#settleRecheck();
      const row: CrawlRunRow = {
        id: this.#runs.length + 1,
        startedAt: run.startedAt,
        seeds: [...run.seeds],
        settings: structuredClone(run.settings),
        endedAt: undefined,
        stoppedBy: undefined,
        outcome: undefined,
        counts: undefined,
      };
      this.#runs.push(row);
      this.#undo.push(() => this.#runs.pop());
      return row.id;
    });
  }

  protected endRunNow(id: number, end: CrawlRunEnd): void {
    this.inUnit(() => {
      const index = id - 1;
      const before = this.#runs[index];
      if (before === undefined) throw new StoreError('ERR_STORE_NOT_FOUND', `no crawl run with id ${id} in the index`);
      this.#runs[index] = { ...before, endedAt: end.endedAt, stoppedBy: end.stoppedBy, outcome: end.outcome, counts: structuredClone(end.counts) };
      this.#undo.push(() => (this.#runs[index] = before));
    });
  }

  protected recordRunCountsNow(id: number, counts: Readonly<Record<string, unknown>>): void {
    this.inUnit(() => {
      const index = id - 1;
      const before = this.#runs[index];
      if (before === undefined || before.endedAt !== undefined) return;
      this.#runs[index] = { ...before, counts: structuredClone(counts) };
      this.#undo.push(() => (this.#runs[index] = before));
    });
  }

  protected runsNow(): CrawlRunRow[] {
    return this.#runs.map((run) => structuredClone(run));
  }

  protected statsNow(): StoreStats {
    const urlsByState = zeroCounts(URL_STATES);
    for (const u of this.#urls) urlsByState[u.state]++;
    const linksByRung = zeroCounts(MATCH_RUNGS);
    let linksWithoutTarget = 0;
    for (const links of this.#pages.values()) {
      for (const link of links) {
        const rung = rungOf(link);
        if (rung === undefined) linksWithoutTarget++;
        else linksByRung[rung]++;
      }
    }
    const aliasesByEvidence = zeroCounts(ALIAS_EVIDENCE);
    for (const a of this.#aliases.values()) aliasesByEvidence[a.evidence]++;
    return { urlsByState, links: this.#linkCount, linksByRung, linksWithoutTarget, aliasesByEvidence, fetches: this.#fetches.length };
  }


  #require(id: number): MemoryUrl {
    const row = this.#urls[id - 1];
    if (row === undefined) throw new StoreError('ERR_STORE_NOT_FOUND', `no URL with id ${id} in the index`);
    return row;
  }
}

function copyArchived(record: ArchivedRecord): ArchivedRecord {
  return { ...record, date: new Date(record.date.getTime()) };
}
