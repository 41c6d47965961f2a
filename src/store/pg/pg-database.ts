// Opening the index on PostgreSQL: a connection pool (the `postgres`
// client), the migrations of migrations/postgresql/ applied and checked as SQLite's are
// (version, name, sha256), under an advisory lock so that workers starting together
// migrate once.

import { existsSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { StoreError } from '../../errors.js';
import { checkApplied, defaultMigrationsDir, loadMigrations, type AppliedRow, type Migration, type MigrationStatus } from '../migrations.js';

const PG_FOLDER = 'migrations/postgresql/';

/** The client: a pool of connections that runs tagged-template queries. */
export type Sql = postgres.Sql<{ bigint: number }>;

/** Whether `db` names a PostgreSQL database rather than an index file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/** The migrations/postgresql/ folder of the installed package (inside migrations/). */
export function defaultPgMigrationsDir(): string {
  const dir = path.join(defaultMigrationsDir(), 'postgresql');
  if (!existsSync(dir)) throw new StoreError('ERR_STORE_OPEN', 'cannot find the migrations/postgresql/ folder of linkladder');
  return dir;
}

export interface PgConnectOptions {
  /** Connections in the pool. @default 4 */
  readonly max?: number;
  /**
   * Plan every prepared statement once (plan_cache_mode = force_generic_plan): for a
   * writer, whose statements are short and many. @default false
   */
  readonly isGenericPlans?: boolean;
  /**
   * The server is reached through a pooler in transaction mode (PgBouncer
   * `pool_mode = transaction`): a session lasts one transaction, so no named prepared
   * statement (the next statement may meet another server connection, where it does not
   * exist) and no startup parameter the pooler refuses (`jit`, `plan_cache_mode`).
   * @default false
   */
  readonly isTransactionPooling?: boolean;
}

/** Connections in a pool, by default, and the most a setting may ask. */
export const PG_POOL_SIZE = { default: 4, min: 1, max: 64 } as const;

// An application-wide advisory lock id: "linkladder migrations".
const MIGRATION_LOCK = 0x6c6c6d67;

/** Connect to `url`. Ids are bigint columns, read back as numbers (they stay below 2^53). */
export function connect(url: string, options: PgConnectOptions = {}): Sql {
  const isPooled = options.isTransactionPooling === true;
  outliveArrayTypesFailures();
  return postgres(url, {
    max: options.max ?? PG_POOL_SIZE.default,
    // Unnamed statements are parsed and planned with their values at every execution
    // (a custom plan): what a pooler in transaction mode allows.
    prepare: !isPooled,
    onnotice: () => {},
    connect_timeout: 10,
    // The pause before a connection is opened again, in seconds. The client's own grows
    // with every failed attempt of the pool (up to 20 s), and a statement given to a
    // connection that failed while the server was away then waited that long once it was
    // back; a pool ended meanwhile (its 5 s bound passed) had that connection open after
    // it, and the process never exited. The calls that met the loss wait for the server
    // with their own backoff (server-wait.ts).
    backoff: () => RECONNECT_PAUSE_S,
    types: {
      bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (text: string) => Number(text) },
    },
    // No JIT: admission's statements are many and short, and a generic plan's estimate
    // (unnest of a parameter counts as 10 rows, a recursive CTE multiplies it) crossed
    // jit_above_cost: each batch then spent some 100 ms compiling a 1 ms query.
    // A writer's statements: admission's batch write was planned anew for every batch
    // (its arrays' lengths made each custom plan look cheaper than the generic one),
    // 0.4 ms of planning for 0.7 ms of work (pg_stat_statements).
    // Through a pooler in transaction mode neither is sent (PgBouncer refuses both as
    // startup parameters): its statements are unnamed, planned with their values, so
    // there is no generic plan to force, and no generic estimate to cross jit_above_cost.
    connection: isPooled
      ? { application_name: 'linkladder' }
      : { application_name: 'linkladder', jit: 'off', ...(options.isGenericPlans === true ? { plan_cache_mode: 'force_generic_plan' } : {}) },
  }) as unknown as Sql;
}

