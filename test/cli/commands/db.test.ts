import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, loadMigrations, SqliteStore } from '../../../src/store/index.js';
import { ensureBuilt, MAIN } from '../built-cli.js';
import { run as runInProcess } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder db', () => {
  it('status shows pending without creating the file; migrate applies; a second migrate is a no-op', async () => {
    mkdirSync(path.join(dir, 'a'));
    const db = path.join(dir, 'a', 'index.db');
    // Every migration the package has, from its folder (each new one adds a line).
    const migrations = loadMigrations(defaultMigrationsDir());
    expect(migrations.slice(0, 2).map((m) => m.file)).toEqual(['001_initial.sql', '002_page_links_and_history.sql']);
    expect(await runInProcess(['db', 'status', '--db', db])).toMatchObject({
      code: 0,
      stdout: migrations.map((m) => `${m.file.slice(0, -'.sql'.length)}  pending\n`).join(''),
    });
    expect(existsSync(db)).toBe(false);
    expect(await runInProcess(['db', 'migrate', '--db', db])).toMatchObject({
      code: 0,
      stdout: migrations.map((m) => `${db}: applied ${m.file}\n`).join(''),
    });
    expect(await runInProcess(['db', 'migrate', '--db', db])).toMatchObject({ code: 0, stdout: `${db}: up to date\n` });
    const status = await runInProcess(['db', 'status', '--db', db, '--json']);
    const lines = status.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: expect.stringMatching(/^\d{4}-/) })));
    const out = path.join(dir, 'status.json');
    expect(await runInProcess(['db', 'status', '--db', db, '--format', 'json', '--out', out])).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(out, 'utf8')).toBe(status.stdout);
  });

  it('stats counts URLs by state, links folded by rung, aliases and fetches', async () => {
    const db = path.join(dir, 'stats.db');
    const store = new SqliteStore({ path: db });
    const [page] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
    await store.admit(
      ['http://h/a', 'http://h/a', 'HTTP://h/a', 'http://h:80/a', 'http://h/b'].map((target) => ({ fromUrlId: page!.urlId!, rawHref: target, target })),
    );
    await store.close();
    const plain = await runInProcess(['db', 'stats', '--db', db]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('urls     3  (queued 3,');
    expect(plain.stdout).toContain('folded   3  links met a known URL, by rung: string 1, syntax 1, scheme 1, protocol 0');
    // A canonical link is a claim, never obeyed: no alias, counted apart.
    expect(plain.stdout).toContain('aliases  redirect 0, content-location 0, digest 0, rule 0; canonical links recorded, not obeyed (no alias) 0\n');
    const json = JSON.parse((await runInProcess(['db', 'stats', '--db', db, '--json'])).stdout);
    expect(json).toMatchObject({ links: 5, linksByRung: { new: 2, string: 1, syntax: 1, scheme: 1, protocol: 0 } });
  });

  it('refuses a missing database for stats with one line and exit 3', async () => {
    const result = await runInProcess(['db', 'stats', '--db', path.join(dir, 'missing.db')]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(`linkladder: error: no index database at ${path.join(dir, 'missing.db')}\n`);
  });

  it('a --db in a folder that does not exist is refused (exit 3), the folder not created; only the default data/ is', async () => {
    const db = path.join(dir, 'no', 'such', 'folder', 'index.db');
    for (const args of [['db', 'migrate'], ['crawl', 'http://127.0.0.1:1/', '--allow-private']]) {
      const result = await runInProcess([...args, '--db', db]);
      expect(result.code, args.join(' ')).toBe(3);
      expect(result.err, args.join(' ')).toEqual([`linkladder: error: cannot open ${db}: the folder ${path.dirname(db)} does not exist (only the default data/ is created)`]);
    }
    expect(existsSync(path.join(dir, 'no'))).toBe(false);
    await ensureBuilt();
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    const migrated = spawnSync(process.execPath, [MAIN, 'db', 'migrate'], { cwd, encoding: 'utf8' });
    expect(migrated.status).toBe(0);
    expect(existsSync(path.join(cwd, 'data', 'linkladder.db'))).toBe(true);
  }, 180_000);

  describe('unlock', () => {
    async function lockedIndex(name: string, holder: { pid: number; host: string }): Promise<string> {
      const db = path.join(dir, name);
      await new SqliteStore({ path: db }).close();
      const raw = new Database(db);
      raw
        .prepare(`INSERT INTO writer_lock (id, token, pid, host, process_start, acquired_at) VALUES (1, 'left', ?, ?, NULL, ?)`)
        .run(holder.pid, holder.host, Date.UTC(2025, 0, 2, 3, 4, 5));
      raw.close();
      return db;
    }
    const lockRows = (db: string): number => {
      const raw = new Database(db, { readonly: true });
      const count = raw.prepare('SELECT count(*) FROM writer_lock').pluck().get() as number;
      raw.close();
      return count;
    };

    it('removes the lock of a machine that went down, naming it; the refused crawl said how', async () => {
      const db = await lockedIndex('crashed.db', { pid: 4242, host: 'crashed.example' });
      const refused = await runInProcess(['crawl', 'http://127.0.0.1:1/', '--allow-private', '--db', db]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`\`linkladder db unlock --db ${db}\` removes its lock`);
      expect(await runInProcess(['db', 'unlock', '--db', db])).toMatchObject({
        code: 0,
        stdout: `${db}: removed the writer lock of pid 4242 on host crashed.example (since 2025-01-02T03:04:05.000Z)\n`,
        stderr: '',
      });
      expect(lockRows(db)).toBe(0);
      expect(await runInProcess(['db', 'unlock', '--db', db])).toMatchObject({ code: 0, stdout: `${db}: no writer lock\n` });
    });

    it('keeps the lock of a process running on this host (exit 3), and refuses a missing index', async () => {
      const db = await lockedIndex('running.db', { pid: process.ppid, host: hostname() });
      const result = await runInProcess(['db', 'unlock', '--db', db]);
      expect(result.code).toBe(3);
      expect(result.err).toHaveLength(1);
      expect(result.stderr).toContain('ERR_STORE_LOCKED');
      expect(lockRows(db)).toBe(1);
      const missing = await runInProcess(['db', 'unlock', '--db', path.join(dir, 'missing.db')]);
      expect(missing.code).toBe(3);
      expect(existsSync(path.join(dir, 'missing.db'))).toBe(false);
    });
  });
});
