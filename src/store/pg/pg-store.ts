// The IndexWriter on PostgreSQL: the index of one crawl shared by any
// number of cooperating workers. Every call is its own transaction (or a part of
// the one `transact` opens): what a worker wrote is committed when its call
// resolves, so another worker meets it. Admission is pg-admission.ts; claims,
// leases and politeness across workers are the frontier's.

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { StoreError } from '../../errors.js';
import type { RobotsCache, RobotsCacheEntry } from '../../fetch/index.js';
import { isAliasMaking, ladderForms, resourceKeyOf } from '../../ladder/index.js';
import { parseUriReference } from '../../uri/index.js';
import { asCorruption, isObject, parseStoredJson } from '../index-corruption.js';
import type { Migration } from '../migrations.js';
import { URL_COLUMNS, jsonList, toAliasRow, toFetchRow, toFirstLink, toUrlRecord, type AliasColumns, type FetchColumns, type UrlColumns } from '../row-codec.js';
import {
  type AdmitEntry,
  type AdmitResult,
  type AliasRecord,
  type ClaimedUrl,
  type CrawlRunEnd,
  type CrawlRunRow,
  type CrawlRunStart,
  type FetchRecord,
  type FindingIdentity,
  type IndexReader,
  type IndexWriter,
  type RecheckGeneration,
  type RecheckStart,
  type SharedFrontier,
  type SitemapQueueEntry,
  type SitemapQueueRow,
  type SitemapRecord,
  type SitemapSettlement,
  type StoreStats,
  type UrlHistory,
  type UrlRecord,
} from '../types.js';
import { KnownUrls, type LearnedFacts } from './known-urls.js';
import { admitBatch, UrlIdPool, type Executor, type RidingCheck } from './pg-admission.js';
import { checkUpToDate, connect, isConnectionLost, openFailure, pgErrorText, redactUrl, transaction, type Sql } from './pg-database.js';
import { PgFrontier } from './pg-frontier.js';
import { PgIndexReader } from './pg-reader.js';
import { migratePgIndex, partitionLayout, partitionName, type PartitionLayout } from './pg-partitions.js';
import { pipelinedTransaction, type Deferred } from './pipelined-unit.js';
import { ServerWait } from './server-wait.js';
import { PG_ALIAS_COLUMNS, PG_FETCH_COLUMNS, readPgRuns, readPgStats } from './pg-rows.js';
import { siteOf } from './site-hash.js';
import { ANY_LEFT_TO_FETCH_SQL, stateIn } from '../url-state-machine.js';
import { ARCHIVED_COLUMNS, toArchivedRecord, type ArchivedColumns, type ArchivedRecord } from '../archive-records.js';

export interface PgStoreOptions {
  /** `postgres://user@host:port/database`. */
  readonly url: string;
  /** The clock (Unix ms). @default Date.now */
  readonly now?: () => number;
  /** This worker's id (its claims, fetches and run carry it). @default host, pid and a random suffix */
  readonly workerId?: string;
  /**
   * How long a claim stays this worker's without renewal (renewed every leaseMs / 3, at
   * most a second apart): a worker that died holds its claims, and their host slots, this long.
   * @default 5000
   */
  readonly leaseMs?: number;
  /**
   * The clock every comparison between workers is made by, in Unix ms: leases, host
   * slots, request starts (tests that make a lease run out).
   * @default the database server's clock
   */
  readonly leaseClock?: (() => number) | undefined;
  /**
   * How long a call waits for the server to answer again when it went away (a restart),
   * asking with backoff; then the call fails, and so does every call after it.
   * @default 30000
   */
  readonly reconnectMs?: number;
  /** Read only: nothing is migrated or written (reports). @default false */
  readonly readOnly?: boolean;
  /** Connections in the pool. @default 4 */
  readonly maxConnections?: number;
  /**
   * The server is reached through a pooler in transaction mode (PgBouncer
   * `pool_mode = transaction`): no named prepared statements, no startup parameters it
   * refuses (pg-database.ts). @default false
   */
  readonly transactionPooling?: boolean;
  /** Folder of the PostgreSQL migrations. @default the package's migrations/postgresql/ */
  readonly migrationsDir?: string;
}

/**
 * A claim's lease: short, so that a worker that died keeps its host slots only seconds;
 * five missed renewals before it lapses (a live worker's late results would be refused).
 */
const DEFAULT_LEASE_MS = 5000;

// The states each operation moves a URL out of, from the URL state machine (url-state-machine.ts).
const RECORD_FETCH_FROM = stateIn('recordFetch');
const REVOKE_ALIAS_FROM = stateIn('revokeAlias');
const REQUEUE_FROM = stateIn('requeue');
// The aliases a re-check asks again (those a redirect made) are moved by their own statement.
const REQUEUE_FETCHED_FROM = stateIn('requeueFetched', { except: ['alias'] });

/**
 * How long a worker holds a sitemap it reads: a sitemap's fetch, robots.txt wait and
 * parse are bounded by the fetch timeout and the parse's caps, well within this.
 */
const SITEMAP_HOLD_MS = 120_000;

/** How long a call waits for a server that went away. */
const DEFAULT_RECONNECT_MS = 30_000;

/** The sites of the URLs a worker claimed last that it keeps (~100 bytes each). */
const SITES_KEPT = 65_536;
/** SQLSTATE division_by_zero: a unit's fetch row for a URL not in the index (recordFetch). */
const DIVISION_BY_ZERO = '22012';

/** Writer shards of link_tally: concurrent writers rarely share a row. */
const TALLY_SHARDS = 64;

/** What the views of one unit share (`transact`, its savepoints included). */
interface UnitState {
  readonly deferred: Deferred;
  /** The link_tally shard the unit's admissions write. */
  readonly shard: number;
  /** The unit's fetch row kept back (recordFetch), until its next statement. */
  keptFetch: KeptFetch | undefined;
  /** The unit's claim held (holdClaim), kept back until its next statement, or carried by its links' write (admit). */
  keptHold: KeptHold | undefined;
}

/** A claim held in a unit, not sent yet (holdClaim). */
interface KeptHold {
  /** Its check, as a batch's write carries it (pg-admission.ts). */
  readonly riding: RidingCheck;
  /** Has it back unsent (false once it was sent). */
  take: () => boolean;
  /** Sends it as a statement of its own. */
  readonly send: () => void;
  /** The claim is known held. */
  readonly held: () => void;
  /** The claim is known lost (`error`, the carrying statement's): the unit's error. */
  readonly lost: (error: unknown) => unknown;
}

