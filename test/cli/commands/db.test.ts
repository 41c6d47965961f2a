import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, loadMigrations, SqliteStore } from '../../../src/store/index.js';
import { run as runInProcess } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder db', () => {
  it('status shows pending without creating the file; migrate applies; a second migrate is a no-op', async () => {
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
});
