// The frontier of cooperating workers on PostgreSQL: claims taken with
// `FOR UPDATE SKIP LOCKED`, shallowest first, each with a short lease this worker
// renews every second while it lives (a dead worker's claims, and the host slots they
// hold, come free within the lease, not the minutes a request may take); per-host
// politeness held for the whole crawl by a crawl_host row per host, locked and advanced
// in the statement that claims.
//
// The claim chooses from `frontier` (migration 012): the rows of url in the states it
// reads (queued, fetching), copied by triggers on url in the transaction that writes
// them, in one unpartitioned table. On an index partitioned by site, url's indexes are
// partitioned too: the shallowest queued URLs of the whole crawl were a merge of a scan
// of every partition, each claim (5× the claim's unpartitioned cost at 64 partitions).
// From the copy the claim reads one index. On a partitioned index its own plan names no
// partitioned table: a plan made once names every partition of each table it reads by a
// site found in the statement, and PostgreSQL set up a scan of each at every claim. It
// takes each URL in url by (site, id) through claim_url, and reads a site's last request
// start through last_fetch_start (migration 014), whose statements, a site as their
// parameter, set up the one partition they read.
//
// One claim is one statement (one round trip). It chooses hosts, then URLs:
// 1. the hosts with queued URLs, in the order of their first one by (depth, id) — every
//    host's first URL before any host's second, as the other stores deal turns
//    (claim-turns.ts) — read from crawl_host's (queued_depth, queued_id) (migration 015:
//    the frontier trigger lowers it as URLs are queued, the claim sets it again), as far
//    as the window;
// 2. the first open ones, as many as `limit`: next_at passed, fewer live claims on it than
//    perHostConcurrency, row locked with SKIP LOCKED (another worker claiming on it now
//    keeps it). The nested loop stops there: hosts past it are neither counted nor
//    locked. A host's live claims are read from frontier_claims (host, lease_until) only
//    as far as the limit: a few index entries a host, never the claims in flight (whose
//    count grows with the cluster's throughput). Counted, not kept in a counter: a
//    counter would have to be written by every settlement (its page unit then holding
//    the host's row, which claims skip) and reconciled when a dead worker's lease lapses;
//    the count needs neither;
// 3. each open host's first queued URLs, as many as its free slots (one with a delay),
//    every host's first before any host's second up to `limit`, each row locked with
//    SKIP LOCKED (on a partitioned index its frontier row, then its URL by claim_url) and
//    moved to `fetching` with this worker's lease;
// 4. each open host's row: next_at (now + delay per URL claimed, the database's now) and
//    its first URL still queued.
// Claims whose lease ran out go back to queued in tidy(), about once a second, with the
// hosts that lost their place in step 1 (a URL queued while a claim set it again).
//
// A host with a delay is crawled one request at a time by all workers together, and
// is open only once its last request (the latest fetch row of its site) started at
// least the delay ago. A delay counted from the claim alone would not hold: a request
// starts some time after its claim (the claim's round trip, robots.txt, a loaded
// worker: hundreds of ms, measured), and a late start shortens the gap to the next
// worker's; the start recorded in the fetch row is the request's own.
//
// Leases, host slots (next_at) and request starts are judged by the database server's
// clock (statement_timestamp()), the one clock every worker reads the same: a worker
// whose own clock ran ahead took claims that were still live, and the hosts of a worker
// whose clock ran 5 s ahead stayed closed to the others 5 s after each of its claims
// (it took 96 % of the work, and started requests on a host within the delay of another
// worker's). A request's start is written on that clock too (fetch.started_db, see
// PgStore.recordFetch). A lapsed claim is renewed by no one: its results are refused
// (PgStore.holdClaim) and it is claimed again.
//
// Why a host row changed since the statement's snapshot is skipped: the live claims on
// a host are counted in that snapshot, and a claim by another worker that committed
// after it is not in the count. Every claim updates its hosts' rows, so a row whose
// version (xmin) is not the one the snapshot saw may have claims the count missed;
// `FOR UPDATE` re-reads a row updated meanwhile (READ COMMITTED), and the version test
// then fails on it. The host is left to the next claim.

