// The dedup index: seen-set, frontier, link graph and protocol-rung evidence,
// behind two contracts: IndexWriter for the crawl, IndexReader for reports
// (SQLite by default, in memory for tests).

export type {
  IndexWriter,
  AdmissionWriter,
  FrontierWriter,
  FetchLogWriter,
  EvidenceWriter,
  RunWriter,
  SitemapWriter,
  RobotsWriter,
  ArchiveWriter,
  ArchivedRecord,
  WriterUnits,
  SharedFrontier,
  SharedPoliteness,
  FrontierIdle,
  AdmitEntry,
  AdmitResult,
  AliasRecord,
  BaseLevel,
  ClaimedUrl,
  CrawlRunStart,
  CrawlRunEnd,
  CrawlRunRow,
  FetchMethod,
  FetchProtocol,
  FetchRecord,
  MatchRung,
  RedirectHop,
  StoreStats,
  UrlRecord,
  UrlRole,
  Verdict,
  UrlState,
  UrlHistory,
  FirstLink,
  FetchRow,
  AliasRow,
  IndexReader,
  UrlRow,
  FormRow,
  LinkRow,
  EdgeRow,
  Funnel,
  FindingIdentity,
  SitemapRecord,
  SitemapQueueEntry,
  SitemapQueueRow,
  SitemapSettlement,
  SitemapState,
  SitemapFindingRecord,
  SitemapEntryRecord,
  SitemapRow,
  SitemapEntryRow,
  WorkerRow,
  DuplicateBodyRow,
} from './types.js';
export { MATCH_RUNGS, URL_STATES, zeroCounts, ARCHIVED_RECORD_TYPES } from './types.js';
export {
  URL_OPERATIONS,
  URL_TRANSITIONS,
  URL_MOVES,
  STORE_BACKENDS,
  fromStates,
  mayMove,
  stateIn,
  type UrlOperation,
  type UrlOrigin,
  type UrlTransition,
  type UrlMove,
  type StoreBackend,
} from './url-state-machine.js';
export { SqliteStore, DEFAULT_DB_PATH, openIndexReader, unlockIndex, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { readMigrationStatus } from './sqlite/sqlite-database.js';
export { LINKLADDER_APPLICATION_ID } from './sqlite/index-file.js';
export type { WriterLockHolder } from './sqlite/writer-lock.js';
export { isProcessRunning } from './sqlite/writer-lock.js';
export { MemoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
export { PgStore, type PgStoreOptions } from './pg/pg-store.js';
export { isPostgresUrl, redactUrl, PG_POOL_SIZE } from './pg/pg-database.js';
export { GROUP_COMMIT_DEFAULTS, type GroupCommitOptions } from './write-units.js';
export {
  defaultMigrationsDir,
  loadMigrations,
  migrate,
  type Migration,
  type MigrationStatus,
} from './migrations.js';
// PostgreSQL: many workers share one index.
export { PgIndexReader, openPgIndexReader } from './pg/pg-reader.js';
export { migratePgIndex, partitionCount, partitionPg, PG_PARTITIONS, PARTITIONED_TABLES } from './pg/pg-partitions.js';
export { connect as connectPg, migratePg, migrationStatusPg, type Sql as PgSql } from './pg/pg-database.js';
export { digestGroups } from './duplicate-bodies.js';