/** What a claim not this worker's makes its check fail with, when a batch's write carries it (22P02). */
const CLAIM_LOST_TEXT = 'claim lost';

function isClaimLostText(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '22P02' && typeof e.message === 'string' && e.message.includes(`"${CLAIM_LOST_TEXT}"`);
}

/** A fetch row kept back in a unit: `take` has it back unsent (false once it was sent). */
interface KeptFetch {
  readonly record: FetchRecord;
  readonly site: number | undefined;
  take: () => boolean;
}

/** What every view of one store shares: the pool, the clock, the worker, the id pool. */
interface PgCore {
  readonly sql: Sql;
  readonly now: () => number;
  readonly workerId: string;
  readonly leaseMs: number;
  readonly shard: number;
  readonly ids: UrlIdPool;
  /** What this worker remembers of the index between batches (known-urls.ts). */
  readonly known: KnownUrls;
  /**
   * The site of each URL this worker claimed lately (the last SITES_KEPT): its
   * statements find the URL's rows by (site, id), which reads one partition of a
   * partitioned index. Kept past the URL's settlement: its unit reads it again after.
   */
  readonly sites: Map<number, number>;
  /** Offsets from `shard` held by this worker's open units: two of its units never write one link_tally row. */
  readonly unitShards: Set<number>;
  readonly url: string;
  /** Claims, leases and politeness across workers; started unless the store is read-only. */
  readonly frontier: PgFrontier;
  readonly isReadOnly: boolean;
  /** The server gone away: calls wait for it (server-wait.ts). */
  readonly server: ServerWait;
  /** close() was called: a second one does nothing. */
  isClosed: boolean;
  /** The run this worker started last: the run of the WARC records it is given without one. */
  runId: number | undefined;
  /** Claims taken with a unit's COMMIT, handed out by the next claim() (PgStore.transact). */
  readonly claimedAhead: ClaimedUrl[];
  /** How the large tables are partitioned by site (`db migrate --partitions`), as the store opened. */
  readonly partitions: PartitionLayout;
  /** URLs this worker claimed and has touched no more since (isClaimUntouched). */
  readonly untouched: Set<number>;
}

export class PgStore implements IndexWriter {
  readonly #core: PgCore;
  readonly #db: Executor;
  /** Whether this view runs inside a transaction (`transact`): admission then takes a savepoint. */
  readonly #isInTransaction: boolean;
  /** In a transaction: what its batches learned, remembered when it commits (known-urls.ts). */
  readonly #learned: LearnedFacts[] = [];
  /** In a unit (`transact`): what its views share, its writes sent without waiting for their answer among it (pipelined-unit.ts). */
  readonly #unit: UnitState | undefined;
  /** The link_tally shard this view's admissions write: its unit's own. */
  readonly #shard: number;
  /** In a unit: it settles a claim of this worker (`holdClaim`), and so frees a slot of the crawl. */
  #isSettlingClaim = false;
  /** In a unit: the answer of its claim held (`holdClaim`), sent without waiting; rejects when the claim is not this worker's. */
  #held: Promise<void> = Promise.resolve();
  readonly robotsCache: RobotsCache;
  /** The migrations this open applied (empty when the database was up to date). */
  readonly appliedMigrations: readonly Migration[];

  private constructor(core: PgCore, db: Executor, isInTransaction: boolean, applied: readonly Migration[], unit?: UnitState) {
    this.#core = core;
    this.#db = db;
    this.#isInTransaction = isInTransaction;
    this.#unit = unit;
    this.#shard = unit?.shard ?? core.shard;
    this.appliedMigrations = applied;
    this.robotsCache = this.#robots();
  }

  /** Connect, migrate (unless `readOnly`: then the index must be up to date), and open as a worker. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const now = options.now ?? Date.now;
    const sql = connect(options.url, {
      ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }),
      isGenericPlans: options.readOnly !== true,
      isTransactionPooling: options.transactionPooling === true,
    });
    let applied: Migration[] = [];
    let partitions: PartitionLayout = { count: 0, isNamed: false };
    try {
      if (options.readOnly === true) await checkUpToDate(sql, options.url, options.migrationsDir);
      else applied = await migratePgIndex(sql, now, options.migrationsDir);
      partitions = await partitionLayout(sql);
    } catch (error) {
      await sql.end({ timeout: 1 });
      if (error instanceof StoreError) throw error;
      throw openFailure(error, options.url);
    }
    const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const server = new ServerWait(sql, { reconnectMs: options.reconnectMs ?? DEFAULT_RECONNECT_MS, label: redactUrl(options.url) });
    const core: PgCore = {
      sql,
      now,
      workerId,
      leaseMs,
      shard: randomBytes(2).readUInt16BE() % TALLY_SHARDS,
      ids: new UrlIdPool(),
      known: new KnownUrls(),
      sites: new Map(),
      unitShards: new Set(),
      url: options.url,
      frontier: new PgFrontier(sql, { workerId, leaseMs, now, leaseClock: options.leaseClock, persist: (work) => server.run(work), isPartitioned: partitions.count > 0 }),
      isReadOnly: options.readOnly === true,
      server,
      isClosed: false,
      runId: undefined,
      claimedAhead: [],
      partitions,
      untouched: new Set(),
    };
    if (!core.isReadOnly) {
      try {
        await core.frontier.start();
      } catch (error) {
        await sql.end({ timeout: 1 });
        throw openFailure(error, options.url);
      }
    }
    return new PgStore(core, sql, false, applied);
  }

  /** The connection pool (for readers on the same database). */
  get sql(): Sql {
    return this.#core.sql;
  }

  get workerId(): string {
    return this.#core.workerId;
  }

  /**
   * The frontier shared by cooperating workers (pg-frontier.ts). Not idle while a claim
   * taken ahead (transact) waits to be handed out: the crawl claims again at once.
   */
  get shared(): SharedFrontier {
    const { frontier, claimedAhead } = this.#core;
    return {
      workerId: frontier.workerId,
      setPoliteness: (politeness) => frontier.setPoliteness(politeness),
      setHostDelay: (host, delayMs) => frontier.setHostDelay(host, delayMs),
      whenIdle: () => (claimedAhead.length > 0 ? Promise.resolve({ isOver: false, retryInMs: 0 }) : frontier.whenIdle()),
      reportProgress: (counts) => frontier.reportProgress(counts),
    };
  }