import { hostname } from 'node:os';
import type { ClaimedUrl, FrontierIdle, SharedFrontier, SharedPoliteness, UrlRole } from '../types.js';
import type { Sql } from './pg-database.js';
import { siteOf } from './site-hash.js';
import { stateIn } from '../url-state-machine.js';

export interface PgFrontierOptions {
  /** This worker's id, unique among the crawl's workers (recorded as url.claimed_by and crawl_worker.id). */
  readonly workerId: string;
  /**
   * How long a claim holds without renewal: a worker that stops renewing (it died)
   * loses its claims this long after its last renewal. Renewed every leaseMs / 3, at
   * most a second apart.
   */
  readonly leaseMs: number;
  /** The clock (Unix ms) of what this worker stamps for itself: its heartbeat, its start and end. */
  readonly now: () => number;
  /**
   * The clock every comparison between workers is made by: leases, host slots' next_at,
   * the start of a host's last request (tests).
   * @default the database server's
   */
  readonly leaseClock?: (() => number) | undefined;
  /**
   * Runs each call the crawl makes of its own (whenIdle, reportProgress, setHostDelay):
   * the store's wait for a server that went away.
   * @default the call, once
   */
  readonly persist?: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
  /** The large tables are partitioned by site: the claim names none of them (claim_url, last_fetch_start). @default false */
  readonly isPartitioned?: boolean | undefined;
}

/** The database server's clock in Unix ms, as the same for the whole statement. */
function databaseNow(sql: Sql): ReturnType<Sql> {
  return sql`(extract(epoch FROM statement_timestamp()) * 1000)::bigint`;
}

/**
 * Politeness before `setPoliteness` (a crawl sets it first): none, so that the store
 * claims as the other stores do, shallowest first whatever the host.
 */
// The states of the URL state machine (url-state-machine.ts) these statements move.
/** What a claim takes: a queued URL, or one whose claim's lease lapsed (its own branch, with the lease test). */
const CLAIM_QUEUED = stateIn('claim', { to: 'fetching', except: ['fetching'], backend: 'postgresql' });
const CLAIM_LAPSED = stateIn('claim', { to: 'fetching', except: ['queued'], backend: 'postgresql' });
const CLAIM_QUEUED_U = stateIn('claim', { to: 'fetching', except: ['fetching'], backend: 'postgresql', column: 'u.state' });
const CLAIM_LAPSED_U = stateIn('claim', { to: 'fetching', except: ['queued'], backend: 'postgresql', column: 'u.state' });
const CLAIM_QUEUED_F = stateIn('claim', { to: 'fetching', except: ['fetching'], backend: 'postgresql', column: 'f.state' });
/** The claims a worker gives back when it stops. */
const CLOSE_FROM = stateIn('close', { to: 'queued', backend: 'postgresql' });

const DEFAULT_POLITENESS: SharedPoliteness = { perHostConcurrency: 2 ** 31 - 1, perHostDelayMs: 0 };

/**
 * Hosts a claim reads at most: it may take from only a few of them (hosts full or
 * waiting on a delay), so it looks further than `limit`.
 */
const WINDOW_FACTOR = 8;
const WINDOW_MIN = 64;
const WINDOW_MAX = 2048;

/** The longest time between two rounds of a worker: its leases renewed (its heartbeat), and tidy(). */
const RENEW_MAX_MS = 1000;

/** tidy(): the lapsed claims and the hosts it looks at, at most, a round. */
const TIDY_MAX = 1024;
/** tidy(): how long after a claim emptied a host a URL queued meanwhile is looked for. */
const TIDY_LOOKBACK_MS = 30_000;
/** tidy(): the crawl's shallowest queued URLs whose hosts it looks at. */
const TIDY_SHALLOWEST = 64;

