// Opening the index database: its folder, the pragmas, the migrations; or, to
// read it, read-only and only when it is an up-to-date index.

import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Database, { type Database as Db } from 'better-sqlite3';
import { StoreError } from '../../errors.js';
import { asCorruption, corruptIndex, isSqliteCorruption } from '../index-corruption.js';
import { checkIndexHeader, hasWalFrames, identifyIndex, markIndex, notIndex } from './index-file.js';
import { defaultMigrationsDir, loadMigrations, migrate, migrationStatus, type Migration, type MigrationStatus } from '../migrations.js';

export interface OpenDatabaseOptions {
  /** Refuse to create the file. @default false */
  readonly mustExist?: boolean;
  /**
   * Open the connection read-only: the file must exist and be an index whose
   * migrations are all applied; nothing is written to it. @default false
   */
  readonly readOnly?: boolean;
}

/**
 * Open a database file to write it (creating its folder), set the pragmas,
 * migrate, and mark it as an index; or open it read-only (`readOnly`).
 * Another program's database is refused before anything is written to it.
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[],
  now: () => number,
  options: OpenDatabaseOptions = {},
): { db: Db; applied: Migration[] } {
  if (options.readOnly === true) return { db: openReadOnly(file, migrations), applied: [] };
  if (options.mustExist === true && file !== ':memory:' && !existsSync(file)) throw missing(file);
  let db: Db;
  try {
    // An existing file is checked as a reader checks it: a truncated index is not extended.
    if (file !== ':memory:' && existsSync(file) && statSync(file).size > 0) checkIndexHeader(file);
    if (file !== ':memory:') ensureFolder(file);
    db = new Database(file);
  } catch (error) {
    throw openFailure(error, file);
  }
  try {
    // Before any pragma that writes (journal_mode changes the header).
    const kind = identifyIndex(db, file);
    if (kind !== 'empty') checkWholeFile(db, file);
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a committed transaction survives the process being killed;
    // only a power loss or OS crash may drop the last commits (never corrupt).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -16384'); // 16 MiB of pages
    // Checkpoint every ~40 MiB of WAL rather than every 4 MiB: index pages dirtied
    // by consecutive batches are then copied back once (2x faster admits, measured).
    db.pragma('wal_autocheckpoint = 10000');
    const applied = migrate(db, migrations, now);
    if (kind !== 'index') markIndex(db);
    return { db, applied };
  } catch (error) {
    db.close();
    throw openFailure(error, file);
  }
}

/** The folder of the default index (`data/linkladder.db`), in the working directory. */
export const DEFAULT_DB_FOLDER = 'data';

/**
 * The folder of a new index must exist, except the default one, which is created: a
 * mistyped `--db` path fails instead of leaving folders behind it.
 */
function ensureFolder(file: string): void {
  const folder = path.dirname(path.resolve(file));
  if (existsSync(folder)) return;
  if (folder === path.resolve(DEFAULT_DB_FOLDER)) {
    mkdirSync(folder);
    return;
  }
  throw new StoreError('ERR_STORE_OPEN', `cannot open ${file}: the folder ${path.dirname(file)} does not exist (only the default ${DEFAULT_DB_FOLDER}/ is created)`);
}