let isOutlivingArrayTypesFailures = false;

/**
 * The client asks the server for its array types as each connection opens, and drops
 * that statement's promise (porsager/postgres#1192): a connection cut while it runs (a
 * server restart) ended a worker with an unhandled rejection, though the statement that
 * opened the connection meets the loss on its own and is made again. That one rejection
 * is let pass. Any other ends the process as Node would when this is the only listener;
 * other listeners (a host application's, a test runner's) hear of it as before.
 * (Not asking for the types on later connections is no way out: the client then never
 * hands a connection opened for a transaction over, porsager/postgres#1219.)
 */
function outliveArrayTypesFailures(): void {
  if (isOutlivingArrayTypesFailures) return;
  isOutlivingArrayTypesFailures = true;
  process.on('unhandledRejection', (reason) => {
    if (isArrayTypesFailure(reason)) return;
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}

/** Whether `error` is the failure of the client's own statement asking for the array types. */
function isArrayTypesFailure(error: unknown): boolean {
  const query = (error as { query?: unknown } | null)?.query;
  return typeof query === 'string' && /\bfrom pg_catalog\.pg_type a\b[^]*\btypcategory = 'A'/.test(query);
}

/** A connection failure as the store's error, naming the server but not the password. */
export function openFailure(error: unknown, url: string): StoreError {
  return new StoreError('ERR_STORE_OPEN', `cannot open the index at ${redactUrl(url)}: ${pgErrorText(error)}`, { cause: error });
}

/**
 * The server's message, and for a refusal the user can act on, what to do: every
 * connection slot taken (SQLSTATE 53300, too_many_connections) is the pool sizes of
 * the workers against `max_connections`.
 */
export function pgErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { code?: unknown } | null)?.code !== '53300') return message;
  return (
    `${message} (the server's max_connections is reached: each worker opens up to --db-pool-size connections, ` +
    `default ${PG_POOL_SIZE.default}; give the workers a smaller pool, run fewer, raise max_connections, or put PgBouncer in front)`
  );
}

/**
 * `url` without its password, for messages: the userinfo's (up to the authority's
 * last "@") and a `password` or `sslpassword` query parameter's, which libpq and
 * postgres.js take as well.
 */
export function redactUrl(url: string): string {
  const scheme = /^postgres(?:ql)?:\/\//i.exec(url);
  if (scheme === null) return url;
  const start = scheme[0].length;
  const authorityEnd = url.slice(start).search(/[/?#]/);
  const end = authorityEnd === -1 ? url.length : start + authorityEnd;
  const at = url.lastIndexOf('@', end - 1);
  const colon = at < start ? -1 : url.indexOf(':', start);
  const authority = colon !== -1 && colon < at ? `${url.slice(start, colon)}:***${url.slice(at, end)}` : url.slice(start, end);
  const rest = url.slice(end).replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
  return `${url.slice(0, start)}${authority}${rest}`;
}


async function appliedRows(sql: Sql, create: boolean): Promise<AppliedRow[] | undefined> {
  if (create) {
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, sha256 text NOT NULL, applied_at bigint NOT NULL)`;
  } else {
    const [table] = await sql`SELECT to_regclass('schema_migrations') AS name`;
    if (table?.name === null) return undefined;
  }
  return (await sql`SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY version`) as unknown as AppliedRow[];
}


/** Apply every pending migration, each in its own transaction; one process at a time. Returns the ones applied. */
export async function migratePg(sql: Sql, now: () => number, dir = defaultPgMigrationsDir()): Promise<Migration[]> {
  return sql.begin((tx) => applyPendingMigrations(tx as unknown as Sql, now, dir)) as Promise<Migration[]>;
}

/** Inside a transaction: take the migrations' lock and apply every pending migration (pg-partitions.ts goes on in it). */
export async function applyPendingMigrations(tx: Sql, now: () => number, dir: string): Promise<Migration[]> {
  const migrations = loadMigrations(dir);
  await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
  const applied = (await appliedRows(tx, true))!;
  checkApplied(applied, migrations, PG_FOLDER);
  const pending = migrations.slice(applied.length);
  for (const migration of pending) {
    try {
      await tx.unsafe(migration.sql);
    } catch (error) {
      throw new StoreError('ERR_STORE_MIGRATION_FAILED', `migration ${migration.file} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    await tx`INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (${migration.version}, ${migration.name}, ${migration.sha256}, ${now()})`;
  }
  return pending;
}

/** Every known migration with the time it was applied, if it was (nothing is written). */
export async function migrationStatusPg(sql: Sql, dir = defaultPgMigrationsDir()): Promise<MigrationStatus[]> {
  const migrations = loadMigrations(dir);
  const applied = (await appliedRows(sql, false)) ?? [];
  checkApplied(applied, migrations, PG_FOLDER);
  return migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: applied[m.version - 1]?.applied_at }));
}