/** How long whenIdle() tells a worker to wait before claiming again: until the next host's slot, within these bounds. */
const RETRY_MIN_MS = 25;
const RETRY_MAX_MS = 500;
/** …and when no host waits on a delay (they are at their concurrency): a slot frees when a request ends. */
const RETRY_BUSY_MS = 50;

interface ClaimRow {
  readonly id: number;
  readonly key: string;
  readonly depth: number;
  readonly host: string | null;
  readonly role: UrlRole | null;
}

export class PgFrontier implements SharedFrontier {
  readonly workerId: string;
  readonly #sql: Sql;
  readonly #leaseMs: number;
  readonly #now: () => number;
  readonly #leaseClock: (() => number) | undefined;
  readonly #persist: <T>(work: () => Promise<T>) => Promise<T>;
  readonly #isPartitioned: boolean;
  #politeness: SharedPoliteness = DEFAULT_POLITENESS;
  /**
   * The claims this worker knows it holds (id → site), the only ones it renews: a claim
   * whose answer was lost (the connection cut after the server ran it) is held by no one
   * who knows it, and so lapses and is claimed again, instead of being renewed forever by
   * a worker that will never fetch it. Shared with the views of `on()`.
   */
  #held = new Map<number, number>();
  /** When this worker last ran tidy() (its own clock); shared with the views of `on()`. */
  #tidied = { at: Number.NEGATIVE_INFINITY };
  /** How often this worker renews its leases and runs tidy(): leaseMs / 3, at most RENEW_MAX_MS. */
  readonly #roundMs: number;
  #timer: NodeJS.Timeout | undefined;
  /** The renewal in progress, awaited by stop(). */
  #renewing: Promise<void> | undefined;

  constructor(sql: Sql, options: PgFrontierOptions) {
    if (options.workerId === '') throw new TypeError('Expected `workerId` to be a non-empty string');
    if (!Number.isInteger(options.leaseMs) || options.leaseMs < 3) throw new TypeError(`Expected \`leaseMs\` to be an integer >= 3, got \`${String(options.leaseMs)}\``);
    this.#sql = sql;
    this.workerId = options.workerId;
    this.#leaseMs = options.leaseMs;
    this.#now = options.now;
    this.#leaseClock = options.leaseClock;
    this.#persist = options.persist ?? ((work) => work());
    this.#isPartitioned = options.isPartitioned === true;
    this.#roundMs = Math.min(RENEW_MAX_MS, Math.floor(options.leaseMs / 3));
  }