function openReadOnly(file: string, migrations: readonly Migration[]): Db {
  if (file === ':memory:') throw new StoreError('ERR_STORE_OPEN', 'an in-memory database has no index to read');
  if (!existsSync(file)) throw missing(file);
  const db = openExistingReadOnly(file);
  try {
    const kind = identifyIndex(db, file);
    if (kind === 'empty') throw notIndex(file, 'a SQLite database without tables');
    db.pragma('busy_timeout = 5000');
    checkWholeFile(db, file);
    // Check each page's cells as it is read: more damage is found, at little cost.
    db.pragma('cell_size_check = ON');
    const pending = migrationStatus(db, migrations).filter((m) => m.appliedAt === undefined);
    if (pending.length > 0) {
      const names = pending.map((m) => `${String(m.version).padStart(3, '0')}_${m.name}`).join(', ');
      throw new StoreError(
        'ERR_STORE_OUTDATED',
        `the index ${file} was written by an older linkladder (ERR_STORE_OUTDATED): migrations ${names} are pending; ` +
          `read commands never write: run \`linkladder db migrate --db ${file}\` (or a crawl) first`,
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw openFailure(error, file);
  }
}

/** A file that exists, opened read-only once its header says it is whole. */
function openExistingReadOnly(file: string): Db {
  let db: Db | undefined;
  try {
    checkIndexHeader(file);
    db = new Database(file, { readonly: true, fileMustExist: true });
    // SQLite opens the file on the first read, and the `-shm` file beside it with it.
    db.pragma('schema_version');
    return db;
  } catch (error) {
    db?.close();
    if (isCantOpen(error) && !canWriteBeside(file)) return openInMemory(file);
    throw openFailure(error, file);
  }
}

/**
 * A WAL index in a folder nothing may be written to (a read-only mount, a folder
 * without write permission): SQLite cannot make the `-shm` file a reader needs
 * (https://www.sqlite.org/wal.html#readonly), and this build takes no
 * `immutable=1` URI. The reader reads a copy in memory, as big as the file. A
 * write-ahead log with pages the file lacks cannot be read so: refused, not ignored.
 */
function openInMemory(file: string): Db {
  if (hasWalFrames(file)) {
    throw new StoreError(
      'ERR_STORE_OPEN',
      `cannot open ${file}: its folder is read-only and its write-ahead log (${path.basename(file)}-wal) holds pages SQLite reads only with a -shm file beside it; copy both files to a writable folder`,
    );
  }
  try {
    const bytes = readFileSync(file);
    // Header bytes 18-19 (write and read versions) say WAL (2); an in-memory database has no WAL (1: rollback journal).
    // https://www.sqlite.org/fileformat2.html#file_format_version_numbers
    bytes[18] = 1;
    bytes[19] = 1;
    const db = new Database(bytes, { readonly: true });
    inMemoryFiles.set(db, file);
    return db;
  } catch (error) {
    throw openFailure(error, file);
  }
}

/** The file of each index read from a copy in memory. */
const inMemoryFiles = new WeakMap<Db, string>();

/** The file `db` reads, for messages (`db.name` of a copy in memory is `:memory:`). */
export function fileOf(db: Db): string {
  return inMemoryFiles.get(db) ?? db.name;
}

function isCantOpen(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && (error.code.startsWith('SQLITE_CANTOPEN') || error.code.startsWith('SQLITE_READONLY'));
}

/** Whether a file can be created beside `file` (false on a read-only mount, or in a folder without write permission). */
function canWriteBeside(file: string): boolean {
  try {
    accessSync(path.dirname(path.resolve(file)), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every page of the file checked before a command reads or writes it (`PRAGMA
 * quick_check`: each b-tree's pages and cells, not the indexes against their
 * tables): damage in a part the command would not read still stops it, rather than
 * let it print numbers from part of a file or write on into a malformed one. It
 * reads the whole file: 0.15 s for a 44 MB index, 1.5 s for 180 MB (2 loaded cores).
 */
function checkWholeFile(db: Db, file: string): void {
  const problems = (db.pragma('quick_check(3)') as { quick_check: string }[]).map((row) => row.quick_check).filter((row) => row !== 'ok');
  if (problems.length > 0) throw corruptIndex(file, problems.join('; '));
}

function missing(file: string): StoreError {
  return new StoreError('ERR_STORE_OPEN', `no index database at ${file}`);
}

// Not a database, damaged, read-only, locked: say which file, with a code.
function openFailure(error: unknown, file: string): unknown {
  if (error instanceof StoreError) return error;
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'SQLITE_NOTADB') return notIndex(file, 'not a SQLite database');
  if (isSqliteCorruption(error)) return asCorruption(error, file);
  return new StoreError('ERR_STORE_OPEN', `cannot open ${file}: ${(error as Error).message}`, { cause: error });
}

/**
 * The migration status of a database file, read-only (a file that does not exist
 * has every migration pending; it is not created). Another program's file is refused.
 */
export function readMigrationStatus(file: string, migrationsDir?: string): MigrationStatus[] {
  const migrations = loadMigrations(migrationsDir ?? defaultMigrationsDir());
  const allPending = (): MigrationStatus[] => migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: undefined }));
  if (file !== ':memory:' && !existsSync(file)) return allPending();
  const db = openExistingReadOnly(file);
  try {
    if (identifyIndex(db, file) === 'empty') return allPending();
    const status = migrationStatus(db, migrations);
    checkWholeFile(db, file);
    return status;
  } catch (error) {
    throw openFailure(error, file);
  } finally {
    db.close();
  }
}
