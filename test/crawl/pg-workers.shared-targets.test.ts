// Workers on one PostgreSQL index that meet the same targets at the same moment, each a
// process running the library's crawl() (test/support/crawl-worker.mjs), against one
// SQLite process crawling the same site: the ladder's funnel is the one a single
// writer gives, and a redirect target another worker is requesting (or has fetched)
// is not requested again.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../cli/built-cli.js';
import { startWorker } from '../support/crawl-workers.js';
import { workerTestBed } from '../support/worker-test-bed.js';
import { expectCleanExit } from '../support/worker-exits.js';
import { serveRedirectSite, serveSpellingsSite, type CountingSite } from '../support/shared-targets-site.js';

const { cluster, running, cleanups } = await workerTestBed('workers on PostgreSQL meeting shared targets');

/** Crawl `site` with `count` workers into `db` (a PostgreSQL URL, or a SQLite file for one process). */
async function crawlWith(count: number, db: string, site: CountingSite, options: Readonly<Record<string, unknown>>): Promise<void> {
  const workers = Array.from({ length: count }, (_, i) => startWorker({ db, seeds: site.seeds, workerId: `w${i}`, options }, running));
  for (const exit of await Promise.all(workers.map((w) => w.exit))) expectCleanExit(exit);
}

async function statsOf(db: string): Promise<{ funnel: Record<string, number>; folded: Record<string, number> }> {
  const exit = await spawnCli(['stats', '--db', db, '--json'], running).exit;
  expect(exit.code).toBe(0);
  return JSON.parse(exit.stdout) as { funnel: Record<string, number>; folded: Record<string, number> };
}

function sqliteFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-shared-targets-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'index.db');
}

const HOSTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];

describe.skipIf(typeof cluster === 'string')('workers on PostgreSQL meeting the same targets at once', () => {
  // Each page links to 14 others, of every host, in spellings other than their keys, the
  // same spellings from many pages at once: whatever order one writer meets them in, the
  // first link to a page is `new`, the first of each other spelling climbs, the rest are `string`.
  it('4 workers give the ladder funnel one SQLite process gives the same site', async () => {
    if (typeof cluster === 'string') return;
    const options = { allowPrivate: true, sitemap: false, concurrency: 4, perHostConcurrency: 2 };
    const site = await serveSpellingsSite({ hosts: HOSTS, pagesPerHost: 40 });
    cleanups.push(() => site.close());
    const sqlite = sqliteFile();
    await crawlWith(1, sqlite, site, options);
    const expected = await statsOf(sqlite);
    // Every page and every spelling met: 160 URLs, of which 156 found by links.
    expect(expected.funnel).toMatchObject({ distinctScheme: 156, afterAliases: 156, unresolved: 0 });
    expect(expected.funnel.distinctStrings).toBeGreaterThan(400);

    const db = await cluster.createDatabase();
    await crawlWith(4, db, site, options);
    const shared = await statsOf(db);
    expect(shared.funnel).toEqual(expected.funnel);
    expect(shared.folded).toEqual(expected.folded);
  }, 240_000);

  it('a redirect target another worker is requesting, or has fetched, is not requested again: each requested once, as by one process', async () => {
    if (typeof cluster === 'string') return;
    const options = { allowPrivate: true, sitemap: false, concurrency: 4, perHostConcurrency: 4 };
    const hosts = [HOSTS[0]!, HOSTS[1]!, HOSTS[2]!] as const;
    for (const [count, db] of [
      [1, sqliteFile()],
      [4, await cluster.createDatabase()],
    ] as const) {
      const site = await serveRedirectSite({ hosts });
      cleanups.push(() => site.close());
      await crawlWith(count, db, site, options);
      const counts = site.counts();
      for (const url of [...site.targets, ...site.redirectors]) expect.soft(counts.get(url), `${count} worker(s): ${url}`).toBe(1);
    }
  }, 240_000);

  // Redirects are the only way to the targets: 4 chains meet each one at once, before the
  // index has it. In one process, one chain requests it and the others end there. Across
  // workers, that is what each worker does: two workers that meet a target no worker has
  // claimed yet, within the time of its request, may both request it (nothing is claimed
  // for a chain before it follows), but no worker requests it twice.
  it('chains that meet the same new redirect target at once: requested once by one process, at most once by each worker', async () => {
    if (typeof cluster === 'string') return;
    const options = { allowPrivate: true, sitemap: false, concurrency: 8, perHostConcurrency: 4 };
    const hosts = [HOSTS[0]!, HOSTS[1]!, HOSTS[2]!] as const;
    const alone = await serveRedirectSite({ hosts, isTargetLinked: false });
    cleanups.push(() => alone.close());
    await crawlWith(1, sqliteFile(), alone, options);
    const counts = alone.counts();
    for (const url of [...alone.targets, ...alone.redirectors]) expect.soft(counts.get(url), url).toBe(1);

    const shared = await serveRedirectSite({ hosts, isTargetLinked: false });
    cleanups.push(() => shared.close());
    await crawlWith(4, await cluster.createDatabase(), shared, options);
    for (const url of shared.redirectors) expect.soft(shared.counts().get(url), url).toBe(1);
    for (const url of shared.targets) {
      for (const [agent, n] of shared.countsByAgent(url)) expect.soft(n, `${url} by ${agent}`).toBe(1);
    }
  }, 240_000);
});
