// The dedup index: seen-set, frontier, link graph and protocol-rung evidence,
// behind the IndexStore interface (SQLite by default, in memory for tests).

export type {
  IndexStore,
  AdmitEntry,
  AdmitResult,
  AliasRecord,
  BaseLevel,
  ClaimedUrl,
  FetchRecord,
  MatchRung,
  RedirectHop,
  StoreStats,
  UrlRecord,
  UrlState,
} from './types.js';
export { MATCH_RUNGS, URL_STATES } from './types.js';
export { SqliteStore, DEFAULT_DB_PATH, openDatabase, readMigrationStatus, type SqliteStoreOptions } from './sqlite-store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { DEFAULT_CACHE_SIZE } from './admitter.js';
export {
  defaultMigrationsDir,
  loadMigrations,
  migrate,
  migrationStatus,
  type Migration,
  type MigrationStatus,
} from './migrations.js';
