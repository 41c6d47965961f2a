// `--ignore-robots`, for one's own sites: no robots.txt is requested (counted
// in the servers' own logs), what it disallows is fetched, its Crawl-delay does not
// hold, every run warns on stderr, the run's settings record it, and `explain` says
// so. The site is 127.0.0.1; 127.0.0.2 plays an external host.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { MemoryStore, SqliteStore } from '../../src/store/index.js';
import { run } from '../cli/cli-harness.js';
import { closeHosts, host, type Host } from './logged-host.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-ignore-robots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(closeHosts);

const WARNING = 'linkladder: warning: --ignore-robots: robots.txt is neither fetched nor obeyed';
const FLAGS = ['--allow-private', '--retries', '0', '--no-sitemap'];

/** A site whose robots.txt disallows /private/ with a 3 s Crawl-delay, and an external host that disallows everything. */
async function sites(): Promise<{ site: Host; other: Host }> {
  const other = await host('127.0.0.2', () => ({ '/robots.txt': 'User-agent: *\nDisallow: /\n', '/ext': [200] }));
  const site = await host('127.0.0.1', () => ({
    '/robots.txt': 'User-agent: *\nDisallow: /private/\nCrawl-delay: 3\n',
    '/': `<a href="/private/a">a</a><a href="/private/b">b</a><a href="${other.origin}/ext">ext</a>`,
    '/private/a': '<p>a</p>',
    '/private/b': '<p>b</p>',
  }));
  return { site, other };
}

async function runsOf(db: string): Promise<readonly { readonly settings: Readonly<Record<string, unknown>> }[]> {
  const store = new SqliteStore({ path: db });
  try {
    return await store.runs();
  } finally {
    await store.close();
  }
}

describe('linkladder crawl --ignore-robots', () => {
  it('requests no robots.txt, fetches what it would disallow, warns, records it, and explain says so', async () => {
    const { site, other } = await sites();
    const db = path.join(dir, 'ignored.db');
    const startedAt = Date.now();
    const result = await run(['crawl', `${site.origin}/`, '--db', db, '--ignore-robots', ...FLAGS]);
    expect(result.code).toBe(0);
    expect(site.log.sort()).toEqual(['GET /', 'GET /private/a', 'GET /private/b']);
    expect(other.log).toEqual(['HEAD /ext']);
    // No Crawl-delay held: three pages take less than the two 3 s delays obeying would.
    expect(Date.now() - startedAt).toBeLessThan(5_500);
    expect(result.err.filter((line) => line.startsWith(WARNING))).toHaveLength(1);
    const runs = await runsOf(db);
    expect(runs.at(-1)?.settings).toMatchObject({ ignoreRobots: true, robots: false });
    const explained = await run(['explain', `${site.origin}/private/a`, '--db', db]);
    expect(explained.stdout).toContain('robots.txt was ignored for that run');
  }, 30_000);

  it('warns on every run, from the environment too', async () => {
    const { site } = await sites();
    const db = path.join(dir, 'env.db');
    for (let i = 0; i < 2; i++) {
      const result = await run(['crawl', `${site.origin}/`, '--db', db, ...FLAGS], { env: { LINKLADDER_IGNORE_ROBOTS: 'true' } });
      expect(result.code).toBe(0);
      expect(result.err.filter((line) => line.startsWith(WARNING))).toHaveLength(1);
    }
    expect(site.log).not.toContain('GET /robots.txt');
  }, 30_000);

  it('check takes it too', async () => {
    const { site } = await sites();
    const result = await run(['check', `${site.origin}/`, '--db', path.join(dir, 'check.db'), '--ignore-robots', '--allow-private', '--retries', '0']);
    expect(result.err.filter((line) => line.startsWith(WARNING))).toHaveLength(1);
    expect(site.log).not.toContain('GET /robots.txt');
    expect(site.log).toContain('GET /private/a');
  }, 30_000);

  it("crawl() takes it too, and records it in the run's settings", async () => {
    const { site, other } = await sites();
    const store = new MemoryStore();
    const summary = await crawl(`${site.origin}/`, { store, ignoreRobots: true, allowPrivate: true, sitemap: false, retries: 0 });
    expect(summary.requestsByKind.robots).toBe(0);
    expect(site.log.sort()).toEqual(['GET /', 'GET /private/a', 'GET /private/b']);
    expect(other.log).toEqual(['HEAD /ext']);
    expect((await store.runs()).at(-1)?.settings).toMatchObject({ ignoreRobots: true, robots: false });
  }, 30_000);

  it('without it, robots.txt is asked and obeyed, and explain says nothing of it', async () => {
    const { site, other } = await sites();
    const db = path.join(dir, 'obeyed.db');
    const result = await run(['crawl', `${site.origin}/`, '--db', db, ...FLAGS, ]);
    expect(result.code).toBe(0);
    expect(site.log).toContain('GET /robots.txt');
    expect(site.log).not.toContain('GET /private/a');
    expect(other.log).toContain('GET /robots.txt');
    expect(result.err.filter((line) => line.startsWith(WARNING))).toHaveLength(0);
    expect((await runsOf(db)).at(-1)?.settings).toMatchObject({ ignoreRobots: false, robots: true });
    expect((await run(['explain', `${site.origin}/`, '--db', db])).stdout).not.toContain('robots.txt was ignored');
  }, 60_000);
});