/** Refuse to read a database that is not an up-to-date index (reports never migrate). */
export async function checkUpToDate(sql: Sql, url: string, dir = defaultPgMigrationsDir()): Promise<void> {
  const migrations = loadMigrations(dir);
  const applied = await appliedRows(sql, false);
  if (applied === undefined) throw new StoreError('ERR_STORE_NOT_INDEX', `${redactUrl(url)} is not a linkladder index (no schema_migrations table): run linkladder db migrate --db ${redactUrl(url)}`);
  checkApplied(applied, migrations, PG_FOLDER);
  if (applied.length < migrations.length) {
    throw new StoreError('ERR_STORE_OUTDATED', `the index at ${redactUrl(url)} lacks migrations ${migrations.slice(applied.length).map((m) => m.file).join(', ')}: run linkladder db migrate`);
  }
}

// Error codes that say the connection (or the server) is gone, not that the statement
// was wrong: the client's own (CONNECTION_*, CONNECT_TIMEOUT), the socket's, and the
// server's class 08 (connection exception) and 57P01–57P03 (shut down, crashed, starting).
const CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03']);

/** Whether `error` says the server (or the way to it) is gone, rather than that a statement failed. */
export function isConnectionLost(error: unknown): boolean {
  // The store's own errors wrap the client's (`cause`).
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_LOST.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  }
  return false;
}

/** The pause before a connection is opened again (seconds): see connect(). */
const RECONNECT_PAUSE_S = 0.1;

/**
 * How long a transaction waits for a connection of its own before it is counted as
 * lost (and made again, server-wait.ts): units hold one for milliseconds, so a request
 * not answered within seconds is one the client lost (below), and each second more is a
 * second every unit waits after a server restart. Given up on a pool only slow (a
 * loaded machine), the unit is made again once the server answers: nothing is lost.
 */
const RESERVE_WAIT_MS = 5_000;

/**
 * A connection of `sql`'s pool for one transaction. The client (postgres 3.4.9) can
 * lose a request for one: a request queued while every connection was opening is handed
 * to the next connection that closes, and when that one opens again it drops the request
 * (its `reserve` is never called). The unit then waited forever while the worker renewed
 * its claim, and every other worker waited for that claim. A request not answered
 * within RESERVE_WAIT_MS is given up as a lost connection (CONNECT_TIMEOUT); a
 * connection that comes for it later goes back to the pool.
 */
