// The IndexWriter on SQLite (better-sqlite3). Units of work are savepoints of one
// IMMEDIATE transaction per group (write-units.ts); keys are found through
// in-memory hash tables (key-table.ts) kept in step with other writers by PRAGMA
// data_version, read when a group begins.

import path from 'node:path';
import type { Database as Db } from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import type { RobotsCache, RobotsCacheEntry } from '../../fetch/index.js';
import { isAliasMaking, resourceKey, resourceKeyOf } from '../../ladder/index.js';
import { parseUriReference } from '../../uri/index.js';
import { Admitter, type IndexBackend, type NewUrl, type Standing } from '../admitter.js';
import { KeyMirror } from '../key-mirror.js';
import { LinkWriter } from '../link-writer.js';
import { defaultMigrationsDir, loadMigrations, type Migration } from '../migrations.js';
import { asCorruption, isObject, parseStoredJson, readingIndex } from '../index-corruption.js';
import { DEFAULT_DB_FOLDER, fileOf, openDatabase } from './sqlite-database.js';
import { WriterLock, type WriterLockHolder } from './writer-lock.js';
import { UnitStore } from '../unit-store.js';
import type { GroupCommitOptions, TransactionSteps } from '../write-units.js';
import { SqliteIndexReader, readStats } from './sqlite-reader.js';
import { prepareStatements, type SqliteStatements } from './sqlite-statements.js';
import { jsonList, toAliasRow, toFetchRow, toFirstLink, toUrlRecord, type AliasColumns, type FetchColumns, type UrlColumns } from '../row-codec.js';
import { readRuns } from './sqlite-rows.js';
import { URL_ROLES } from '../url-vocabulary.js';
import { toArchivedRecord, type ArchivedColumns } from '../archive-records.js';
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
  IndexReader,
  RecheckGeneration,
  RecheckStart,
  SitemapQueueEntry,
  SitemapQueueRow,
  SitemapRecord,
  SitemapSettlement,
  StoreStats,
  UrlHistory,
  UrlRecord,
  UrlRole,
  UrlState,
} from '../types.js';

/** The standing of a URL the key mirror knows to be a followed page. */
const FOLLOWED_PAGE: Standing = Object.freeze({ isSkipped: false, role: 'page' });
/** The standing of a followed URL of each role, by `URL_ROLES` index + 1 (`#followedRoles`). */
const FOLLOWED: readonly Standing[] = [FOLLOWED_PAGE, ...URL_ROLES.map((role) => Object.freeze({ isSkipped: false, role }))];

export interface SqliteStoreOptions {
  /**
   * Database file; `:memory:` for a private in-memory database.
   * @default 'data/linkladder.db'
   */
  readonly path?: string;
  /**
   * Refuse to create the database: opening a file that does not exist fails.
   * @default false
   */
  readonly mustExist?: boolean;
  /**
   * Put URLs left in `fetching` back in `queued` on open: what a crawl does when
   * it starts (they are claims of a crawl that died). Turn it off to inspect a
   * database that a running crawl may be using.
   * @default true
   */
  readonly recoverClaims?: boolean;
  /**
   * Open the index read-only, as reports do: it must exist, be a linkladder index
   * and have every migration applied; nothing is written to it (no claims requeued,
   * no lock taken), and every write fails.
   * @default false
   */
  readonly readOnly?: boolean;
  /**
   * Hold the index's writer lock while open (one writer per SQLite index: two would
   * interleave their units and requeue each other's claims on open):
   * opening fails with ERR_STORE_LOCKED while another running process holds it, and
   * takes over the lock of a process that is gone (`lockTakenOverFrom`). Turn it
   * off only for a writer that its caller keeps in step with the lock's holder.
   * @default true (no lock for `:memory:` or `readOnly`)
   */
  readonly writerLock?: boolean;
  /** Folder of the NNN_name.sql files. @default the package's migrations/ */
  readonly migrationsDir?: string;
  /** The clock (Unix ms). @default Date.now */
  readonly now?: () => number;
  /** When units of work are committed together. @default { maxLinks: 1000, maxMs: 50, idleMs: 5 } */
  readonly groupCommit?: GroupCommitOptions | undefined;
}

