// Programmatic access to the dedup index.

import { SqliteStore, type IndexWriter, type SqliteStoreOptions } from './store/index.js';

export type OpenIndexOptions = SqliteStoreOptions;

/**
 * Open (creating and migrating as needed; its folder must exist, but for the default data/) the SQLite index at `options.path`
 * (default `data/linkladder.db`; `:memory:` for a private one), holding its writer
 * lock until `close()` (ERR_STORE_LOCKED while another running process writes it);
 * `readOnly: true` opens an existing index to read it, writing nothing. Throws `StoreError`.
 */
export function openIndex(options?: OpenIndexOptions): IndexWriter {
  return new SqliteStore(options);
}
