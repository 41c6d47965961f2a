// The migration runner: `migrations/NNN_name.sql` (DDL only, forward-only, never
// edited once merged), applied in order, each with its `schema_migrations` row
// (version, name, sha256) in one transaction, so that a database with an unknown or
// altered migration is refused.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from 'better-sqlite3';
import { StoreError } from '../errors.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly file: string;
  readonly sql: string;
  readonly sha256: string;
}

export interface MigrationStatus {
  readonly version: number;
  readonly name: string;
  readonly appliedAt: number | undefined;
}

const FILE_NAME = /^(\d{3})_([a-z0-9]+(?:_[a-z0-9]+)*)\.sql$/;

/** The `migrations/` folder of the installed package (found from this file, in src/ or dist/src/). */
export function defaultMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'migrations'))) {
      return path.join(dir, 'migrations');
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new StoreError('ERR_STORE_OPEN', 'cannot find the migrations/ folder of linkladder');
    dir = parent;
  }
}

/** Read and check the migration files: named NNN_snake_name.sql, numbered 1, 2, 3, … */
export function loadMigrations(dir: string): Migration[] {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  return files.map((file, position) => {
    const match = FILE_NAME.exec(file);
    if (!match) throw new StoreError('ERR_STORE_MIGRATION_NAME', `migration ${file}: expected NNN_snake_name.sql`);
    const version = Number(match[1]);
    if (version !== position + 1) {
      throw new StoreError('ERR_STORE_MIGRATION_NAME', `migration ${file}: expected number ${String(position + 1).padStart(3, '0')}`);
    }
    const sql = readFileSync(path.join(dir, file), 'utf8');
    return { version, name: match[2]!, file, sql, sha256: createHash('sha256').update(sql).digest('hex') };
  });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT`;

/** A `schema_migrations` row. */
export interface AppliedRow {
  version: number;
  name: string;
  sha256: string;
  applied_at: number;
}

function appliedRows(db: Database): AppliedRow[] {
  if (!db.readonly) db.exec(CREATE_TABLE);
  return db.prepare('SELECT version, name, sha256, applied_at FROM schema_migrations ORDER BY version').all() as AppliedRow[];
}

/** Refuse a database that has a migration we do not know, or whose file changed since (`folder` names the migrations' folder). */
export function checkApplied(applied: readonly AppliedRow[], migrations: readonly Migration[], folder = 'migrations/'): void {
  for (const row of applied) {
    const migration = migrations[row.version - 1];
    if (migration === undefined || migration.name !== row.name) {
      throw new StoreError(
        'ERR_STORE_MIGRATION_UNKNOWN',
        `the database has migration ${String(row.version).padStart(3, '0')}_${row.name}, which ${folder} does not have`,
      );
    }
    if (migration.sha256 !== row.sha256) {
      throw new StoreError(
        'ERR_STORE_MIGRATION_ALTERED',
        `${folder}${migration.file} was changed after it was applied (sha256 ${migration.sha256}, applied ${row.sha256}); add a new migration instead`,
      );
    }
  }
}

/** Apply every pending migration, each in its own transaction. Returns the ones applied. */
export function migrate(db: Database, migrations: readonly Migration[], now: () => number): Migration[] {
  const applied = appliedRows(db);
  checkApplied(applied, migrations);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)');
  const pending = migrations.slice(applied.length);
  if (pending.length === 0) return pending;
  // A migration may rebuild a table that others reference (SQLite's documented
  // 12-step ALTER): foreign keys are off while it runs (the pragma cannot change
  // inside a transaction) and checked before it commits.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (const migration of pending) {
      db.transaction(() => {
        db.exec(migration.sql);
        const violation = db.prepare('PRAGMA foreign_key_check').get() as { table: string } | undefined;
        if (violation !== undefined) {
          throw new StoreError('ERR_STORE_MIGRATION_FAILED', `migration ${migration.file} leaves a broken reference in table ${violation.table}`);
        }
        record.run(migration.version, migration.name, migration.sha256, now());
      })();
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys === 1 ? 'ON' : 'OFF'}`);
  }
  return pending;
}

/** Every known migration with the time it was applied, if it was. */
export function migrationStatus(db: Database, migrations: readonly Migration[]): MigrationStatus[] {
  const applied = appliedRows(db);
  checkApplied(applied, migrations);
  return migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: applied[m.version - 1]?.applied_at }));
}