export const DEFAULT_DB_PATH = path.join(DEFAULT_DB_FOLDER, 'linkladder.db');


export class SqliteStore extends UnitStore {
  readonly #db: Db;
  readonly #admitter: Admitter;
  readonly #aliases = new Map<number, number>();
  readonly #now: () => number;
  readonly #statements: SqliteStatements;
  readonly #links: LinkWriter;
  readonly robotsCache: RobotsCache;
  #keys: KeyMirror | undefined;
  /**
   * By URL id: 1 + the `URL_ROLES` index of a URL read as followed (not skipped)
   * with a role below `page` (0: not known). A followed URL is never skipped again
   * and its role changes only by `raiseRole`, so a link to an image or a stylesheet
   * asks the table once, not once per link. Dropped with the key mirror.
   */
  #followedRoles = new Uint8Array(0);
  #dataVersion: number;
  /** The run this writer started last: the run of the WARC records it is given without one. */
  #runId: number | undefined;
  /** The migrations this open applied (empty when the database was up to date). */
  readonly appliedMigrations: readonly Migration[];
  readonly #lock: WriterLock | undefined;
  /** The writer whose lock this open took over: a process on this host that is no longer running. */
  readonly lockTakenOverFrom: WriterLockHolder | undefined;

  constructor(options?: SqliteStoreOptions) {
    super(options?.groupCommit);
    this.#now = options?.now ?? Date.now;
    const migrations = loadMigrations(options?.migrationsDir ?? defaultMigrationsDir());
    const file = options?.path ?? DEFAULT_DB_PATH;
    const isReadOnly = options?.readOnly === true;
    const opened = openDatabase(file, migrations, this.#now, { mustExist: options?.mustExist === true, readOnly: isReadOnly });
    this.#db = opened.db;
    this.appliedMigrations = opened.applied;
    const s = (this.#statements = prepareStatements(this.#db));
    // A crash leaves claimed URLs in `fetching`: their fetch was never recorded.
    const recoverClaims = (): void => {
      if (options?.recoverClaims !== false) s.requeueFetching.run();
    };
    try {
      if (isReadOnly) {
        this.#lock = undefined;
      } else if (file !== ':memory:' && options?.writerLock !== false) {
        // The claims are another writer's until its lock is ours.
        this.#lock = readingIndex(file, () => WriterLock.acquire(this.#db, file, this.#now, recoverClaims));
      } else {
        this.#lock = undefined;
        recoverClaims();
      }
      this.lockTakenOverFrom = this.#lock?.takenOverFrom;
      this.#loadAliases();
    } catch (error) {
      this.#db.close();
      throw asCorruption(error, file);
    }
    this.#dataVersion = this.#readDataVersion();
    this.#admitter = new Admitter(this.#backend(), { now: this.#now });
    this.#links = new LinkWriter(this.#db);
    this.robotsCache = this.#robotsCache();
  }

  protected statsNow(): StoreStats {
    return readingIndex(fileOf(this.#db), () => readStats(this.#db));
  }

  protected startRunNow(run: CrawlRunStart): number {
    const id = this.#write(() => {
      // A re-check with nothing left to fetch is finished: what this run queues is not its.
      this.#statements.settleRecheck.run({ now: this.#now() });
      return Number(
        this.#statements.insertRun.run({
          startedAt: run.startedAt,
          seeds: JSON.stringify(run.seeds),
          settings: JSON.stringify(run.settings),
        }).lastInsertRowid,
      );
    });
    this.#runId = id;
    return id;
  }