  /**
   * This frontier's claims made on `sql` (a unit's connection, after its COMMIT: the claim
   * then rides with it, PgStore.transact), with the same worker, lease and politeness.
   */
  on(sql: Sql): PgFrontier {
    const view = new PgFrontier(sql, { workerId: this.workerId, leaseMs: this.#leaseMs, now: this.#now, leaseClock: this.#leaseClock, persist: this.#persist, isPartitioned: this.#isPartitioned });
    view.#politeness = this.#politeness;
    view.#held = this.#held;
    view.#tidied = this.#tidied;
    return view;
  }

  /** The shared clock's now (leases, host slots, request starts), in SQL run on `sql`. */
  leaseNow(sql: Sql = this.#sql): ReturnType<Sql> {
    return this.#leaseClock === undefined ? databaseNow(sql) : sql`${this.#leaseClock()}::bigint`;
  }

  /**
   * A time of this worker's clock (a request's start), in SQL on the shared clock: the
   * statement's now less the time this worker's clock says passed since. The difference
   * of two readings of one clock holds whatever its skew; the time between reading it
   * here and the statement's start only makes the result later (a host's delay longer),
   * never earlier.
   */
  sharedTimeOf(localMs: number, sql: Sql = this.#sql): ReturnType<Sql> {
    return sql`(${this.leaseNow(sql)} - ${Math.max(0, this.#now() - localMs)}::bigint)`;
  }

  /** Record this worker (crawl_worker) and renew its leases and heartbeat every leaseMs / 3 (at most 1 s) until stop(). */
  async start(): Promise<void> {
    const now = this.#now();
    await this.#sql`
      INSERT INTO crawl_worker (id, host, pid, started_at, heartbeat_at, lease_ms)
      VALUES (${this.workerId}, ${hostname()}, ${process.pid}, ${now}, ${now}, ${this.#leaseMs})
      ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
        heartbeat_at = EXCLUDED.heartbeat_at, lease_ms = EXCLUDED.lease_ms, ended_at = NULL, counts = NULL`;
    this.#timer ??= setInterval(() => {
      this.#renewing ??= this.renew()
        .catch(() => {
          // A renewal that failed (the server away for a moment) is tried again at the next tick;
          // the leases outlive two missed renewals at least.
        })
        .finally(() => {
          this.#renewing = undefined;
        });
    }, this.#roundMs);
    this.#timer.unref();
  }

  /**
   * Extend the lease of every claim this worker holds and has not let lapse, and its
   * heartbeat. A claim whose row is locked is being settled by a unit of this worker
   * (PgStore.holdClaim): no other worker can take it meanwhile, and the renewal does not
   * wait for that unit (nor, locking rows in another order, deadlock with it).
   */
  async renew(): Promise<void> {
    const now = this.#now();
    const leaseNow = this.leaseNow();
    const sent = [...this.#held];
    const still = (await this.#sql`
      WITH held AS (
        SELECT * FROM unnest(${sent.map(([, site]) => site)}::integer[], ${sent.map(([id]) => id)}::bigint[]) AS h (site, id)
      ), still AS (
        SELECT u.site, u.id FROM url AS u JOIN held AS h ON u.site = h.site AND u.id = h.id
        WHERE u.state = 'fetching' AND u.claimed_by = ${this.workerId} AND u.lease_until >= ${leaseNow}
      ), mine AS (
        SELECT u.site, u.id FROM url AS u JOIN still AS s ON u.site = s.site AND u.id = s.id
        FOR UPDATE OF u SKIP LOCKED
      ), renewed AS (
        UPDATE url SET lease_until = ${leaseNow} + ${this.#leaseMs}::bigint
        FROM mine WHERE url.site = mine.site AND url.id = mine.id
      ), beat AS (
        UPDATE crawl_worker SET heartbeat_at = ${now} WHERE id = ${this.workerId}
      )
      SELECT id FROM still`) as unknown as { id: number | string }[];
    // Settled or lapsed since: no longer this worker's (a claim taken meanwhile was not sent, and stays).
    const kept = new Set(still.map((row) => Number(row.id)));
    for (const [id] of sent) if (!kept.has(id)) this.#held.delete(id);
  }

  /** Stop renewing; this worker's claims not settled go back to the frontier, and its row says it ended. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#renewing;
    const now = this.#now();
    await this.#sql`
      WITH released AS (
        UPDATE url SET state = 'queued', claimed_by = NULL, lease_until = NULL
        WHERE ${this.#sql.unsafe(CLOSE_FROM)} AND claimed_by = ${this.workerId}
      )
      UPDATE crawl_worker SET ended_at = ${now}, heartbeat_at = ${now} WHERE id = ${this.workerId}`;
  }

  setPoliteness(politeness: SharedPoliteness): void {
    this.#politeness = { ...politeness };
  }

  /** A host's least delay between starts, for every worker: raised, never lowered (robots.txt Crawl-delay). */
  async setHostDelay(host: string, delayMs: number): Promise<void> {
    await this.#persist(() => this.#setHostDelay(host, delayMs));
  }

  async #setHostDelay(host: string, delayMs: number): Promise<void> {
    await this.#sql`
      INSERT INTO crawl_host (host, next_at, delay_ms) VALUES (${host}, 0, ${Math.round(delayMs)})
      ON CONFLICT (host) DO UPDATE SET delay_ms = EXCLUDED.delay_ms
      WHERE crawl_host.delay_ms < EXCLUDED.delay_ms`;
  }

  /**
   * Up to `limit` URLs for this worker, shallowest first, each leased until now +
   * leaseMs: queued ones, and claims whose lease ran out; only on hosts with a free
   * slot now (see the file's comment).
   */
  async claim(limit: number): Promise<ClaimedUrl[]> {
    if (limit <= 0) return [];
    if (this.#now() - this.#tidied.at >= this.#roundMs) {
      this.#tidied.at = this.#now();
      await this.tidy();
    }
    const window = Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, limit * WINDOW_FACTOR));
    const { perHostConcurrency, perHostDelayMs } = this.#politeness;
    const leaseNow = this.leaseNow();
    // A host's live claims are read from frontier_claims only as far as its limit (past it the
    // host is full, whatever their number), not at all without one: the claim's cost does
    // not grow with the claims in flight.
    const counted = perHostConcurrency >= DEFAULT_POLITENESS.perHostConcurrency ? 0 : perHostConcurrency;
    const sql = this.#sql;
    const leaseUntil = sql`${leaseNow} + ${this.#leaseMs}::bigint`;
    const delay = sql`greatest(x.delay_ms, ${perHostDelayMs}::integer)`;
    // Unpartitioned, url is read by a join with the rows chosen (a plpgsql call for each
    // costs more). Partitioned, the claim's plan names no partitioned table (see the
    // file's comment): each URL goes through claim_url, its frontier row locked first.
    const lastStart = this.#isPartitioned
      ? sql`last_fetch_start(c.site)`
      : sql`(SELECT coalesce(f.started_db, f.started_at) FROM "fetch" AS f WHERE f.site = c.site ORDER BY f.id DESC LIMIT 1)`;
    const locked = this.#isPartitioned
      ? sql`SELECT f.site, f.id FROM frontier AS f JOIN chosen AS c ON f.site = c.site AND f.id = c.id
        WHERE ${sql.unsafe(CLAIM_QUEUED_F)} FOR UPDATE OF f SKIP LOCKED`
      : sql`SELECT u.site, u.id FROM url AS u JOIN chosen AS c ON u.site = c.site AND u.id = c.id
        WHERE ${sql.unsafe(CLAIM_QUEUED_U)} FOR UPDATE OF u SKIP LOCKED`;
    const claimed = this.#isPartitioned
      ? sql`SELECT u.id, u.key, u.depth, u.host, u.role FROM locked AS l CROSS JOIN LATERAL claim_url(l.site, l.id, ${this.workerId}, ${leaseUntil}, ${leaseNow}) AS u`
      : sql`UPDATE url AS u SET state = 'fetching', claimed_by = ${this.workerId}, lease_until = ${leaseUntil}
        FROM locked AS l WHERE u.site = l.site AND u.id = l.id
        RETURNING u.id, u.key, u.depth, u.host, u.role`;
    const rows = (await sql`
      WITH
      -- The first open hosts in the order of their first queued URL (depth, id), as many
      -- as the claim may take URLs: next_at passed, fewer live claims than its limit, row
      -- locked with SKIP LOCKED (another worker claiming on it now keeps it). The nested
      -- loop stops at the limit: hosts past it are neither counted nor locked. It reads
      -- no further than the window (past hosts full or waiting on a delay).
      open_host AS (
        SELECT c.host, h.delay_ms, h.take
        FROM (
          SELECT x.host, x.xmin AS version, x.site FROM crawl_host AS x
          WHERE x.queued_depth IS NOT NULL ORDER BY x.queued_depth, x.queued_id LIMIT ${window}
        ) AS c
        -- The row comparison bounds frontier_claims (host, lease_until) alone: with
        -- lease_until >= now alone the plan may read frontier_leases instead: every live claim.
        CROSS JOIN LATERAL (
          SELECT count(*)::integer AS n FROM (
            SELECT 1 FROM frontier AS b
            WHERE b.state = 'fetching' AND b.host = c.host AND (b.host, b.lease_until) >= (c.host, ${leaseNow}) LIMIT ${counted}
          ) AS y
        ) AS b
        CROSS JOIN LATERAL (
          SELECT ${delay} AS delay_ms, CASE WHEN ${delay} > 0 THEN 1 ELSE ${perHostConcurrency}::integer - b.n END AS take
          FROM crawl_host AS x
          WHERE x.host = c.host AND x.xmin = c.version AND x.next_at <= ${leaseNow}
            AND b.n < CASE WHEN ${delay} > 0 THEN 1 ELSE ${perHostConcurrency}::integer END
            AND (${delay} = 0 OR coalesce(${lastStart}, 0) <= ${leaseNow} - ${delay})
          FOR UPDATE SKIP LOCKED
        ) AS h
        LIMIT ${limit}
      ),
      -- Each open host's first URLs, as many as it may take; of them all, every host's
      -- first before any host's second, within a depth (claim-turns.ts).
      chosen AS (
        SELECT q.site, q.id FROM open_host AS o
        CROSS JOIN LATERAL (
          SELECT f.site, f.id, f.depth, row_number() OVER (ORDER BY f.depth, f.id) AS nth FROM (
            SELECT f.site, f.id, f.depth FROM frontier AS f
            WHERE f.host = o.host AND ${sql.unsafe(CLAIM_QUEUED_F)} ORDER BY f.depth, f.id LIMIT o.take
          ) AS f
        ) AS q
        ORDER BY q.depth, q.nth, q.id LIMIT ${limit}
      ),
      locked AS (${locked}),
      claimed AS (${claimed}),
      taken AS (
        SELECT coalesce(host, '') AS host, count(*)::integer AS n, array_agg(id) AS ids FROM claimed GROUP BY 1
      ),
      -- Each open host: its next slot when claimed on, and its first URL still queued (the
      -- statement's snapshot still has the ones it took), with when it had none left (tidy).
      advanced AS (
        UPDATE crawl_host AS x SET
          next_at = CASE WHEN t.n IS NULL THEN x.next_at ELSE ${leaseNow} + o.delay_ms * t.n END,
          delay_ms = CASE WHEN t.n IS NULL THEN x.delay_ms ELSE o.delay_ms END,
          queued_depth = r.depth, queued_id = r.id,
          emptied_at = CASE WHEN r.depth IS NULL THEN ${leaseNow} ELSE x.emptied_at END
        FROM open_host AS o
        LEFT JOIN taken AS t ON t.host = o.host
        LEFT JOIN LATERAL (
          SELECT f.depth, f.id FROM frontier AS f
          WHERE f.host = o.host AND ${sql.unsafe(CLAIM_QUEUED_F)} AND f.id <> ALL (coalesce(t.ids, '{}'))
          ORDER BY f.depth, f.id LIMIT 1
        ) AS r ON true
        WHERE x.host = o.host AND (t.n IS NOT NULL OR (x.queued_depth, x.queued_id) IS DISTINCT FROM (r.depth, r.id))
      )
      SELECT id, key, depth, host, role FROM claimed`) as unknown as ClaimRow[];
    const urls: ClaimedUrl[] = rows.map((row) => ({ id: row.id, key: row.key, depth: row.depth, host: row.host ?? undefined, role: row.role ?? 'page' }));
    for (const url of urls) this.#held.set(url.id, siteOf(url.host));
    urls.sort((a, b) => a.depth - b.depth || a.id - b.id);
    return urls;
  }

  /**
   * What claims leave to a worker's round about once a second (claim() runs it when due):
   * - claims whose lease ran out (a dead worker's, or one this worker let lapse) go back
   *   to queued, and the next claim takes them again (their depth and id unchanged). A
   *   row a unit holds locked is settling: left to it.
   * - a host that lost its queued depth (migration 015: a URL queued while a claim set it
   *   again) gets it back: among the hosts emptied in the last TIDY_LOOKBACK_MS, and the
   *   hosts of the crawl's shallowest queued URLs (so that one whose URL was queued in a
   *   transaction longer than that is found as the crawl reaches its depth).
   */
  async tidy(): Promise<void> {
    const sql = this.#sql;
    const leaseNow = this.leaseNow();
    await sql`
      WITH
      lapsed AS (
        SELECT u.site, u.id FROM url AS u
        JOIN (SELECT site, id FROM frontier WHERE ${sql.unsafe(CLAIM_LAPSED)} AND (lease_until < ${leaseNow} OR lease_until IS NULL) LIMIT ${TIDY_MAX}) AS f
          ON u.site = f.site AND u.id = f.id
        WHERE ${sql.unsafe(CLAIM_LAPSED_U)} AND (u.lease_until < ${leaseNow} OR u.lease_until IS NULL)
        FOR UPDATE OF u SKIP LOCKED
      ),
      requeued AS (
        UPDATE url SET state = 'queued', claimed_by = NULL, lease_until = NULL FROM lapsed WHERE url.site = lapsed.site AND url.id = lapsed.id
      ),
      suspect AS (
        (SELECT x.host FROM crawl_host AS x WHERE x.queued_depth IS NULL AND x.emptied_at >= ${leaseNow} - ${TIDY_LOOKBACK_MS}::bigint LIMIT ${TIDY_MAX})
        UNION
        (SELECT host FROM frontier WHERE ${sql.unsafe(CLAIM_QUEUED)} ORDER BY depth, id LIMIT ${TIDY_SHALLOWEST})
      ),
      -- Only a row as this statement's snapshot saw it (its version): a claim that took the
      -- URL found here and committed since set the row from a later snapshot.
      found AS (
        SELECT x.host, q.depth, q.id FROM suspect AS s
        CROSS JOIN LATERAL (SELECT f.depth, f.id FROM frontier AS f WHERE f.host = s.host AND ${sql.unsafe(CLAIM_QUEUED_F)} ORDER BY f.depth, f.id LIMIT 1) AS q
        JOIN crawl_host AS v ON v.host = s.host
        CROSS JOIN LATERAL (
          SELECT x.host FROM crawl_host AS x
          WHERE x.host = s.host AND x.xmin = v.xmin AND (x.queued_depth IS NULL OR (q.depth, q.id) < (x.queued_depth, x.queued_id))
          FOR UPDATE SKIP LOCKED
        ) AS x
      )
      UPDATE crawl_host AS x SET queued_depth = found.depth, queued_id = found.id FROM found WHERE x.host = found.host`;
  }

  /**
   * Over when nothing is queued, no claim's lease ran out, and no other worker holds a
   * live claim (its fetch may queue more); else retry when the next host's slot opens
   * (bounded to 25..500 ms), or in 50 ms when none waits on a delay.
   */
  whenIdle(): Promise<FrontierIdle> {
    return this.#persist(() => this.#whenIdle());
  }

  async #whenIdle(): Promise<FrontierIdle> {
    const leaseNow = this.leaseNow();
    const [row] = (await this.#sql`
      SELECT
        ${leaseNow} AS now,
        EXISTS (SELECT 1 FROM frontier WHERE state = 'queued') AS queued,
        EXISTS (SELECT 1 FROM frontier WHERE state = 'fetching'
                AND (claimed_by IS DISTINCT FROM ${this.workerId} OR lease_until IS NULL OR lease_until < ${leaseNow})) AS claimed,
        (SELECT min(next_at) FROM crawl_host WHERE next_at > ${leaseNow}) AS next_at`) as unknown as [{ now: number; queued: boolean; claimed: boolean; next_at: number | null }];
    if (!row.queued && !row.claimed) return { isOver: true, retryInMs: 0 };
    const untilNext = row.next_at === null ? RETRY_BUSY_MS : row.next_at - row.now;
    return { isOver: false, retryInMs: Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, untilNext)) };
  }

  async reportProgress(counts: Readonly<Record<string, number>>): Promise<void> {
    await this.#persist(() => this.#reportProgress(counts));
  }

  async #reportProgress(counts: Readonly<Record<string, number>>): Promise<void> {
    await this.#sql`UPDATE crawl_worker SET counts = ${JSON.stringify(counts)} WHERE id = ${this.workerId}`;
  }
}
