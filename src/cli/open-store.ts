// Opening the index for a command, with one clear line when it fails. `--db` names
// a file (SQLite) or a PostgreSQL database (`postgres://user@host:port/db`);
// a URL is never taken for a path (nothing is created on disk for it), and no
// message shows its password.

import {
  PgStore,
  SqliteStore,
  connectPg,
  isPostgresUrl,
  openIndexReader,
  openPgIndexReader,
  redactUrl,
  type IndexReader,
  type IndexWriter,
  type PgSql,
} from '../store/index.js';

/** An index a command writes, and reads for reports as it goes (the crawl keeps its run's findings). */
export type WritableIndex = IndexWriter & { reader(): IndexReader };

/**
 * Open the index at `file`: to write it (created and migrated as needed, holding
 * its writer lock), or `readOnly`, as the read commands do (it must exist and be
 * an up-to-date index; nothing is written). The store reports a file it cannot
 * open with its path (`ERR_STORE_*`); anything else gets the path here. Either way
 * the error reaches run-cli: exit 3.
 */
export function openStore(file: string, options: { readonly readOnly?: boolean } = {}): SqliteStore {
  try {
    return new SqliteStore({ path: file, readOnly: options.readOnly === true });
  } catch (error) {
    throw asOpenError(error, file);
  }
}

/** How a PostgreSQL index is reached (`--db-pool-size`, `--db-transaction-pooling`); a file ignores it. */
export interface PgConnection {
  /** Connections in the pool at most. @default 4 */
  readonly poolSize?: number | undefined;
  /** Through a pooler in transaction mode (PgBouncer): no named prepared statements. @default false */
  readonly transactionPooling?: boolean | undefined;
}

/** PgStore's options for `connection`. */
export function pgStoreOptions(connection: PgConnection): { maxConnections?: number; transactionPooling?: boolean } {
  return {
    ...(connection.poolSize === undefined ? {} : { maxConnections: connection.poolSize }),
    ...(connection.transactionPooling === true ? { transactionPooling: true } : {}),
  };
}

/**
 * Open the index `db` names to write it: a file as `openStore` does, or a PostgreSQL
 * database (migrated as needed; any number of workers may write it at once).
 */
export async function openWritableIndex(db: string, connection: PgConnection = {}): Promise<WritableIndex> {
  if (!isPostgresUrl(db)) return openStore(db);
  try {
    return await PgStore.open({ url: db, ...pgStoreOptions(connection) });
  } catch (error) {
    throw asOpenError(error, redactUrl(db));
  }
}

/** Open the index `db` names as `explain` reads it: its writer's reads (history, aliases, robots.txt), nothing written. */
export async function openReadOnlyIndex(db: string, connection: PgConnection = {}): Promise<IndexWriter> {
  if (!isPostgresUrl(db)) return openStore(db, { readOnly: true });
  try {
    return await PgStore.open({ url: db, readOnly: true, ...pgStoreOptions(connection) });
  } catch (error) {
    throw asOpenError(error, redactUrl(db));
  }
}

/** Open the index `db` names for reports: it must exist and be up to date; nothing is written. */
export async function openReader(db: string, connection: PgConnection = {}): Promise<IndexReader> {
  if (!isPostgresUrl(db)) return openIndexReader(db);
  try {
    return await openPgIndexReader(db, { transactionPooling: connection.transactionPooling === true });
  } catch (error) {
    throw asOpenError(error, redactUrl(db));
  }
}

/**
 * Run `work` on a connection to the PostgreSQL database `url` (`db migrate`, `db
 * status`), then close it. A failure to connect names the database, not its password.
 */
export async function onPgDatabase<T>(url: string, work: (sql: PgSql) => Promise<T>, connection: PgConnection = {}): Promise<T> {
  const label = `the index at ${redactUrl(url)}`;
  let sql: PgSql;
  try {
    sql = connectPg(url, { max: 1, isTransactionPooling: connection.transactionPooling === true });
  } catch (error) {
    throw asOpenError(error, label);
  }
  try {
    return await work(sql);
  } catch (error) {
    throw asOpenError(error, label);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The index as messages name it: the path, or the URL without its password. */
export function indexLabel(db: string): string {
  return isPostgresUrl(db) ? redactUrl(db) : db;
}

/**
 * The notice a writer gives when it took over the lock of a process that is gone.
 * A PostgreSQL index has no writer lock, hence never this notice: any number of
 * workers write it at once, each claim held by a lease.
 */
export function lockTakeoverNotice(file: string, store: IndexWriter): string | undefined {
  if (!(store instanceof SqliteStore)) return undefined;
  const holder = store.lockTakenOverFrom;
  if (holder === undefined) return undefined;
  const since = new Date(holder.since).toISOString();
  return `linkladder: notice: took over the writer lock of ${file} from pid ${holder.pid} on host ${holder.host} (since ${since}), which is no longer running`;
}

/** The store's own errors name the index already; anything else (a bad URL, a file system error) gets `label` here. */
function asOpenError(error: unknown, label: string): unknown {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && code.startsWith('ERR_STORE_')) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`cannot open ${label}: ${message}`, { cause: error });
}
