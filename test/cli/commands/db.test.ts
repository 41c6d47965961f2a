import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';
import { run as runInProcess } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder db', () => {
  it('status shows pending without creating the file; migrate applies; a second migrate is a no-op', async () => {
    const db = path.join(dir, 'a', 'index.db');
    expect(await runInProcess(['db', 'status', '--db', db])).toMatchObject({
      code: 0,
      stdout: '001_initial  pending\n002_page_links_and_history  pending\n003_fetch_represents  pending\n004_writer_lock  pending\n005_crawl_run  pending\n006_check_roles  pending\n',
    });
    expect(existsSync(db)).toBe(false);
    expect(await runInProcess(['db', 'migrate', '--db', db])).toMatchObject({
      code: 0,
      stdout: `${db}: applied 001_initial.sql\n${db}: applied 002_page_links_and_history.sql\n${db}: applied 003_fetch_represents.sql\n${db}: applied 004_writer_lock.sql\n${db}: applied 005_crawl_run.sql\n${db}: applied 006_check_roles.sql\n`,
    });
    expect(await runInProcess(['db', 'migrate', '--db', db])).toMatchObject({ code: 0, stdout: `${db}: up to date\n` });
    const status = await runInProcess(['db', 'status', '--db', db, '--json']);
    const lines = status.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { version: 1, name: 'initial', appliedAt: expect.stringMatching(/^\d{4}-/) },
      { version: 2, name: 'page_links_and_history', appliedAt: expect.stringMatching(/^\d{4}-/) },
      { version: 3, name: 'fetch_represents', appliedAt: expect.stringMatching(/^\d{4}-/) },
      { version: 4, name: 'writer_lock', appliedAt: expect.stringMatching(/^\d{4}-/) },
      { version: 5, name: 'crawl_run', appliedAt: expect.stringMatching(/^\d{4}-/) },
      { version: 6, name: 'check_roles', appliedAt: expect.stringMatching(/^\d{4}-/) },
    ]);
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
    const json = JSON.parse((await runInProcess(['db', 'stats', '--db', db, '--json'])).stdout);
    expect(json).toMatchObject({ links: 5, linksByRung: { new: 2, string: 1, syntax: 1, scheme: 1, protocol: 0 } });
  });

  it('refuses a missing database for stats with one line and exit 3', async () => {
    const result = await runInProcess(['db', 'stats', '--db', path.join(dir, 'missing.db')]);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(`linkladder: error: no index database at ${path.join(dir, 'missing.db')}\n`);
  });
});
