// Read commands never write (they run beside a crawl and on read-only files): stats, audit, graph, report,
// explain, db status and db stats open the index read-only, leave its bytes and
// mtime as they were, read a chmod 444 index, refuse a missing file, an empty one,
// a text file and another program's SQLite database with one line (exit 3), and
// say ERR_STORE_CORRUPT (exit 3) for a truncated or damaged index instead of
// printing numbers from part of it. The index is a real one: a crawl of the demo site.

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemoServer } from '../../src/cli/demo/index.js';
import { LINKLADDER_APPLICATION_ID } from '../../src/store/index.js';
import { crawledDemoIndex } from '../support/demo-index.js';
import { run } from './cli-harness.js';

// Every connection the commands open, with its file and whether it is read-only.
const connections = vi.hoisted(() => [] as { file: string; isReadOnly: boolean }[]);
vi.mock('better-sqlite3', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof import('better-sqlite3') }>()).default;
  const spied = new Proxy(actual, {
    construct(target, args: unknown[]) {
      const db = Reflect.construct(target, args) as InstanceType<typeof actual>;
      connections.push({ file: db.name, isReadOnly: db.readonly });
      return db;
    },
  });
  return { default: spied };
});

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-read-only-'));
const index = path.join(dir, 'crawled.db');
let origin: string;
let copies = 0;

