import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** The number the next migration file of `dir` would take, as NNN. */
const nextNumber = (dir: string): string => String(loadMigrations(dir).length + 1).padStart(3, '0');

const schemaOf = (file: string): string => {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare(`SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type DESC, name`).pluck().all() as string[];
  db.close();
  return rows.join(';\n\n') + ';\n';
};

describe('migrations', () => {
  it('migrate an empty database to the latest schema (snapshot)', async () => {
    const { db } = scratch();
    await new SqliteStore({ path: db }).close();
    await expect(schemaOf(db)).toMatchFileSnapshot('./__snapshots__/schema.sql');
  });

  it('records each migration with its sha256, and a second open is a no-op', async () => {
    const { db, migrations } = scratch();
    await new SqliteStore({ path: db, migrationsDir: migrations }).close();
    const raw = new Database(db);
    const applied = loadMigrations(migrations);
    expect(raw.prepare('SELECT version, name, sha256 FROM schema_migrations').all()).toEqual(
      applied.map((m) => ({ version: m.version, name: m.name, sha256: m.sha256 })),
    );
    expect(migrate(raw, applied, Date.now)).toEqual([]);
    raw.close();
    const store = new SqliteStore({ path: db, migrationsDir: migrations });
    expect(store.appliedMigrations).toEqual([]);
    await store.close();
    expect(readMigrationStatus(db, migrations).every((m) => m.appliedAt !== undefined)).toBe(true);
    expect(readMigrationStatus(path.join(path.dirname(db), 'absent.db'), migrations)).toEqual(
      applied.map((m) => ({ version: m.version, name: m.name, appliedAt: undefined })),
    );
  });

  it('refuses a database whose applied migration file was altered, naming the file', async () => {
    const { db, migrations } = scratch();
    await new SqliteStore({ path: db, migrationsDir: migrations }).close();
    appendFileSync(path.join(migrations, '001_initial.sql'), '\n-- edited\n');
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_MIGRATION_ALTERED', message: expect.stringContaining('001_initial.sql') }),
    );
  });

  it('refuses a database with a migration this program does not know', async () => {
    const { db, migrations, dir } = scratch();
    const newer = path.join(dir, 'newer');
    cpSync(migrations, newer, { recursive: true });
    writeFileSync(path.join(newer, `${nextNumber(migrations)}_extra_table.sql`), 'CREATE TABLE extra (id INTEGER PRIMARY KEY);\n');
    await new SqliteStore({ path: db, migrationsDir: newer }).close();
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_MIGRATION_UNKNOWN', message: expect.stringContaining('_extra_table') }),
    );
  });

  it('applies a failing migration not at all', () => {
    const { db, migrations } = scratch();
    const latest = loadMigrations(migrations).length;
    writeFileSync(path.join(migrations, `${nextNumber(migrations)}_half_done.sql`), 'CREATE TABLE half (id INTEGER);\nCREATE TABLE url (id INTEGER);\n');
    expect(() => new SqliteStore({ path: db, migrationsDir: migrations })).toThrow(/already exists/);
    const raw = new Database(db);
    expect(raw.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'half'`).pluck().get()).toBe(0);
    expect(raw.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(latest);
    raw.close();
  });

  it('rejects badly named or non-contiguous files', () => {
    const { migrations } = scratch();
    const gap = `${String(loadMigrations(migrations).length + 2).padStart(3, '0')}_gap.sql`;
    writeFileSync(path.join(migrations, gap), '');
    expect(() => loadMigrations(migrations)).toThrow(expect.objectContaining({ code: 'ERR_STORE_MIGRATION_NAME' }));
    rmSync(path.join(migrations, gap));
    writeFileSync(path.join(migrations, `${nextNumber(migrations)}-Bad Name.sql`), '');
    expect(() => loadMigrations(migrations)).toThrow(expect.objectContaining({ code: 'ERR_STORE_MIGRATION_NAME' }));
  });

  it('002 moves the links of a 001 database into page rows, keeps every form, and learns each URL\'s first link', async () => {
    const { dir, db, migrations } = scratch();
    const only001 = path.join(dir, 'only-001');
    cpSync(migrations, only001, { recursive: true });
    for (const m of loadMigrations(migrations).slice(1)) rmSync(path.join(only001, m.file));
    const old = new Database(db);
    migrate(old, loadMigrations(only001), Date.now);
    old.exec(`
      INSERT INTO url (id, key, scheme, host, state, depth, first_seen) VALUES
        (1, 'http://h/', 'http', 'h', 'done', 0, 1), (2, 'http://h/a', 'http', 'h', 'queued', 1, 1), (3, 'http://h/b', 'http', 'h', 'queued', 1, 1);
      INSERT INTO form (text, url_id, rung) VALUES ('HTTP://h/a', 2, 'string');
      INSERT INTO link (from_url, position, to_url, raw_href, fragment, element, attribute, base_level, rung, error) VALUES
        (1, 0, 2, 'a', NULL, 'a', 'href', 'retrieval', 'new', NULL),
        (1, 1, 2, 'HTTP://h/a', 'x', 'a', 'href', 'retrieval', 'syntax', NULL),
        (1, 2, 3, 'b', NULL, 'img', 'src', 'base-element', 'new', NULL),
        (1, 3, NULL, 'http://[', NULL, 'a', 'href', NULL, NULL, 'ERR_URI_BAD_IP_LITERAL');`);
    const before = old.prepare('SELECT * FROM link ORDER BY from_url, position').all();
    old.close();
    const store = new SqliteStore({ path: db, migrationsDir: migrations });
    expect(store.appliedMigrations.map((m) => m.version)).toEqual(loadMigrations(migrations).slice(1).map((m) => m.version));
    expect(store.integrityCheck()).toBe('ok');
    expect((await store.history(2))?.firstLink).toEqual({ fromUrlId: 1, fromKey: 'http://h/', rawHref: 'a', element: 'a', attribute: 'href' });
    expect((await store.history(3))?.firstLink).toEqual({ fromUrlId: 1, fromKey: 'http://h/', rawHref: 'b', element: 'img', attribute: 'src' });
    expect(await store.stats()).toMatchObject({ links: 4, linksWithoutTarget: 1, linksByRung: { new: 2, syntax: 1 } });
    // The form survived, and keys are found without their old UNIQUE index.
    expect((await store.admit([{ fromUrlId: 1, rawHref: 'HTTP://h/a', target: 'HTTP://h/a' }]))[0]).toMatchObject({ urlId: 2, rung: 'string' });
    expect((await store.admit([{ fromUrlId: 1, rawHref: 'b', target: 'http://h/b' }]))[0]).toMatchObject({ urlId: 3, rung: 'string' });
    await store.close();
    const raw = new Database(db, { readonly: true });
    const after = raw
      .prepare('SELECT from_url, position, to_url, raw_href, fragment, element, attribute, base_level, rung, error FROM link WHERE position < 4 ORDER BY from_url, position')
      .all();
    raw.close();
    expect(after).toEqual(before);
  });

  it('012: the fetch rows of an 011 index have no verdict; the audit and stats derive it with the default policy, by role; new rows keep theirs', async () => {
    const { dir, db, migrations } = scratch();
    const upTo011 = path.join(dir, 'up-to-011');
    cpSync(migrations, upTo011, { recursive: true });
    for (const m of loadMigrations(migrations).filter((m) => m.version > 11)) rmSync(path.join(upTo011, m.file));
    const old = new Database(db);
    migrate(old, loadMigrations(upTo011), Date.now);
    old.exec(`
      INSERT INTO url (id, key, scheme, host, state, depth, first_seen, role) VALUES
        (1, 'http://h/', 'http', 'h', 'done', 0, 1, 'page'), (2, 'http://h/gone', 'http', 'h', 'done', 1, 1, 'page'),
        (3, 'http://x/wall', 'http', 'x', 'done', 1, 1, 'external'), (4, 'http://h/busy', 'http', 'h', 'done', 1, 1, 'page');
      INSERT INTO fetch (url_id, started_at, status, content_type, method) VALUES
        (1, 1, 200, 'text/html', 'GET'), (2, 2, 404, 'text/html', 'GET'), (3, 3, 403, NULL, 'HEAD'), (4, 4, 503, 'text/html', 'GET');
      INSERT INTO page_link (from_url, first_position, count, links) VALUES
        (1, 0, 3, '[[2,"gone",null,"a","href","retrieval","new",null,null,null,null,null,1,1],' ||
                  '[3,"http://x/wall",null,"a","href","retrieval","new",null,null,null,null,null,2,1],' ||
                  '[4,"busy",null,"a","href","retrieval","new",null,null,null,null,null,3,1]]');`);
    old.close();

    const store = new SqliteStore({ path: db, migrationsDir: migrations });
    const reader = store.reader();
    const rows = [];
    for await (const url of reader.urls()) rows.push(url);
    expect(rows.map((url) => url.lastFetch?.verdict)).toEqual([undefined, undefined, undefined, undefined]);
    const { audit } = await import('../../src/report/index.js');
    const { checkedCounts } = await import('../../src/crawl/index.js');
    const findings = [];
    for await (const finding of audit(reader)) findings.push(finding);
    expect(findings.map((f) => [f.rawHref, f.code, f.verdict])).toEqual([
      ['gone', 'LINK_BROKEN', 'broken'],
      ['http://x/wall', 'LINK_UNVERIFIED', 'unverified'],
      ['busy', 'LINK_UNVERIFIED', 'unverified'],
    ]);
    expect(await checkedCounts(reader)).toEqual({ verdicts: { ok: 1, broken: 1, unverified: 2 }, broken: { 'client-error': 1, 'server-error': 0, failed: 0 } });
    await store.recordFetch({ urlId: 4, outcome: 'done', startedAt: 5, status: 503, method: 'GET', verdict: 'broken' });
    expect((await reader.url(4))?.lastFetch?.verdict).toBe('broken');
    await store.close();
  });

  it('010: the links of a 009 index (format 1) read as before beside new ones (format 2), by the reader and the link view alike', async () => {
    const { dir, db, migrations } = scratch();
    const upTo009 = path.join(dir, 'up-to-009');
    cpSync(migrations, upTo009, { recursive: true });
    for (const m of loadMigrations(migrations).filter((m) => m.version > 9)) rmSync(path.join(upTo009, m.file));
    const old = new Database(db);
    migrate(old, loadMigrations(upTo009), Date.now);
    old.exec(`
      INSERT INTO url (id, key, scheme, host, state, depth, first_seen) VALUES
        (1, 'http://h/', 'http', 'h', 'done', 0, 1), (2, 'http://h/a', 'http', 'h', 'queued', 1, 1), (3, 'http://h/b', 'http', 'h', 'alias', 1, 1);
      INSERT INTO page_link (from_url, first_position, count, links) VALUES
        (1, 0, 3, '[[2,"a",null,"a","href","retrieval","new",null,null,null,null,null,4,7],' ||
                  '[2,"b#x","x","a","href","retrieval","protocol","scheme",null,["REF_X"],null,3,5,1],' ||
                  '[null,"http://[",null,"a","href",null,null,null,"ERR_URI_BAD_IP_LITERAL"]]');`);
    const viewColumns = 'from_url, position, to_url, raw_href, fragment, element, attribute, base_level, rung, ladder_rung, error, findings, alternate_target, met_url, line, "column"';
    const before = old.prepare(`SELECT ${viewColumns} FROM link ORDER BY position`).all();
    old.close();

    const store = new SqliteStore({ path: db, migrationsDir: migrations });
    await store.admit([{ fromUrlId: 1, rawHref: 'c#y', target: 'http://h/c#y', element: 'img', attribute: 'src', baseLevel: 'retrieval', line: 9, column: 2 }]);
    const read = [];
    for await (const link of store.reader().links()) read.push(link);
    await store.close();
    expect(read.map((l) => [l.position, l.rawHref, l.fragment, l.rung, l.ladderRung, l.metUrlId, l.findings, l.error, l.line, l.column])).toEqual([
      [0, 'a', undefined, 'new', 'new', 2, [], undefined, 4, 7],
      [1, 'b#x', 'x', 'protocol', 'scheme', 3, ['REF_X'], undefined, 5, 1],
      [2, 'http://[', undefined, undefined, undefined, undefined, [], 'ERR_URI_BAD_IP_LITERAL', undefined, undefined],
      [3, 'c#y', 'y', 'new', 'new', 4, [], undefined, 9, 2],
    ]);

    const raw = new Database(db, { readonly: true });
    expect(raw.prepare('SELECT format FROM page_link ORDER BY first_position').pluck().all()).toEqual([1, 2]);
    const after = raw.prepare(`SELECT ${viewColumns} FROM link ORDER BY position`).all() as Record<string, unknown>[];
    raw.close();
    expect(after.slice(0, 3)).toEqual(before);
    // The new row reads through the view as the reader reads it.
    expect(after[3]).toEqual({
      from_url: 1, position: 3, to_url: 4, raw_href: 'c#y', fragment: 'y', element: 'img', attribute: 'src', base_level: 'retrieval',
      rung: 'new', ladder_rung: 'new', error: null, findings: null, alternate_target: null, met_url: 4, line: 9, column: 2,
    });
  });

  it('creates no folder but the default data/, and says clearly when it cannot open it', async () => {
    const { dir } = scratch();
    expect(() => new SqliteStore({ path: path.join(dir, 'nested', 'deeper', 'x.db') })).toThrow(
      expect.objectContaining({ code: 'ERR_STORE_OPEN', message: expect.stringContaining(`the folder ${path.join(dir, 'nested', 'deeper')} does not exist`) }),
    );
    expect(existsSync(path.join(dir, 'nested'))).toBe(false);
    const store = new SqliteStore({ path: path.join(dir, 'x.db') });
    expect(store.integrityCheck()).toBe('ok');
    await store.close();
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(() => new SqliteStore({ path: path.join(dir, 'a-file', 'x.db') })).toThrow(expect.objectContaining({ code: 'ERR_STORE_OPEN' }));
  });
});