  /** Reports on this index, over the store's pool (closing the reader leaves the pool open). */
  reader(): IndexReader {
    return new PgIndexReader(this.#core.sql);
  }

  async admit(batch: readonly AdmitEntry[]): Promise<AdmitResult[]> {
    // In a transaction the batch's write takes a savepoint (pg-admission.ts), so that a lost race is retried.
    const core = this.#core;
    const learn = this.#isInTransaction ? (facts: LearnedFacts) => this.#learned.push(facts) : (facts: LearnedFacts) => core.known.learn(facts);
    // A unit's claim held and not sent yet rides in the batch's write (holdClaim).
    const unit = this.#unit;
    const hold = unit?.keptHold;
    if (unit !== undefined) unit.keptHold = undefined;
    const riding = hold !== undefined && hold.take() ? hold.riding : undefined;
    const options = { now: core.now, shard: this.#shard, ids: core.ids, known: core.known, learn, claimedSite: (id: number) => core.sites.get(id), riding, isPartitioned: core.partitions.count > 0 };
    return this.#writing(async () => {
      let isLost = false;
      try {
        return await admitBatch(this.#db, batch, options);
      } catch (error) {
        // The write that carried it was rolled back to its savepoint: the unit is not, and fails.
        if (riding !== undefined && !riding.isDone && isClaimLostText(error)) {
          isLost = true;
          const mapped = hold!.lost(error);
          unit!.deferred.fail(mapped);
          throw mapped;
        }
        throw error;
      } finally {
        if (riding?.isDone === true) hold!.held();
        // Not carried (nothing written, or a write that failed otherwise): sent before the unit's next statement.
        else if (riding !== undefined && !isLost) this.#keepHold(unit!, hold!);
      }
    });
  }

  /** Keep a unit's claim held back until its next statement, which sends it first unless it carries it (admit). */
  #keepHold(unit: UnitState, hold: KeptHold): void {
    hold.take = unit.deferred.keep(() => hold.send());
    unit.keptHold = hold;
  }

  // Shallowest first, on hosts with a free slot; SKIP LOCKED so that two workers never
  // take one URL; a claim whose lease ran out (a dead worker's) is taken again (pg-frontier.ts).
  // What a unit claimed with its COMMIT first (transact): that claim cost no round trip of its own.
  async claim(limit: number): Promise<ClaimedUrl[]> {
    const ahead = this.#core.claimedAhead.splice(0, Math.max(0, limit));
    const claimed = ahead.length === limit || limit <= 0 ? ahead : [...ahead, ...(await this.#writing(() => this.#core.frontier.claim(limit - ahead.length)))];
    const sites = this.#core.sites;
    for (const url of claimed) {
      this.#core.untouched.add(url.id);
      sites.delete(url.id);
      sites.set(url.id, siteOf(url.host));
    }
    // Oldest first (a Map keeps the order of insertion).
    for (const id of sites.keys()) {
      if (sites.size <= SITES_KEPT) break;
      sites.delete(id);
    }
    return ahead.length === 0 || claimed.length === ahead.length ? claimed : claimed.sort((a, b) => a.depth - b.depth || a.id - b.id);
  }

  // Forgotten by every write of this worker that may move the URL (made or not: a unit may roll back).
  isClaimUntouched(id: number): boolean {
    return this.#core.untouched.has(id);
  }

  #touch(id: number): void {
    this.#core.untouched.delete(id);
  }

  // In a unit the row is sent without waiting (pipelined-unit.ts): a URL not in the index
  // then fails the statement on the server (a division by zero of no rows), which rolls the unit back.
  // It is kept back until the unit's next statement: the run's counts, which come next
  // (recordRunCounts), ride in the same statement, one statement less a page.
  async recordFetch(record: FetchRecord): Promise<void> {
    this.#touch(record.urlId);
    const unit = this.#unit;
    if (unit !== undefined) {
      const site = this.#knownSite(record.urlId);
      const kept: KeptFetch = { record, site, take: () => false };
      kept.take = unit.deferred.keep(() => this.#sendFetch(kept));
      unit.keptFetch = kept;
      // Nothing after it counts what this unit records before the claim is known held.
      await this.#held;
      return;
    }
    const site = await this.#siteOf(record.urlId);
    if (site === undefined) throw notFound(record.urlId);
    const rows = await this.#writing(() => this.#recordFetchQuery(record, site, this.#db`id FROM f`));
    if (rows.length === 0) throw notFound(record.urlId);
  }

  /** Send a fetch row kept back in a unit, with the run's counts (`counts`, a WITH part) when they ride with it. */
  #sendFetch(kept: KeptFetch, counts?: ReturnType<Executor>): void {
    const id = kept.record.urlId;
    const query = this.#recordFetchQuery(kept.record, kept.site, this.#db`1 / (SELECT count(*)::integer FROM f) AS id`, counts);
    this.#unit!.deferred.send(query, undefined, (error) => ((error as { code?: unknown } | null)?.code === DIVISION_BY_ZERO ? notFound(id) : error));
  }

  // A statement about one site names the site's partition itself when the layout allows:
  // one that names the partitioned table locks every partition at each execution on
  // PostgreSQL 15, and an UPDATE of it sets up every partition to write.
  #tableOf(db: Executor, table: 'url' | 'fetch' | 'redirect', site: number | undefined): ReturnType<Executor> {
    const { count, isNamed } = this.#core.partitions;
    return db`${db.unsafe(`"${site !== undefined && isNamed ? partitionName(table, site, count) : table}"`)}`;
  }