beforeAll(async () => {
  const crawled = await crawledDemoIndex(index);
  origin = crawled.origin;
  expect(crawled.code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the crawled index (the whole file: the crawl closed it, so there is no write-ahead log). */
function copyOfIndex(): string {
  copies++;
  const file = path.join(dir, `copy-${copies}.db`);
  copyFileSync(index, file);
  return file;
}

function newFile(contents: string | Buffer): string {
  copies++;
  const file = path.join(dir, `file-${copies}.db`);
  writeFileSync(file, contents);
  return file;
}

const COMMANDS: readonly (readonly [string, (db: string) => string[]])[] = [
  ['stats', (db) => ['stats', '--db', db]],
  ['audit', (db) => ['audit', '--db', db]],
  ['graph', (db) => ['graph', '--format', 'json', '--db', db]],
  ['report', (db) => ['report', '--html', path.join(dir, `report-${copies}.html`), '--db', db]],
  ['explain', (db) => ['explain', `${origin}/`, '--db', db]],
  ['db status', (db) => ['db', 'status', '--db', db]],
  ['db stats', (db) => ['db', 'stats', '--db', db]],
];

// A read-only mount (root ignores permission bits, not a mount's): a bind mount of
// a folder of copies, remounted read-only. Where mounting is not allowed, those tests are skipped.
const mountSource = path.join(dir, 'mount-source');
const mounted = path.join(dir, 'read-only-mount');
let isMounted = false;
beforeAll(() => {
  mkdirSync(mountSource);
  mkdirSync(mounted);
  copyFileSync(index, path.join(mountSource, 'crawled.db'));
  // A write-ahead log with pages the file lacks, as a writer killed before a checkpoint leaves it.
  copyFileSync(index, path.join(mountSource, 'with-wal.db'));
  const writer = new Database(path.join(mountSource, 'with-wal.db'));
  writer.pragma('wal_autocheckpoint = 0');
  writer.prepare(`UPDATE url SET depth = depth + 1 WHERE id = 1`).run();
  copyFileSync(path.join(mountSource, 'with-wal.db'), path.join(mountSource, 'wal-copy.db'));
  copyFileSync(path.join(mountSource, 'with-wal.db-wal'), path.join(mountSource, 'wal-copy.db-wal'));
  writer.close();
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return;
  if (spawnSync('mount', ['--bind', mountSource, mounted]).status !== 0) return;
  isMounted = true;
  if (spawnSync('mount', ['-o', 'remount,ro,bind', mounted]).status !== 0) throw new Error('cannot remount the bind mount read-only');
});
afterAll(() => {
  if (isMounted) spawnSync('umount', [mounted]);
});

/**
 * A copy of the index with one page overwritten: the root page of the `sitemap_entry`
 * table, which stats, explain and a crawl of a site without a sitemap never read.
 */
function copyWithDamagedPage(): string {
  const db = copyOfIndex();
  const raw = new Database(db, { readonly: true });
  const page = raw.prepare(`SELECT rootpage FROM sqlite_schema WHERE name = 'sitemap_entry'`).pluck().get() as number;
  raw.close();
  const bytes = readFileSync(db);
  const pageSize = bytes.readUInt16BE(16);
  bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
  writeFileSync(db, bytes);
  return db;
}

/** What must not change: the bytes and the modification time. */
function fingerprint(file: string): { sha256: string; mtimeMs: number; size: number } {
  const bytes = readFileSync(file);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), mtimeMs: statSync(file).mtimeMs, size: bytes.length };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(COMMANDS)('%s', (_name, argv) => {
  it('opens the index read-only: its bytes and mtime stay as they were', async () => {
    const db = copyOfIndex();
    const before = fingerprint(db);
    connections.length = 0;
    const result = await run(argv(db));
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code); // audit: 1 for the demo site's broken links
    expect(fingerprint(db)).toEqual(before);
    const onIndex = connections.filter((c) => c.file === db);
    expect(onIndex.length).toBeGreaterThan(0);
    expect(onIndex.every((c) => c.isReadOnly)).toBe(true);
  });

  it('reads an index on a read-only mount, where SQLite cannot make the -shm file beside it', async (context) => {
    if (!isMounted) context.skip();
    const db = path.join(mounted, 'crawled.db');
    const result = await run(argv(db));
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code);
    expect(result.stdout).not.toBe('');
  });

  it('refuses, with one line, an index on a read-only mount whose write-ahead log holds pages', async (context) => {
    if (!isMounted) context.skip();
    const db = path.join(mounted, 'wal-copy.db');
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toEqual([`linkladder: error: cannot open ${db}: its folder is read-only and its write-ahead log (wal-copy.db-wal) holds pages SQLite reads only with a -shm file beside it; copy both files to a writable folder`]);
  });

  it('reads a chmod 444 index', async () => {
    const db = copyOfIndex();
    chmodSync(db, 0o444);
    const before = fingerprint(db);
    const result = await run(argv(db));
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code);
    expect(fingerprint(db)).toEqual(before);
  });

  it('reads an index made before the application id (0, with schema_migrations), without marking it', async () => {
    const db = copyOfIndex();
    const raw = new Database(db);
    raw.pragma('application_id = 0');
    raw.close();
    const before = fingerprint(db);
    const result = await run(argv(db));
    expect(result.stderr).toBe('');
    expect([0, 1]).toContain(result.code);
    expect(fingerprint(db)).toEqual(before);
  });

  it("refuses another program's SQLite database with one line, and leaves it as it was", async () => {
    const db = newFile('');
    const raw = new Database(db);
    raw.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES (1)');
    raw.close();
    const before = fingerprint(db);
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toEqual([
      `linkladder: error: ${db} is not a linkladder index (ERR_STORE_NOT_INDEX): a SQLite database of another program (it has no schema_migrations table)`,
    ]);
    expect(fingerprint(db)).toEqual(before);
  });

  it('refuses a SQLite database with another application id', async () => {
    const db = newFile('');
    const raw = new Database(db);
    raw.pragma('application_id = 1234');
    raw.exec('CREATE TABLE schema_migrations (version INTEGER)');
    raw.close();
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toEqual([
      `linkladder: error: ${db} is not a linkladder index (ERR_STORE_NOT_INDEX): a SQLite database of another program (application_id 0x000004d2)`,
    ]);
  });

  it('refuses an empty file, which stays empty', async () => {
    const db = newFile('');
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toEqual([`linkladder: error: ${db} is not a linkladder index (ERR_STORE_NOT_INDEX): the file is empty`]);
    expect(statSync(db).size).toBe(0);
  });

  it('refuses a text file', async () => {
    const db = newFile('not a database, but long enough to hold a header of a hundred bytes: '.repeat(4));
    const before = fingerprint(db);
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toEqual([`linkladder: error: ${db} is not a linkladder index (ERR_STORE_NOT_INDEX): not a SQLite database`]);
    expect(fingerprint(db)).toEqual(before);
  });

  it('a truncated index: ERR_STORE_CORRUPT, exit 3, nothing on stdout', async () => {
    const db = copyOfIndex();
    truncateSync(db, Math.floor(statSync(db).size / 2));
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): it is truncated`));
  });

  it('an index with garbage pages in its middle: ERR_STORE_CORRUPT, exit 3, nothing on stdout', async () => {
    const db = copyOfIndex();
    const bytes = readFileSync(db);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    // Pages 40 % to 70 % through the file, overwritten with bytes of a fixed pseudo-random sequence.
    let seed = 12345;
    for (let i = Math.floor(pages * 0.4) * pageSize; i < Math.floor(pages * 0.7) * pageSize; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = seed >> 16;
    }
    writeFileSync(db, bytes);
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): `));
  });

  it('a damaged page in a part of the index it would not read: ERR_STORE_CORRUPT, exit 3, nothing on stdout', async () => {
    const db = copyWithDamagedPage();
    const result = await run(argv(db));
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): `));
  });
});

describe('read commands and the index file', () => {
  it('a missing index: one line, exit 3, and no file is created (db status lists every migration pending instead)', async () => {
    const db = path.join(dir, 'missing.db');
    for (const [name, argv] of COMMANDS) {
      const result = await run(argv(db));
      if (name === 'db status') {
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(/^001_initial {2}pending$/m);
      } else {
        expect({ name, code: result.code, err: result.err }).toEqual({ name, code: 3, err: [`linkladder: error: no index database at ${db}`] });
      }
    }
    expect(() => statSync(db)).toThrow();
  });

  it('a stored JSON value that does not parse: ERR_STORE_CORRUPT and exit 3, never a raw JSON error', async () => {
    const db = copyOfIndex();
    const raw = new Database(db);
    const home = raw.prepare('SELECT id FROM url WHERE key = ?').pluck().get(`${origin}/`) as number;
    raw.prepare(`UPDATE fetch SET anchors = '["top", ', findings = '{"not": "a list"}' WHERE url_id = ?`).run(home);
    raw.close();
    for (const argv of [['audit'], ['report', '--html', path.join(dir, 'bad-json.html')], ['explain', `${origin}/`]]) {
      const result = await run([...argv, '--db', db]);
      expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 3, stdout: '' });
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): fetch\\.(anchors|findings) holds`));
    }
  });

  it("a page's stored links that do not parse: ERR_STORE_CORRUPT for graph and audit", async () => {
    const db = copyOfIndex();
    const raw = new Database(db);
    raw.exec(`UPDATE page_link SET links = '[[1, "a"], [2' WHERE rowid = (SELECT min(rowid) FROM page_link)`);
    raw.close();
    for (const argv of [['graph', '--format', 'json'], ['audit']]) {
      const result = await run([...argv, '--db', db]);
      expect({ argv, code: result.code }).toEqual({ argv, code: 3 });
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): `));
    }
  });

  it('an index with a pending migration is not migrated by a read command: ERR_STORE_OUTDATED, exit 3; db status lists it', async () => {
    const db = copyOfIndex();
    const raw = new Database(db);
    const latest = raw.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
    raw.prepare('DELETE FROM schema_migrations WHERE version = ?').run(latest);
    raw.close();
    const before = fingerprint(db);
    const stats = await run(['stats', '--db', db]);
    expect(stats).toMatchObject({ code: 3, stdout: '' });
    expect(stats.err).toHaveLength(1);
    expect(stats.err[0]).toMatch(/is pending|are pending/);
    expect(stats.err[0]).toContain('(ERR_STORE_OUTDATED)');
    const status = await run(['db', 'status', '--db', db]);
    expect(status.code).toBe(0);
    expect(status.out.at(-1)).toMatch(/ {2}pending$/);
    expect(fingerprint(db)).toEqual(before);
  });

  it('a write-open marks an index made before the application id; crawl and db migrate refuse a foreign database untouched', async () => {
    const db = copyOfIndex();
    const raw = new Database(db);
    raw.pragma('application_id = 0');
    raw.close();
    expect((await run(['db', 'migrate', '--db', db])).code).toBe(0);
    const marked = new Database(db, { readonly: true });
    expect(marked.pragma('application_id', { simple: true })).toBe(LINKLADDER_APPLICATION_ID);
    marked.close();

    const foreign = newFile('');
    const other = new Database(foreign);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    const before = fingerprint(foreign);
    for (const argv of [['db', 'migrate', '--db', foreign], ['crawl', 'http://127.0.0.1:9/', '--db', foreign, '--allow-private']]) {
      const result = await run(argv);
      expect({ argv, code: result.code, err: result.err }).toEqual({
        argv,
        code: 3,
        err: [`linkladder: error: ${foreign} is not a linkladder index (ERR_STORE_NOT_INDEX): a SQLite database of another program (it has no schema_migrations table)`],
      });
    }
    expect(fingerprint(foreign)).toEqual(before);
  });

  it('a new index gets the application id; an empty file becomes an index when a crawl writes it', async () => {
    const db = newFile('');
    expect((await run(['db', 'migrate', '--db', db])).code).toBe(0);
    const raw = new Database(db, { readonly: true });
    expect(raw.pragma('application_id', { simple: true })).toBe(LINKLADDER_APPLICATION_ID);
    raw.close();
    const crawled = new Database(index, { readonly: true });
    expect(crawled.pragma('application_id', { simple: true })).toBe(LINKLADDER_APPLICATION_ID);
    crawled.close();
  });
});

describe('writers and a damaged index', () => {
  it.each([
    ['crawl', (db: string, site: string) => ['crawl', `${site}/`, '--db', db, '--allow-private']],
    ['db migrate', (db: string) => ['db', 'migrate', '--db', db]],
  ])('%s stops on a damaged page it would not read: ERR_STORE_CORRUPT, exit 3, the file as it was', async (_name, argv) => {
    const db = copyWithDamagedPage();
    const before = fingerprint(db);
    const server = await startDemoServer();
    let result;
    try {
      result = await run(argv(db, server.origin));
    } finally {
      await server.close();
    }
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): `));
    expect(fingerprint(db)).toEqual(before);
  });

  it('a crawl does not extend a truncated index: ERR_STORE_CORRUPT, exit 3, the file as it was', async () => {
    const db = copyOfIndex();
    truncateSync(db, Math.floor(statSync(db).size / 2));
    const before = fingerprint(db);
    const result = await run(['crawl', 'http://127.0.0.1:9/', '--db', db, '--allow-private']);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(new RegExp(`^linkladder: error: the index ${escape(db)} is corrupt \\(ERR_STORE_CORRUPT\\): it is truncated`));
    expect(fingerprint(db)).toEqual(before);
  });
});