export async function reserveConnection(sql: Sql): Promise<Awaited<ReturnType<Sql['reserve']>>> {
  let isGivenUp = false;
  const reserving = sql.reserve().then((reserved) => {
    if (isGivenUp) reserved.release();
    return reserved;
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      isGivenUp = true;
      reject(Object.assign(new Error(`no connection of the pool came free within ${RESERVE_WAIT_MS / 1000} s`), { code: 'CONNECT_TIMEOUT' }));
    }, RESERVE_WAIT_MS);
  });
  try {
    return await Promise.race([reserving, late]);
  } finally {
    clearTimeout(timer);
    // A refusal after it was given up is no one's to handle.
    reserving.catch(() => {});
  }
}

/** A transaction's executor: statements, and savepoints (a nested unit). */
export type TransactionSql = Sql & { savepoint<T>(work: (sp: TransactionSql) => Promise<T>): Promise<T> };

/** The client's connection, as a query's `onexecute` hands it over (the client's own transactions use it so). */
interface ClientConnection {
  onclose: ((error: unknown) => void) | null;
}

/**
 * A reserved connection as a transaction's `sql`: every statement asks `guard` first (it
 * throws once the connection closed: nothing is sent on a connection whose socket is
 * gone), and `savepoint` is the transaction's own.
 */
export function guardedConnection(
  reserved: Awaited<ReturnType<Sql['reserve']>>,
  guard: () => void,
  savepoint: <R>(inner: (sp: TransactionSql) => Promise<R>) => Promise<R>,
): TransactionSql {
  return new Proxy(reserved, {
    apply(target, thisArg, args) {
      guard();
      return Reflect.apply(target as unknown as (...a: unknown[]) => unknown, thisArg, args);
    },
    get(target, name, receiver) {
      if (name === 'savepoint') return savepoint;
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'unsafe' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        guard();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as unknown as TransactionSql;
}

/**
 * `work` in one transaction on a connection of `sql`'s pool. Unlike the client's own
 * `begin`, nothing is sent on a connection once it closed: the client (postgres 3.4.9)
 * throws an uncaught TypeError from a timer when a statement is written on a
 * connection whose socket is gone (its `begin` sends ROLLBACK there after a
 * server restart), which ends the process. A statement of `work` after the close
 * fails with CONNECTION_CLOSED instead, and the connection is left to the pool, which
 * opens it again.
 */
export async function transaction<T>(sql: Sql, work: (tx: TransactionSql) => Promise<T>): Promise<T> {
  const reserved = await reserveConnection(sql);
  let lost: unknown;
  const guard = (): void => {
    if (lost !== undefined) throw Object.assign(new Error('the connection to the server closed during the transaction'), { code: 'CONNECTION_CLOSED', cause: lost });
  };
  const tx = guardedConnection(reserved, guard, savepoint);
  let savepoints = 0;
  async function savepoint<R>(inner: (sp: TransactionSql) => Promise<R>): Promise<R> {
    const name = `s${savepoints++}`;
    await tx.unsafe(`SAVEPOINT ${name}`);
    try {
      const result = await inner(tx);
      await tx.unsafe(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      if (lost === undefined && !isConnectionLost(error)) await tx.unsafe(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }
  let connection: ClientConnection | undefined;
  // Given back to the pool only while it is open: a closed one is the pool's already.
  const release = (error?: unknown): void => {
    if (lost !== undefined || (error !== undefined && isConnectionLost(error))) return;
    if (connection !== undefined) connection.onclose = null;
    reserved.release();
  };
  try {
    await reserved.unsafe('BEGIN', [], {
      onexecute: (c: ClientConnection) => {
        connection = c;
        c.onclose = (error) => (lost = error ?? new Error('closed'));
        return true;
      },
    } as never);
  } catch (error) {
    release(error);
    throw error;
  }
  let result: T;
  try {
    result = await work(tx);
    await tx.unsafe('COMMIT');
  } catch (error) {
    if (lost === undefined && !isConnectionLost(error)) {
      try {
        await tx.unsafe('ROLLBACK');
      } catch {
        // Lost meanwhile: the server rolled it back.
      }
    }
    release(error);
    throw error;
  }
  release();
  return result;
}