  // The URL's site, when this worker knows it, finds its row in one partition; the fetch
  // row leads its key with the site read from that row.
  #recordFetchQuery(record: FetchRecord, site: number | undefined, returning: ReturnType<Executor>, also?: ReturnType<Executor>): ReturnType<Executor> {
    const hops = record.redirects ?? [];
    const ofSite = site === undefined ? this.#db`` : this.#db`site = ${site} AND`;
    const url = this.#tableOf(this.#db, 'url', site);
    return this.#db`
        WITH u AS (SELECT site FROM ${url} WHERE ${ofSite} id = ${record.urlId}),
        f AS (
          INSERT INTO ${this.#tableOf(this.#db, 'fetch', site)} (site, id, url_id, started_at, started_db, duration_ms, status, content_type, bytes, error_code, final_url, attempts,
            findings, anchors, represents_url_id, etag, last_modified, not_modified, method, worker, digest, verdict, protocol)
          SELECT u.site, nextval('fetch_id_seq'), ${record.urlId}, ${record.startedAt}, ${this.#core.frontier.sharedTimeOf(record.startedAt, this.#db)},
            ${record.durationMs ?? null}, ${record.status ?? null},
            ${record.contentType ?? null}, ${record.bytes ?? null}, ${record.errorCode ?? null}, ${record.finalUrl ?? null}, ${record.attempts ?? 1},
            ${jsonList(record.findings)}, ${jsonList(record.anchors)}, ${record.representsUrlId ?? null}, ${record.etag ?? null},
            ${record.lastModified ?? null}, ${record.isNotModified === true}, ${record.method ?? null}, ${this.#core.workerId},
            ${record.digest ?? null}, ${record.verdict ?? null}, ${record.protocol ?? null}
          FROM u
          RETURNING site, id
        ), r AS (
          INSERT INTO ${this.#tableOf(this.#db, 'redirect', site)} (site, fetch_id, hop, from_url, to_url, status)
          SELECT f.site, f.id, x.hop - 1, x.from_url, x.to_url, x.status
          FROM f, unnest(${hops.map((h) => h.from)}::text[], ${hops.map((h) => h.to ?? null) as string[]}::text[], ${hops.map((h) => h.status)}::integer[])
            WITH ORDINALITY AS x (from_url, to_url, status, hop)
        ), s AS (
          UPDATE ${url} SET state = CASE WHEN ${this.#db.unsafe(RECORD_FETCH_FROM)} THEN ${record.outcome} ELSE state END, claimed_by = NULL, lease_until = NULL
          WHERE ${ofSite} id = ${record.urlId}
        )${also === undefined ? this.#db`` : this.#db`, ${also}`}
        SELECT ${returning}`;
  }

  // The row stays locked until the unit commits: no claim takes it meanwhile (SKIP LOCKED).
  // A URL another unit made an alias while it was fetched keeps that (recordFetch does too).
  async holdClaim(id: number): Promise<boolean> {
    const site = await this.#siteOf(id);
    if (site === undefined) return false;
    this.#isSettlingClaim = true;
    const unit = this.#unit;
    if (unit !== undefined) {
      // In a unit the claim is held without waiting for the answer, and costs no statement
      // of its own when it can ride in the next: the page's links (admit), else it is sent
      // before the unit's next statement. Its row is then locked first, before the rows that
      // statement writes. A claim not this worker's fails the statement that carries it,
      // which aborts the unit: nothing of it is committed, and every wait of the unit after
      // it throws ERR_STORE_CLAIM_LOST, before the crawl counts what it records.
      let held: () => void = () => {};
      let lost: (error: unknown) => void = () => {};
      this.#held = new Promise<void>((resolve, reject) => ((held = resolve), (lost = reject)));
      this.#held.catch(() => {});
      // The unit's error: ERR_STORE_CLAIM_LOST when the statement that carried the check says the claim is lost.
      const lose = (error: unknown, isClaimLost: boolean): unknown => {
        const mapped = isClaimLost ? new StoreError('ERR_STORE_CLAIM_LOST', `URL id ${id} is not claimed by this worker any more: nothing of its unit was recorded`) : error;
        lost(mapped);
        return mapped;
      };
      // Alone, the check names the site's partition. Riding in an admission on a partitioned
      // index it goes through url_held, a branch a partition (migration 016): naming the
      // partition would make a statement of each admission's shape for each partition, and
      // naming url would lock every partition.
      const part = (db: Executor, isAlone = false): ReturnType<Executor> =>
        !isAlone && this.#core.partitions.count > 0
          ? db`held_claim AS (SELECT held_state AS state, held_by AS claimed_by, is_live FROM url_held(${site}, ${id}, ${this.#core.frontier.leaseNow(db)}))`
          : db`held_claim AS (SELECT state, claimed_by, lease_until >= ${this.#core.frontier.leaseNow(db)} AS is_live FROM ${this.#tableOf(db, 'url', isAlone ? site : undefined)} WHERE site = ${site} AND id = ${id} FOR UPDATE)`;
      const holding = (db: Executor): ReturnType<Executor> =>
        db`(SELECT count(*)::integer FROM held_claim WHERE state = 'alias' OR (state = 'fetching' AND claimed_by = ${this.#core.workerId} AND is_live))`;
      const hold: KeptHold = {
        riding: {
          part: (db) => part(db),
          // Not a division by zero: the admission takes that for a race it lost, and tries again.
          check: (db) => db`(CASE WHEN ${holding(db)} = 1 THEN '1' ELSE ${CLAIM_LOST_TEXT} END)::integer`,
          isDone: false,
        },
        take: () => false,
        held,
        lost: (error) => lose(error, isClaimLostText(error)),
        send: () =>
          unit.deferred.send(this.#db`WITH ${part(this.#db, true)} SELECT 1 / ${holding(this.#db)} AS held`, () => held(), (error) =>
            lose(error, (error as { code?: unknown } | null)?.code === DIVISION_BY_ZERO),
          ),
      };
      this.#keepHold(unit, hold);
      return true;
    }
    const [row] = await this.#writing(
      () =>
        this.#db`SELECT state, claimed_by, lease_until >= ${this.#core.frontier.leaseNow(this.#db)} AS is_live FROM ${this.#tableOf(this.#db, 'url', site)} WHERE site = ${site} AND id = ${id} FOR UPDATE`,
    );
    if (row === undefined) return false;
    return row.state === 'alias' || (row.state === 'fetching' && row.claimed_by === this.#core.workerId && row.is_live === true);
  }

  async addAlias(record: AliasRecord): Promise<void> {
    const makesAlias = isAliasMaking(record.evidence) && record.fromId !== record.toId;
    this.#touch(record.fromId);
    await this.#inTransaction(async (db) => {
      const [site, toSite] = [await this.#siteOf(record.fromId, db), await this.#siteOf(record.toId, db)];
      if (site === undefined) throw notFound(record.fromId);
      if (toSite === undefined) throw notFound(record.toId);
      const rows = await db`SELECT id FROM url WHERE (site = ${site} AND id = ${record.fromId}) OR (site = ${toSite} AND id = ${record.toId})`;
      for (const id of [record.fromId, record.toId]) if (!rows.some((r) => r.id === id)) throw notFound(id);
      await db`
        INSERT INTO alias (site, from_id, evidence, to_id, detail, created_at)
        VALUES (${site}, ${record.fromId}, ${record.evidence}, ${record.toId}, ${record.detail ?? null}, ${this.#core.now()})
        ON CONFLICT (site, from_id, evidence) DO UPDATE SET to_id = excluded.to_id, detail = excluded.detail, created_at = excluded.created_at, seq = nextval('alias_seq_seq')`;
      if (makesAlias) {
        await db`UPDATE url SET state = 'alias', alias_of = ${record.toId}, claimed_by = NULL, lease_until = NULL WHERE site = ${site} AND id = ${record.fromId}`;
      }
    });
  }

  async revokeAlias(fromId: number): Promise<void> {
    this.#touch(fromId);
    await this.#inTransaction(async (db) => {
      const site = await this.#siteOf(fromId, db);
      if (site === undefined) throw notFound(fromId);
      await db`DELETE FROM alias WHERE site = ${site} AND from_id = ${fromId} AND evidence <> 'canonical'`;
      await db`UPDATE url SET state = 'queued', alias_of = NULL WHERE site = ${site} AND id = ${fromId} AND ${db.unsafe(REVOKE_ALIAS_FROM)}`;
    });
  }

  async requeue(id: number): Promise<void> {
    const site = await this.#siteOf(id);
    if (site === undefined) throw notFound(id);
    this.#touch(id);
    const rows = await this.#writing(
      () => this.#db`
        WITH u AS (SELECT id FROM url WHERE site = ${site} AND id = ${id}),
        s AS (UPDATE url SET state = CASE WHEN ${this.#db.unsafe(REQUEUE_FROM)} THEN 'queued' ELSE state END, claimed_by = NULL, lease_until = NULL WHERE site = ${site} AND id = ${id})
        SELECT id FROM u`,
    );
    if (rows.length === 0) throw notFound(id);
  }

  // A URL whose site this worker knows (one it claimed: a page asks for its own row) is
  // read by (site, id), and the page that first linked to it looked for on the same site
  // first (most links stay on their host), by id only when it is on another; a prepared
  // statement, planned once.
  async getUrl(id: number): Promise<UrlRecord | undefined> {
    const site = this.#knownSite(id);
    const [row] = await this.#reading(() =>
      site === undefined
        ? this.#db.unsafe(`SELECT ${URL_COLUMNS} FROM url AS u WHERE u.id = $1`, [id], { prepare: true })
        : this.#db`SELECT ${this.#db.unsafe(URL_COLUMNS_OF_SITE)} FROM url AS u
            LEFT JOIN LATERAL (SELECT f.key FROM url AS f WHERE f.site = ${site} AND f.id = u.first_from) AS same ON true
            WHERE u.site = ${site} AND u.id = ${id}`,
    );
    return row === undefined ? undefined : toUrlRecord(row as unknown as UrlColumns);
  }

  async findUrl(uri: string): Promise<UrlRecord | undefined> {
    const parsed = parseUriReference(uri);
    if (!parsed.ok || parsed.value.scheme === undefined) return undefined;
    const forms = ladderForms(parsed.value as Parameters<typeof ladderForms>[0]);
    const [row] = await this.#reading(() =>
      this.#db.unsafe(`SELECT ${URL_COLUMNS} FROM url AS u WHERE u.site = $1 AND u.key = $2`, [siteOf(forms.host), forms.key], { prepare: true }),
    );
    return row === undefined ? undefined : toUrlRecord(row as unknown as UrlColumns);
  }

  // What the admissions of a transaction learned is remembered when it commits (of a
  // savepoint: passed to the enclosing transaction when the savepoint is released).
  async transact<T>(work: (tx: IndexWriter) => Promise<T>): Promise<T> {
    if (this.#isInTransaction) {
      const tx = this.#db as unknown as { savepoint<R>(work: (sp: Executor) => Promise<R>): Promise<R> };
      let inner: PgStore | undefined;
      const result = await tx.savepoint((sp) => work((inner = new PgStore(this.#core, sp, true, [], this.#unit))));
      if (inner !== undefined) this.#learned.push(...inner.#learned);
      return result;
    }
    // Made again when the server went away before `work` began; a unit cut once it began
    // is rolled back, and its caller told so (ERR_STORE_CONNECTION_LOST) once the server is back.
    // Pipelined (pipelined-unit.ts), on a link_tally shard no other open unit of this worker writes.
    let inner: PgStore | undefined;
    let hasBegun = false;
    const offset = takeUnitShard(this.#core.unitShards);
    try {
      const shard = (this.#core.shard + offset) % TALLY_SHARDS;
      const result = await this.#writing(
        () =>
          pipelinedTransaction(
            this.#core.sql,
            (tx, deferred) => {
              hasBegun = true;
              return work((inner = new PgStore(this.#core, tx as unknown as Executor, true, [], { deferred, shard, keptFetch: undefined, keptHold: undefined })));
            },
            (tx) => this.#claimAhead(tx, inner),
          ),
        () => !hasBegun,
      );
      if (inner !== undefined) for (const facts of inner.#learned) this.#core.known.learn(facts);
      return result;
    } catch (error) {
      if (hasBegun && isConnectionLost(error) && !this.#core.server.isGivenUp) {
        throw new StoreError('ERR_STORE_CONNECTION_LOST', `the connection to ${redactUrl(this.#core.url)} was lost while a unit was written: it was rolled back`, { cause: error });
      }
      throw error;
    } finally {
      this.#core.unitShards.delete(offset);
    }
  }

  // A unit that settled a claim frees a slot of the crawl, which claims again as soon as it
  // resolves: that claim is taken now, sent with the unit's COMMIT, so that the next page's
  // claim costs no round trip of its own (one at a time: a claim ahead holds a host slot).
  // Claims not handed out go back to the frontier when the store closes (or lapse with a kill).
  async #claimAhead(tx: Sql, unit: PgStore | undefined): Promise<void> {
    const core = this.#core;
    if (unit === undefined || !unit.#isSettlingClaim || core.claimedAhead.length > 0 || core.isClosed || core.isReadOnly) return;
    try {
      core.claimedAhead.push(...(await core.frontier.on(tx).claim(1)));
    } catch {
      // The unit is committed; the next claim() asks on its own.
    }
  }

  /** Every call is committed when it resolves: nothing waits. */
  async flush(): Promise<void> {}

  async stats(): Promise<StoreStats> {
    return this.#reading(() => readPgStats(this.#db));
  }

  async history(id: number): Promise<UrlHistory | undefined> {
    return this.#reading(async () => {
      const db = this.#db;
      // The URL found by its id once: its rows are then read by its site.
      const known = this.#knownSite(id);
      const [row] = (await (known === undefined
        ? db.unsafe(`SELECT ${URL_COLUMNS}, u.site FROM url AS u WHERE u.id = $1`, [id])
        : db.unsafe(`SELECT ${URL_COLUMNS}, u.site FROM url AS u WHERE u.site = $1 AND u.id = $2`, [known, id]))) as unknown as (UrlColumns & { site: number })[];
      if (row === undefined) return undefined;
      const site = row.site;
      const first = toFirstLink(row);
      const fromSite = first?.fromUrlId === undefined ? undefined : await this.#siteOf(first.fromUrlId, db);
      const [element] =
        first?.fromUrlId === undefined || fromSite === undefined
          ? []
          : await db`
              SELECT CASE p.format WHEN 1 THEN j.v ->> 3 ELSE j.v ->> 2 END AS element, CASE p.format WHEN 1 THEN j.v ->> 4 ELSE j.v ->> 3 END AS attribute
              FROM page_link AS p, jsonb_array_elements(p.links::jsonb) WITH ORDINALITY AS j (v, n)
              WHERE p.site = ${fromSite} AND p.from_url = ${first.fromUrlId}
                AND ((j.v ->> 0)::bigint = ${id} OR coalesce(CASE p.format WHEN 1 THEN j.v ->> 11 ELSE j.v ->> 13 END, j.v ->> 0)::bigint = ${id})
              ORDER BY p.first_position + (j.n - 1) LIMIT 1`;
      const fetches = (await db.unsafe(`SELECT ${PG_FETCH_COLUMNS} FROM "fetch" AS f WHERE f.site = $1 AND f.url_id = $2 ORDER BY f.id`, [site, id])) as unknown as FetchColumns[];
      const from = (await db.unsafe(`SELECT ${PG_ALIAS_COLUMNS} FROM alias AS a WHERE a.site = $1 AND a.from_id = $2 ORDER BY a.created_at, a.seq`, [site, id])) as unknown as AliasColumns[];
      const to = (await db.unsafe(`SELECT ${PG_ALIAS_COLUMNS} FROM alias AS a WHERE a.to_id = $1 ORDER BY a.created_at, a.seq`, [id])) as unknown as AliasColumns[];
      return {
        url: toUrlRecord(row),
        firstLink:
          first === undefined || element === undefined
            ? first
            : { ...first, element: (element.element as string | null) ?? undefined, attribute: (element.attribute as string | null) ?? undefined },
        fetches: fetches.map(toFetchRow),
        aliasesFrom: from.map(toAliasRow),
        aliasesTo: to.map(toAliasRow),
      };
    });
  }

  async startRun(run: CrawlRunStart): Promise<number> {
    // A re-check with nothing left to fetch is finished: what this run queues is not its.
    const [row] = await this.#writing(
      () => this.#db`
        WITH settled AS (UPDATE recheck_generation SET settled_at = ${this.#core.now()} WHERE settled_at IS NULL AND NOT (${this.#db.unsafe(ANY_LEFT_TO_FETCH_SQL)}))
        INSERT INTO crawl_run (started_at, seeds, settings, worker)
        VALUES (${run.startedAt}, ${JSON.stringify(run.seeds)}, ${JSON.stringify(run.settings)}, ${this.#core.workerId}) RETURNING id`,
    );
    this.#core.runId = row!.id as number;
    return this.#core.runId;
  }

  async endRun(id: number, end: CrawlRunEnd): Promise<void> {
    await this.#writing(
      () => this.#db`UPDATE crawl_run SET ended_at = ${end.endedAt}, stopped_by = ${end.stoppedBy}, outcome = ${end.outcome ?? null},
        counts = ${JSON.stringify(end.counts)} WHERE id = ${id}`,
    );
  }

  // In a unit, sent with its COMMIT (pipelined-unit.ts): the run's row is locked only while the server runs them.
  // The unit's fetch row kept back (recordFetch) takes them into its statement (a WITH part).
  async recordRunCounts(id: number, counts: Readonly<Record<string, unknown>>): Promise<void> {
    // Made only once the fetch row is taken back: a statement made in a unit first sends what the unit kept back.
    const update = (): ReturnType<Executor> => this.#db`UPDATE crawl_run SET counts = ${JSON.stringify(counts)} WHERE id = ${id} AND ended_at IS NULL`;
    const unit = this.#unit;
    if (unit === undefined) return void (await this.#writing(update));
    const kept = unit.keptFetch;
    unit.keptFetch = undefined;
    if (kept !== undefined && kept.take()) this.#sendFetch(kept, this.#db`c AS (${update()})`);
    else unit.deferred.send(update());
    await this.#held;
  }

  async runs(): Promise<readonly CrawlRunRow[]> {
    return this.#reading(() => readPgRuns(this.#db));
  }

  async recordSitemap(record: SitemapRecord, settlement?: SitemapSettlement): Promise<number> {
    const entries = record.entries;
    return this.#inTransaction(async (db) => {
      const [row] = await db`
        WITH s AS (
          INSERT INTO sitemap (run_id, url, source, parent_id, fetched_at, status, error_code, kind, findings)
          VALUES (${record.runId ?? null}, ${record.url}, ${record.source}, ${record.parentId ?? null}, ${record.fetchedAt}, ${record.status ?? null},
            ${record.errorCode ?? null}, ${record.kind ?? null}, ${record.findings.length === 0 ? null : JSON.stringify(record.findings)})
          RETURNING id
        ), e AS (
          INSERT INTO sitemap_entry (sitemap_id, position, url_id, loc, lastmod, line)
          SELECT s.id, x.position - 1, x.url_id, x.loc, x.lastmod, x.line
          FROM s, unnest(${entries.map((e) => e.urlId ?? null) as number[]}::bigint[], ${entries.map((e) => e.loc)}::text[],
            ${entries.map((e) => e.lastmod ?? null) as string[]}::text[], ${entries.map((e) => e.line ?? null) as number[]}::integer[])
            WITH ORDINALITY AS x (url_id, loc, lastmod, line, position)
        )
        SELECT id FROM s`;
      const id = row!.id as number;
      if (settlement !== undefined) {
        await db`UPDATE sitemap_queue SET state = ${settlement.state}, lease_until = NULL WHERE key = ${settlement.key} AND state = 'queued'`;
        await queueSitemapRows(db, settlement.children.map((child) => ({ ...child, parentId: id })));
      }
      return id;
    });
  }

  async queueSitemaps(entries: readonly SitemapQueueEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#writing(() => queueSitemapRows(this.#db, entries));
  }

  async sitemapQueue(origin: string): Promise<SitemapQueueRow[]> {
    const rows = await this.#reading(() => this.#db`SELECT key, origin, url, source, parent_id, state FROM sitemap_queue WHERE origin = ${origin} ORDER BY id`);
    return rows.map((r) => ({
      key: r.key as string,
      origin: r.origin as string,
      url: r.url as string,
      source: r.source as SitemapQueueRow['source'],
      parentId: r.parent_id === null ? undefined : Number(r.parent_id),
      state: r.state as SitemapQueueRow['state'],
    }));
  }

  // Held for a lease, as a claimed URL is: a dead worker's hold runs out and another worker takes the sitemap.
  // Judged by the database's clock, as claims are. The hold is not renewed while the sitemap is read, so it
  // lasts as long as the longest read may (SITEMAP_HOLD_MS), not the short renewed lease of a claim.
  async takeSitemap(key: string): Promise<boolean> {
    const holdMs = Math.max(this.#core.leaseMs, SITEMAP_HOLD_MS);
    const rows = await this.#writing(() => {
      const now = this.#core.frontier.leaseNow(this.#db);
      return this.#db`UPDATE sitemap_queue SET lease_until = ${now} + ${holdMs}::bigint
        WHERE key = ${key} AND state = 'queued' AND (lease_until IS NULL OR lease_until < ${now}) RETURNING 1`;
    });
    return rows.length > 0;
  }

  async releaseSitemap(key: string): Promise<void> {
    await this.#writing(() => this.#db`UPDATE sitemap_queue SET lease_until = NULL WHERE key = ${key} AND state = 'queued'`);
  }

  async clearSitemapQueue(): Promise<void> {
    await this.#writing(() => this.#db`DELETE FROM sitemap_queue`);
  }

  async requeueFetched(start: RecheckStart = {}): Promise<RecheckGeneration> {
    this.#core.untouched.clear();
    return this.#inTransaction(async (db) => {
      // One worker decides at a time: one that starts while another begins a re-check
      // waits for it to commit, then joins it (this lock conflicts with itself and with
      // startRun's settling, not with the crawl's reads and writes).
      await db`LOCK TABLE recheck_generation IN SHARE ROW EXCLUSIVE MODE`;
      const [open] = await db`SELECT generation, (${db.unsafe(ANY_LEFT_TO_FETCH_SQL)}) AS is_left FROM recheck_generation WHERE settled_at IS NULL ORDER BY generation DESC LIMIT 1`;
      if (open !== undefined && open.is_left === true) return { generation: open.generation as number, isJoined: true, queued: 0 };
      await db`UPDATE recheck_generation SET settled_at = ${this.#core.now()} WHERE settled_at IS NULL`;
      const fetched = await db`UPDATE url SET state = 'queued' WHERE ${db.unsafe(REQUEUE_FETCHED_FROM)} RETURNING 1`;
      // A URL that answered a redirect is asked again too: it may lead elsewhere now, or nowhere.
      const redirected = await db`
        WITH r AS (SELECT u.site, u.id FROM url AS u WHERE u.state = 'alias' AND EXISTS (SELECT 1 FROM alias AS a WHERE a.site = u.site AND a.from_id = u.id AND a.evidence = 'redirect')),
        d AS (DELETE FROM alias WHERE (site, from_id) IN (SELECT site, id FROM r) AND evidence <> 'canonical')
        UPDATE url SET state = 'queued', alias_of = NULL WHERE (site, id) IN (SELECT site, id FROM r) RETURNING 1`;
      if (start.sitemaps === true) await db`DELETE FROM sitemap_queue`;
      const queued = fetched.length + redirected.length;
      const [row] = await db`INSERT INTO recheck_generation (generation, started_at, run_id, queued)
        SELECT coalesce(max(generation), 0) + 1, ${this.#core.now()}, ${start.runId ?? null}, ${queued} FROM recheck_generation RETURNING generation`;
      return { generation: row!.generation as number, isJoined: false, queued };
    });
  }

  async dropLinks(fromUrlId: number): Promise<void> {
    // link_tally counts what is left: the page's links come off this writer's shard (stats sum the shards).
    // Read from page_link by (site, from_url), with the `link` view's rung columns (migration 004):
    // the view has no site to find a page's rows by.
    await this.#inTransaction(async (db) => {
      const site = await this.#siteOf(fromUrlId, db);
      if (site === undefined) return;
      await db`
        INSERT INTO link_tally (shard, rung, ladder_rung, links)
        SELECT ${this.#core.shard}, coalesce(CASE p.format WHEN 1 THEN j.v ->> 6 ELSE j.v ->> 5 END, 'none'),
          coalesce(CASE p.format WHEN 1 THEN coalesce(j.v ->> 7, j.v ->> 6) ELSE coalesce(j.v ->> 9, j.v ->> 5) END, 'none'), -count(*)
        FROM page_link AS p, jsonb_array_elements(p.links::jsonb) AS j (v)
        WHERE p.site = ${site} AND p.from_url = ${fromUrlId} GROUP BY 2, 3
        ON CONFLICT (shard, rung, ladder_rung) DO UPDATE SET links = link_tally.links + excluded.links`;
      await db`DELETE FROM page_link WHERE site = ${site} AND from_url = ${fromUrlId}`;
    });
  }

  async recordRunFindings(runId: number, findings: readonly FindingIdentity[]): Promise<void> {
    await this.#inTransaction(async (db) => {
      await db`DELETE FROM run_finding WHERE run_id = ${runId}`;
      // The mark: this run's findings were kept, even when there are none.
      const all = [{ code: '', page: '', target: '', href: '' }, ...findings];
      await db`
        INSERT INTO run_finding (run_id, code, page, target, href)
        SELECT ${runId}, * FROM unnest(${all.map((f) => f.code)}::text[], ${all.map((f) => f.page)}::text[], ${all.map((f) => f.target)}::text[], ${all.map((f) => f.href)}::text[])
        ON CONFLICT DO NOTHING`;
    });
  }

  async recordArchived(records: readonly ArchivedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const runId = this.#core.runId ?? null;
    await this.#writing(
      () => this.#db`
        INSERT INTO archive_record (run_id, uri, key, file, file_offset, record_length, type, payload_digest, warc_date, status)
        SELECT x.run_id, x.uri, x.key, x.file, x.file_offset, x.record_length, x.type, x.payload_digest, x.warc_date, x.status
        FROM unnest(${records.map((r) => r.runId ?? runId) as number[]}::bigint[], ${records.map((r) => r.uri)}::text[],
          ${records.map((r) => resourceKeyOf(r.uri) ?? null) as string[]}::text[], ${records.map((r) => r.file)}::text[],
          ${records.map((r) => r.offset)}::bigint[], ${records.map((r) => r.length)}::bigint[], ${records.map((r) => r.type)}::text[],
          ${records.map((r) => r.payloadDigest ?? null) as string[]}::text[], ${records.map((r) => r.date.getTime())}::bigint[],
          ${records.map((r) => r.status ?? null) as number[]}::integer[])
          WITH ORDINALITY AS x (run_id, uri, key, file, file_offset, record_length, type, payload_digest, warc_date, status, n)
        ORDER BY x.n`,
    );
  }

  async archivedRecords(uri: string): Promise<ArchivedRecord[]> {
    const key = resourceKeyOf(uri);
    const rows = await this.#reading(() =>
      key === undefined
        ? this.#db.unsafe(`SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE key IS NULL AND uri = $1 ORDER BY warc_date DESC, id DESC`, [uri])
        : this.#db.unsafe(`SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE key = $1 ORDER BY warc_date DESC, id DESC`, [key]),
    );
    return (rows as unknown as ArchivedColumns[]).map(toArchivedRecord);
  }

  async archivedPayload(digest: string): Promise<ArchivedRecord | undefined> {
    const [row] = await this.#reading(() =>
      this.#db.unsafe(`SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE payload_digest = $1 AND type = 'response' ORDER BY id LIMIT 1`, [digest]),
    );
    return row === undefined ? undefined : toArchivedRecord(row as unknown as ArchivedColumns);
  }

  async close(): Promise<void> {
    if (this.#isInTransaction || this.#core.isClosed) return;
    this.#core.isClosed = true;
    // Claims taken ahead and not handed out are this worker's still: stop() gives them back.
    this.#core.claimedAhead.length = 0;
    this.#core.untouched.clear();
    // This worker's claims not settled go back to the frontier; its row says it ended.
    // A server gone away is not waited for again: the claims lapse with their leases.
    try {
      if (!this.#core.isReadOnly && !this.#core.server.isGivenUp) await this.#writing(() => this.#core.frontier.stop());
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
    } finally {
      this.#core.sites.clear();
      await this.#core.sql.end({ timeout: 5 });
    }
  }

  // RFC 9309 §2.4: robots.txt answers shared by every worker (read back as untrusted input).
  #robots(): RobotsCache {
    return {
      get: async (origin) => {
        const [row] = await this.#reading(() => this.#db`SELECT entry FROM robots WHERE origin = ${origin}`);
        return row === undefined ? undefined : (parseStoredJson(row.entry as string, 'robots.entry', isObject) as unknown as RobotsCacheEntry);
      },
      set: (origin, entry) =>
        this.#writing(
          () => this.#db`INSERT INTO robots (origin, fetched_at, entry) VALUES (${origin}, ${entry.fetchedAt}, ${JSON.stringify(entry)})
            ON CONFLICT (origin) DO UPDATE SET fetched_at = excluded.fetched_at, entry = excluded.entry`,
        ),
    };
  }

  /** The site of a URL this worker claimed or remembers (known-urls.ts), without asking the index. */
  #knownSite(id: number): number | undefined {
    return this.#core.sites.get(id) ?? this.#core.known.url(id)?.site;
  }

  /**
   * The site of URL `id` (undefined: no such URL), so that its rows are found by (site, id):
   * one partition of a partitioned index. Asked of the index (by id: every partition) only
   * for a URL this worker neither claimed nor remembers.
   */
  async #siteOf(id: number, db?: Executor): Promise<number | undefined> {
    const known = this.#knownSite(id);
    if (known !== undefined) return known;
    const read = async (): Promise<number | undefined> => {
      const [row] = await (db ?? this.#db)`SELECT site FROM url WHERE id = ${id}`;
      return row === undefined ? undefined : (row.site as number);
    };
    return db === undefined ? this.#reading(read) : read();
  }

  // Several statements as one: in this view's transaction, or a new one.
  async #inTransaction<T>(work: (db: Executor) => Promise<T>): Promise<T> {
    if (this.#isInTransaction) return work(this.#db);
    return this.#writing(() => transaction(this.#core.sql, (tx) => work(tx as unknown as Executor)));
  }

  // A write that fails for a reason of the database (not the caller's) is the store's error.
  // Outside a transaction, a call that met the server gone waits for it and is made again
  // (`mayRepeat`): inside one, the transaction is the unit that is.
  async #writing<T>(work: () => Promise<T>, mayRepeat?: () => boolean): Promise<T> {
    try {
      return this.#isInTransaction ? await work() : await this.#core.server.run(work, mayRepeat);
    } catch (error) {
      throw asStoreError(error, this.#core.url, 'ERR_STORE_WRITE_FAILED');
    }
  }

  async #reading<T>(work: () => Promise<T>): Promise<T> {
    try {
      return this.#isInTransaction ? await work() : await this.#core.server.run(work);
    } catch (error) {
      throw asStoreError(error, this.#core.url, 'ERR_STORE_OPEN');
    }
  }
}

/** The smallest offset no open unit of this worker holds (as many as units open at once: the pool's connections). */
function takeUnitShard(held: Set<number>): number {
  let offset = 0;
  while (held.has(offset)) offset++;
  held.add(offset);
  return offset;
}

/** Queue sitemaps on the sitemap frontier; a key already there is left as it is. */
async function queueSitemapRows(db: Executor, entries: readonly SitemapQueueEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db`
    INSERT INTO sitemap_queue (key, origin, url, source, parent_id)
    SELECT x.key, x.origin, x.url, x.source, x.parent_id
    FROM unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.origin)}::text[], ${entries.map((e) => e.url)}::text[],
      ${entries.map((e) => e.source)}::text[], ${entries.map((e) => e.parentId ?? null) as number[]}::bigint[]) WITH ORDINALITY AS x (key, origin, url, source, parent_id, n)
    ORDER BY x.n
    ON CONFLICT (key) DO NOTHING`;
}

/** URL_COLUMNS, the first linking page's key read from `same` (that page on the URL's site), else by id. */
const URL_COLUMNS_OF_SITE = URL_COLUMNS.replace(
  '(SELECT key FROM url WHERE id = u.first_from) AS first_from_key',
  'coalesce(same.key, CASE WHEN u.first_from IS NOT NULL AND same.key IS NULL THEN (SELECT key FROM url WHERE id = u.first_from) END) AS first_from_key',
);

function notFound(id: number): StoreError {
  return new StoreError('ERR_STORE_NOT_FOUND', `no URL with id ${id} in the index`);
}

// Errors the store raised itself pass; a stored value that does not parse is corruption; the rest are the server's.
function asStoreError(error: unknown, url: string, code: 'ERR_STORE_WRITE_FAILED' | 'ERR_STORE_OPEN'): unknown {
  if (error instanceof StoreError) return error;
  if ((error as { code?: unknown } | null)?.code === 'ERR_STORE_CORRUPT') return asCorruption(error, url);
  return new StoreError(code, `the index at ${redactUrl(url)}: ${pgErrorText(error)}`, { cause: error });
}

