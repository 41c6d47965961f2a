// Programmatic access to the dedup index: one way in, whichever store holds it.

import {
  DEFAULT_DB_PATH,
  PgStore,
  SqliteStore,
  isPostgresUrl,
  openIndexReader as openSqliteIndexReader,
  openPgIndexReader,
  type IndexReader,
  type IndexWriter,
  type PgStoreOptions,
  type SqliteStoreOptions,
} from './store/index.js';

/**
 * How to open the index. Each store reads the options it knows and ignores the
 * others: `mustExist`, `recoverClaims`, `writerLock` and `groupCommit` are SQLite's;
 * `workerId`, `leaseMs`, `leaseClock`, `reconnectMs` and `maxConnections` PostgreSQL's.
 * `migrationsDir` is the folder of the store opened (SQLite's, or PostgreSQL's).
 */
export type OpenIndexOptions = Omit<SqliteStoreOptions, 'path'> & Omit<PgStoreOptions, 'url'>;

/**
 * Open the index `pathOrUrl` names, to write it (created and migrated as needed).
 * - A file path (default `data/linkladder.db`; its folder must exist, but for the
 *   default `data/`), or `:memory:` for a private one: the SQLite index, holding its
 *   writer lock until `close()` (ERR_STORE_LOCKED while another running process writes it).
 * - A `postgres://` or `postgresql://` URL: a PostgreSQL database that any number of
 *   workers write at once, each claim held by a lease; what `crawl()` opens for such a `db`.
 *
 * `readOnly: true` opens an existing, up-to-date index to read it, writing nothing.
 * Throws (rejects with) `StoreError`.
 */
export async function openIndex(pathOrUrl: string = DEFAULT_DB_PATH, options: OpenIndexOptions = {}): Promise<IndexWriter> {
  if (isPostgresUrl(pathOrUrl)) return PgStore.open({ ...options, url: pathOrUrl });
  return new SqliteStore({ ...options, path: pathOrUrl });
}

/**
 * Open the index `pathOrUrl` names for reports (a file path, or a `postgres://` URL, as
 * `openIndex` takes): it must exist and be up to date; nothing is written.
 */
export async function openIndexReader(pathOrUrl: string = DEFAULT_DB_PATH): Promise<IndexReader> {
  return isPostgresUrl(pathOrUrl) ? openPgIndexReader(pathOrUrl) : openSqliteIndexReader(pathOrUrl);
}
