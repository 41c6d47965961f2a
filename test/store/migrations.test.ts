import { cpSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, loadMigrations, migrate, readMigrationStatus, SqliteStore } from '../../src/store/index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratch(): { dir: string; migrations: string; db: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-migrations-'));
  folders.push(dir);
  const migrations = path.join(dir, 'migrations');
  cpSync(defaultMigrationsDir(), migrations, { recursive: true });
  return { dir, migrations, db: path.join(dir, 'index.db') };
}

const schemaOf = (file: string): string => {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare(`SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type DESC, name`).pluck().all() as string[];
  db.close();
  return rows.join(';\n\n') + ';\n';
};

describe('migrations', () => {
  it('migrate an empty database to the latest schema (snapshot)', async () => {
    const { db } = scratch();
    new SqliteStore({ path: db }).close();
    await expect(schemaOf(db)).toMatchFileSnapshot('./__snapshots__/schema.sql');
  });

  it('records each migration with its sha256, and a second open is a no-op', () => {
    const { db, migrations } = scratch();
    new SqliteStore({ path: db, migrationsDir: migrations }).close();
    const raw = new Database(db);
    const applied = loadMigrations(migrations);
    expect(raw.prepare('SELECT version, name, sha256 FROM schema_migrations').all()).toEqual(
      applied.map((m) => ({ version: m.version, name: m.name, sha256: m.sha256 })),
    );
    expect(migrate(raw, applied, Date.now)).toEqual([]);
    raw.close();
    const store = new SqliteStore({ path: db, migrationsDir: migrations });
    expect(store.appliedMigrations).toEqual([]);
    store.close();
    expect(readMigrationStatus(db, migrations).every((m) => m.appliedAt !== undefined)).toBe(true);
    expect(readMigrationStatus(path.join(path.dirname(db), 'absent.db'), migrations)).toEqual([
      { version: 1, name: 'initial', appliedAt: undefined },
    ]);
  });

  it('refuses a database whose applied migration file was altered, naming the file', () => {
    const { db, migrations } = scratch();
    new SqliteStore({ path: db, migrationsDir: migrations }).close();
    appendFileSync(path.join(migrations, '001_initial.sql'), '\n-- edited\n');
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_MIGRATION_ALTERED', message: expect.stringContaining('001_initial.sql') }),
    );
  });

  it('refuses a database with a migration this program does not know', () => {
    const { db, migrations, dir } = scratch();
    const newer = path.join(dir, 'newer');
    cpSync(migrations, newer, { recursive: true });
    writeFileSync(path.join(newer, '002_extra_table.sql'), 'CREATE TABLE extra (id INTEGER PRIMARY KEY);\n');
    new SqliteStore({ path: db, migrationsDir: newer }).close();
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_MIGRATION_UNKNOWN', message: expect.stringContaining('002_extra_table') }),
    );
  });

  it('applies a failing migration not at all', () => {
    const { db, migrations } = scratch();
    writeFileSync(path.join(migrations, '002_half_done.sql'), 'CREATE TABLE half (id INTEGER);\nCREATE TABLE url (id INTEGER);\n');
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(/already exists/);
    const raw = new Database(db);
    expect(raw.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'half'`).pluck().get()).toBe(0);
    expect(raw.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(1);
    raw.close();
  });

  it('rejects badly named or non-contiguous files', () => {
    const { migrations } = scratch();
    writeFileSync(path.join(migrations, '003_gap.sql'), '');
    expect(() => loadMigrations(migrations)).toThrow(expect.objectContaining({ code: 'ERR_STORE_MIGRATION_NAME' }));
    rmSync(path.join(migrations, '003_gap.sql'));
    writeFileSync(path.join(migrations, '002-Bad Name.sql'), '');
    expect(() => loadMigrations(migrations)).toThrow(expect.objectContaining({ code: 'ERR_STORE_MIGRATION_NAME' }));
  });

  it('creates the folder of the database, and says clearly when it cannot open it', () => {
    const { dir } = scratch();
    const store = new SqliteStore({ path: path.join(dir, 'nested', 'deeper', 'x.db') });
    expect(store.integrityCheck()).toBe('ok');
    store.close();
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(() => new SqliteStore({ path: path.join(dir, 'a-file', 'x.db') })).toThrow(expect.objectContaining({ code: 'ERR_STORE_OPEN' }));
  });
});