  protected endRunNow(id: number, end: CrawlRunEnd): void {
    this.#write(() =>
      this.#statements.endRun.run({ id, endedAt: end.endedAt, stoppedBy: end.stoppedBy, outcome: end.outcome, counts: JSON.stringify(end.counts) }),
    );
  }

  protected recordRunCountsNow(id: number, counts: Readonly<Record<string, unknown>>): void {
    this.#write(() => this.#statements.recordRunCounts.run({ id, counts: JSON.stringify(counts) }));
  }

  protected runsNow(): CrawlRunRow[] {
    return readRuns(this.#db);
  }

  protected recordSitemapNow(record: SitemapRecord, settlement: SitemapSettlement | undefined): number {
    const s = this.#statements;
    return this.#write(() => {
      const id = Number(
        s.insertSitemap.run({
          runId: record.runId ?? null,
          url: record.url,
          source: record.source,
          parentId: record.parentId ?? null,
          fetchedAt: record.fetchedAt,
          status: record.status ?? null,
          errorCode: record.errorCode ?? null,
          kind: record.kind ?? null,
          findings: record.findings.length === 0 ? null : JSON.stringify(record.findings),
        }).lastInsertRowid,
      );
      record.entries.forEach((entry, position) =>
        s.insertSitemapEntry.run({ sitemapId: id, position, urlId: entry.urlId ?? null, loc: entry.loc, lastmod: entry.lastmod ?? null, line: entry.line ?? null }),
      );
      if (settlement !== undefined) {
        s.settleSitemap.run({ key: settlement.key, state: settlement.state });
        for (const child of settlement.children) s.queueSitemap.run({ key: child.key, origin: child.origin, url: child.url, source: child.source, parentId: id });
      }
      return id;
    });
  }

  protected queueSitemapsNow(entries: readonly SitemapQueueEntry[]): void {
    const s = this.#statements;
    this.#write(() => {
      for (const e of entries) s.queueSitemap.run({ key: e.key, origin: e.origin, url: e.url, source: e.source, parentId: e.parentId ?? null });
    });
  }

  protected sitemapQueueNow(origin: string): SitemapQueueRow[] {
    const rows = this.#statements.sitemapQueueOf.all({ origin }) as { key: string; origin: string; url: string; source: SitemapQueueRow['source']; parent_id: number | null; state: SitemapQueueRow['state'] }[];
    return rows.map((r) => ({ key: r.key, origin: r.origin, url: r.url, source: r.source, parentId: r.parent_id ?? undefined, state: r.state }));
  }

  protected isQueuedSitemapNow(key: string): boolean {
    return (this.#statements.sitemapQueueState.get({ key }) as { state: string } | undefined)?.state === 'queued';
  }

  protected clearSitemapQueueNow(): void {
    this.#write(() => this.#statements.clearSitemapQueue.run());
  }

  protected requeueFetchedNow(start: RecheckStart): RecheckGeneration {
    const s = this.#statements;
    return this.#write(() => {
      // A re-check in progress is joined: what it queued is left to fetch, and what it fetched stays so.
      const open = s.openRecheck.get() as number | undefined;
      if (open !== undefined && s.anyLeftToFetch.get() === 1) return { generation: open, isJoined: true, queued: 0 };
      s.settleRecheck.run({ now: this.#now() });
      // A URL that answered a redirect is asked again too: it may lead elsewhere now, or nowhere.
      const redirected = s.redirectAliases.all() as number[];
      for (const id of redirected) {
        s.deleteProvingAliases.run({ id });
        s.unsetAlias.run({ id });
        this.#aliases.delete(id);
      }
      const queued = s.requeueFetched.run().changes + redirected.length;
      if (start.sitemaps === true) s.clearSitemapQueue.run();
      const generation = Number(s.beginRecheck.run({ now: this.#now(), runId: start.runId ?? null, queued }).lastInsertRowid);
      return { generation, isJoined: false, queued };
    });
  }

  protected dropLinksNow(fromUrlId: number): void {
    const s = this.#statements;
    this.#write(() => {
      s.untallyPageLinks.run({ id: fromUrlId });
      s.deletePageLinks.run({ id: fromUrlId });
    });
  }

  protected recordRunFindingsNow(runId: number, findings: readonly FindingIdentity[]): void {
    const s = this.#statements;
    this.#write(() => {
      s.deleteRunFindings.run({ runId });
      // The mark: this run's findings were kept, even when there are none (readRunFindings).
      s.insertRunFinding.run({ runId, code: '', page: '', target: '', href: '' });
      for (const f of findings) s.insertRunFinding.run({ runId, code: f.code, page: f.page, target: f.target, href: f.href });
    });
  }

  protected recordArchivedNow(records: readonly ArchivedRecord[]): void {
    const s = this.#statements;
    this.#write(() => {
      for (const r of records) {
        s.insertArchived.run({
          runId: r.runId ?? this.#runId ?? null,
          uri: r.uri,
          key: resourceKeyOf(r.uri) ?? null,
          file: r.file,
          offset: r.offset,
          length: r.length,
          type: r.type,
          payloadDigest: r.payloadDigest ?? null,
          date: r.date.getTime(),
          status: r.status ?? null,
        });
      }
    });
  }

  protected archivedRecordsNow(uri: string): ArchivedRecord[] {
    return readingIndex(fileOf(this.#db), () => {
      const key = resourceKeyOf(uri);
      const rows = key === undefined ? this.#statements.archivedByUri.all({ uri }) : this.#statements.archivedByKey.all({ key });
      return (rows as ArchivedColumns[]).map(toArchivedRecord);
    });
  }

  protected archivedPayloadNow(digest: string): ArchivedRecord | undefined {
    return readingIndex(fileOf(this.#db), () => {
      const row = this.#statements.archivedPayload.get({ digest }) as ArchivedColumns | undefined;
      return row === undefined ? undefined : toArchivedRecord(row);
    });
  }

  protected admitNow(batch: readonly AdmitEntry[]): AdmitResult[] {
    return this.#write(() => {
      const results = batch.map((entry) => this.#admitter.admit(entry));
      this.#links.flush();
      this.units.addLinks(batch.length);
      return results;
    });
  }

  // Read the shallowest queued URLs, then mark each: one UPDATE … WHERE id IN (SELECT …
  // LIMIT n) costs 20x as much once the frontier has churned (measured), and the unit
  // makes the two steps one.
  // Hosts take turns (claim-turns.ts); the shallowest URLs, when each is the first of
  // its host at its depth, are already in turn order, and the turns are dealt only when
  // they are not (dealing them reads the whole window: 20x the plain read, measured).
  protected claimNow(limit: number): ClaimedUrl[] {
    const s = this.#statements;
    type Row = { id: number; key: string; depth: number; host: string | null; role: UrlRole | null };
    return this.#write(() => {
      let rows = s.nextQueued.all({ limit }) as Row[];
      if (new Set(rows.map((r) => `${r.depth} ${r.host ?? ''}`)).size < rows.length) rows = s.nextQueuedInTurns.all({ limit }) as Row[];
      return rows.map((r) => {
        s.markFetching.run({ id: r.id });
        return { id: r.id, key: r.key, depth: r.depth, host: r.host ?? undefined, role: r.role ?? 'page' };
      });
    });
  }

  protected recordFetchNow(record: FetchRecord): void {
    const s = this.#statements;
    this.#write(() => {
      this.#requireUrl(record.urlId);
      const fetchId = Number(
        s.insertFetch.run({
          urlId: record.urlId,
          startedAt: record.startedAt,
          durationMs: record.durationMs ?? null,
          status: record.status ?? null,
          contentType: record.contentType ?? null,
          bytes: record.bytes ?? null,
          errorCode: record.errorCode ?? null,
          finalUrl: record.finalUrl ?? null,
          attempts: record.attempts ?? 1,
          findings: jsonList(record.findings),
          anchors: jsonList(record.anchors),
          representsUrlId: record.representsUrlId ?? null,
          etag: record.etag ?? null,
          lastModified: record.lastModified ?? null,
          notModified: record.isNotModified === true ? 1 : 0,
          method: record.method ?? null,
          digest: record.digest ?? null,
          verdict: record.verdict ?? null,
          protocol: record.protocol ?? null,
        }).lastInsertRowid,
      );
      (record.redirects ?? []).forEach((hop, index) =>
        s.insertRedirect.run({ fetchId, hop: index, from: hop.from, to: hop.to ?? null, status: hop.status }),
      );
      s.setFetched.run({ id: record.urlId, state: record.outcome });
    });
  }

  protected addAliasNow(record: AliasRecord): void {
    const s = this.#statements;
    const makesAlias = isAliasMaking(record.evidence) && record.fromId !== record.toId;
    this.#write(() => {
      this.#requireUrl(record.fromId);
      this.#requireUrl(record.toId);
      s.putAlias.run({ ...record, detail: record.detail ?? null, createdAt: this.#now() });
      if (makesAlias) s.setAlias.run({ id: record.fromId, to: record.toId });
      if (makesAlias) this.#aliases.set(record.fromId, record.toId);
    });
  }

  protected revokeAliasNow(fromId: number): void {
    const s = this.#statements;
    this.#write(() => {
      this.#requireUrl(fromId);
      s.deleteProvingAliases.run({ id: fromId });
      s.unsetAlias.run({ id: fromId });
      this.#aliases.delete(fromId);
    });
  }

  protected requeueNow(id: number): void {
    this.#write(() => {
      this.#requireUrl(id);
      this.#statements.requeue.run({ id });
    });
  }

  protected getUrlNow(id: number): UrlRecord | undefined {
    return readingIndex(fileOf(this.#db), () => this.#getUrl(id));
  }

  #getUrl(id: number): UrlRecord | undefined {
    const row = this.#statements.getUrl.get({ id }) as UrlColumns | undefined;
    return row === undefined ? undefined : toUrlRecord(row);
  }

  protected findUrlNow(uri: string): UrlRecord | undefined {
    return readingIndex(fileOf(this.#db), () => this.#findUrl(uri));
  }

  #findUrl(uri: string): UrlRecord | undefined {
    const parsed = parseUriReference(uri);
    if (!parsed.ok || parsed.value.scheme === undefined) return undefined;
    if (!this.#db.inTransaction) this.#catchUpWithOtherWriters();
    const id = this.#getKeys().urlId(resourceKey(parsed.value));
    return id === undefined ? undefined : this.#getUrl(id);
  }

  protected historyNow(id: number): UrlHistory | undefined {
    return readingIndex(fileOf(this.#db), () => this.#history(id));
  }

  #history(id: number): UrlHistory | undefined {
    const s = this.#statements;
    const row = s.getUrl.get({ id }) as UrlColumns | undefined;
    if (row === undefined) return undefined;
    const first = toFirstLink(row);
    const firstElement =
      first?.fromUrlId === undefined ? undefined : (s.firstLinkElement.get({ from: first.fromUrlId, id }) as { element: string | null; attribute: string | null } | undefined);
    return {
      url: toUrlRecord(row),
      firstLink:
        first === undefined || firstElement === undefined
          ? first
          : { ...first, element: firstElement.element ?? undefined, attribute: firstElement.attribute ?? undefined },
      fetches: (s.fetchesOf.all({ id }) as FetchColumns[]).map(toFetchRow),
      aliasesFrom: (s.aliasesFrom.all({ id }) as AliasColumns[]).map(toAliasRow),
      aliasesTo: (s.aliasesTo.all({ id }) as AliasColumns[]).map(toAliasRow),
    };
  }

  // RFC 9309 §2.4: robots.txt answers kept across runs (a row is read back as untrusted input by the policy).
  #robotsCache(): RobotsCache {
    return {
      get: (origin) => {
        const entry = this.#statements.getRobots.get({ origin }) as string | undefined;
        return entry === undefined ? undefined : (parseStoredJson(entry, 'robots.entry', isObject) as unknown as RobotsCacheEntry);
      },
      set: (origin, entry) =>
        this.units.run(() => {
          this.#write(() => this.#statements.putRobots.run({ origin, fetchedAt: entry.fetchedAt, entry: JSON.stringify(entry) }));
        }),
    };
  }

  /** Read the index for reports, on this store's connection. */
  reader(): IndexReader {
    return new SqliteIndexReader(this.#db, () => {});
  }

  /**
   * `PRAGMA integrity_check`, plus what the schema does not enforce: that no key
   * and no spelling is stored twice (migration 002 dropped their UNIQUE indexes;
   * see docs/deviations.md). 'ok' or the problems found.
   */
  integrityCheck(): string {
    const problems = (this.#db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).filter((r) => r !== 'ok');
    for (const [table, column] of [['url', 'key'], ['form', 'text']] as const) {
      const twice = this.#db.prepare(`SELECT ${column} FROM ${table} GROUP BY ${column} HAVING count(*) > 1 LIMIT 5`).pluck().all() as string[];
      for (const text of twice) problems.push(`${table}.${column} stored twice: ${text}`);
    }
    return problems.length === 0 ? 'ok' : problems.join('\n');
  }

  /** Close without committing what the open group holds (UnitStore#close commits it first). */
  protected closeNow(): void {
    if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    this.#lock?.release();
    if (this.#db.open) this.#db.close();
  }

  // Inside a unit, which is rolled back as a whole when this throws.
  #write<T>(work: () => T): T {
    return this.inUnit(work);
  }

  #forgetMemory(): void {
    this.#keys = undefined;
    this.#followedRoles = new Uint8Array(0);
    this.#links.discard();
    this.#admitter.forget();
    this.#loadAliases();
  }

  // Units in savepoints of one IMMEDIATE transaction per group (write-units.ts).
  protected transactionSteps(): TransactionSteps {
    const db = this.#db;
    const [begin, savepoint, release, rollbackTo, commit] = [
      'BEGIN IMMEDIATE',
      'SAVEPOINT unit',
      'RELEASE unit',
      'ROLLBACK TO unit',
      'COMMIT',
    ].map((sql) => db.prepare(sql));
    return {
      begin: () => {
        begin!.run();
        this.#catchUpWithOtherWriters();
      },
      savepoint: () => savepoint!.run(),
      release: () => release!.run(),
      rollbackUnit: () => {
        rollbackTo!.run();
        release!.run();
        this.#forgetMemory();
      },
      commit: () => commit!.run(),
      rollbackGroup: () => {
        if (db.inTransaction) db.exec('ROLLBACK');
        this.#forgetMemory();
      },
    };
  }

  #readDataVersion(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  // PRAGMA data_version changes when another connection commits: read what it
  // wrote before relying on memory (one writer at a time holds the write lock).
  #catchUpWithOtherWriters(): void {
    const version = this.#readDataVersion();
    if (version === this.#dataVersion) return;
    this.#dataVersion = version;
    // Another writer may have raised a role.
    this.#followedRoles = new Uint8Array(0);
    if (this.#keys !== undefined) this.#loadKeys(this.#keys);
    this.#loadAliases();
    this.#admitter.forget();
  }

  #loadAliases(): void {
    this.#aliases.clear();
    for (const row of this.#statements.selectAliases.all() as { id: number; alias_of: number }[]) this.#aliases.set(row.id, row.alias_of);
  }

  // Built on first use, so that opening a database to inspect it costs nothing.
  #getKeys(): KeyMirror {
    if (this.#keys === undefined) {
      const counts = this.#statements.countKeys.get() as { urls: number; forms: number };
      this.#keys = new KeyMirror(counts.urls, counts.forms);
      this.#loadKeys(this.#keys);
    }
    return this.#keys;
  }

  // The rows after the last ones the mirror holds (all of them, for a new one).
  #loadKeys(keys: KeyMirror): void {
    const s = this.#statements;
    for (const [id, key, isSkipped] of s.urlKeysAfter.iterate({ id: keys.lastUrlId }) as Iterable<[number, string, number]>) {
      keys.addUrl(key, id, isSkipped === 1);
    }
    for (const [id, text, urlId, isSeen] of s.formTextsAfter.iterate({ id: keys.lastFormId }) as Iterable<[number, string, number, number]>) {
      keys.addForm(text, id, urlId, isSeen === 1);
    }
  }

  #standing(id: number): Standing | undefined {
    const keys = this.#getKeys();
    if (!Number.isInteger(id) || id < 1 || id > keys.lastUrlId) return undefined; // url rows are never deleted
    if (!keys.mayBeSkipped(id)) return FOLLOWED_PAGE;
    const known = this.#followedRoles[id];
    if (known !== undefined && known > 0) return FOLLOWED[known]!;
    const row = this.#statements.urlStanding.get({ id }) as { state: UrlState; role: UrlRole | null } | undefined;
    if (row === undefined) return undefined;
    const standing: Standing = { isSkipped: row.state === 'skipped', role: row.role ?? 'page' };
    if (!standing.isSkipped && standing.role === 'page') keys.notSkipped(id);
    else if (!standing.isSkipped) this.#rememberFollowed(id, standing.role);
    return standing;
  }

  #rememberFollowed(id: number, role: UrlRole): void {
    if (id >= this.#followedRoles.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.#followedRoles.length * 2, 1024));
      grown.set(this.#followedRoles);
      this.#followedRoles = grown;
    }
    this.#followedRoles[id] = URL_ROLES.indexOf(role) + 1;
  }

  #backend(): IndexBackend {
    const s = this.#statements;
    return {
      findForm: (text) => this.#getKeys().findForm(text),
      putForm: (text, urlId, rung) => {
        const keys = this.#getKeys();
        const existing = keys.findForm(text);
        if (existing !== undefined) {
          if (rung === 'string' && existing.rung === 'syntax') {
            s.formSeenAsWritten.run({ id: existing.formId });
            keys.markSeen(existing.formId);
          }
          return;
        }
        const id = Number(s.insertForm.run(text, urlId, rung).lastInsertRowid);
        keys.addForm(text, id, urlId, rung === 'string');
      },
      findUrlByKey: (key) => this.#getKeys().urlId(key),
      standing: (id) => this.#standing(id),
      insertUrl: (url: NewUrl) => {
        const keys = this.#getKeys();
        const id = Number(
          s.insertUrl.run(url.key, url.scheme, url.host ?? null, url.state, url.depth, url.firstSeen, url.firstFrom ?? null, url.firstHref, url.role)
            .lastInsertRowid,
        );
        keys.addUrl(url.key, id, url.state === 'skipped' || url.role !== 'page');
        return id;
      },
      followSkipped: (id, depth, role) => s.followSkipped.run({ id, depth, role }).changes > 0,
      raiseRole: (id, role) => {
        s.raiseRole.run({ id, role });
        if (id < this.#followedRoles.length) this.#followedRoles[id] = 0;
      },
      insertLink: (link) => this.#links.add(link),
      aliasTarget: (id) => this.#aliases.get(id),
    };
  }

  #requireUrl(id: number): void {
    // URL rows are never deleted: an id up to the last one the key mirror holds exists
    // (a fetch row is written for every response: this saves a read per page).
    const keys = this.#keys;
    if (keys !== undefined && Number.isInteger(id) && id >= 1 && id <= keys.lastUrlId) return;
    if (this.#statements.urlState.get({ id }) === undefined) {
      throw new StoreError('ERR_STORE_NOT_FOUND', `no URL with id ${id} in the index`);
    }
  }
}

/**
 * Open an existing index read-only to read it for reports: it is never written,
 * migrated or created (ERR_STORE_OPEN, ERR_STORE_NOT_INDEX, ERR_STORE_OUTDATED,
 * ERR_STORE_CORRUPT). Closing the reader closes the file.
 */
export function openIndexReader(file: string, options?: Pick<SqliteStoreOptions, 'migrationsDir'>): IndexReader {
  const store = new SqliteStore({ path: file, readOnly: true, ...options });
  const reader = store.reader();
  return Object.assign(reader, { close: () => store.close() });
}

/**
 * Remove the writer lock of the index at `file` (it must exist), as `linkladder db
 * unlock` does after a machine crashed while it wrote: returns whose it was
 * (`undefined`: none). A lock of a running process of this host is kept (ERR_STORE_LOCKED).
 */
export function unlockIndex(file: string, options?: Pick<SqliteStoreOptions, 'migrationsDir'>): WriterLockHolder | undefined {
  const migrations = loadMigrations(options?.migrationsDir ?? defaultMigrationsDir());
  const { db } = openDatabase(file, migrations, Date.now, { mustExist: true });
  try {
    return readingIndex(file, () => WriterLock.remove(db, file));
  } finally {
    db.close();
  }
}
