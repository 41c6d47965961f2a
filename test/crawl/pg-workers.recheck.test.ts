// A re-check shared by cooperating workers on PostgreSQL: a generation of the index that
// each worker started with --recheck joins while it is in progress. Workers started
// seconds apart never request a URL twice in one re-check, and a re-check begun after
// it finished asks everything once more. Each worker is a process running the
// library's crawl() into a PgStore (test/support/crawl-worker.mjs), on a generated site
// over 8 loopback hosts whose servers count every request.

import { describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/store/pg/pg-database.js';
import { startWorker, type WorkerExit } from '../support/crawl-workers.js';
import { workerTestBed } from '../support/worker-test-bed.js';
import { expectCleanExit, isSiteFile } from '../support/worker-exits.js';
import { serveMultiHostSite, type MultiHostSite } from '../support/multi-host-site.js';

const { cluster, running, cleanups } = await workerTestBed('a re-check shared by workers on PostgreSQL');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests by URL that the servers received from `from` on (the index into site.requests), site files left out. */
function countsSince(site: MultiHostSite, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of site.requests.slice(from)) if (!isSiteFile(r.url)) counts.set(r.url, (counts.get(r.url) ?? 0) + 1);
  return counts;
}

describe.skipIf(typeof cluster === 'string')('a re-check shared by workers on PostgreSQL', () => {
  it('3 workers started 1.5 s apart with --recheck: every resource requested exactly once; a re-check after it asks every one once more', async () => {
    if (typeof cluster === 'string') return;
    const site = await serveMultiHostSite({ pagesPerHost: 30, latencyMs: 100 });
    const db = await cluster.createDatabase();
    const sql: Sql = connect(db, { max: 2 });
    cleanups.push(async () => {
      await sql.end();
      await site.close();
    });
    const crawl = { allowPrivate: true, sitemap: false };
    const start = (workerId: string, options: Record<string, unknown>): Promise<WorkerExit> =>
      startWorker({ db, seeds: site.seeds, workerId, options: { ...crawl, ...options } }, running).exit;

    // The crawl the re-checks revisit.
    for (const exit of await Promise.all([start('c0', { concurrency: 4, perHostConcurrency: 2 }), start('c1', { concurrency: 4, perHostConcurrency: 2 })])) expectCleanExit(exit);
    expect([...countsSince(site, 0).keys()].sort()).toEqual([...site.resources].sort());

    // The re-check: one worker alone would take ~14 s (one request per host at a time,
    // 2 at once); the last joins 3 s after the first, long before it is finished.
    const first = site.requests.length;
    const recheck = { recheck: true, concurrency: 2, perHostConcurrency: 1 };
    const exits: Promise<WorkerExit>[] = [];
    for (const workerId of ['r0', 'r1', 'r2']) {
      exits.push(start(workerId, recheck));
      await sleep(1500);
    }
    for (const exit of await Promise.all(exits)) expectCleanExit(exit);
    const counts = countsSince(site, first);
    for (const url of site.resources) expect.soft(counts.get(url), url).toBe(1);
    expect([...counts.keys()].filter((url) => !site.resources.includes(url))).toEqual([]);
    // Each worker took part, all in one generation.
    const byWorker = new Set(site.requests.slice(first).filter((r) => !isSiteFile(r.url)).map((r) => r.userAgent));
    expect(byWorker.size).toBe(3);
    expect(await sql`SELECT generation, queued::integer, settled_at IS NULL AS is_open FROM recheck_generation ORDER BY generation`).toEqual([
      { generation: 1, queued: site.resources.length, is_open: true },
    ]);

    // A re-check begun after that one finished asks every resource once more.
    const second = site.requests.length;
    const again = [start('s0', { ...recheck, concurrency: 4, perHostConcurrency: 2 })];
    await sleep(500);
    again.push(start('s1', { ...recheck, concurrency: 4, perHostConcurrency: 2 }));
    for (const exit of await Promise.all(again)) expectCleanExit(exit);
    const secondCounts = countsSince(site, second);
    for (const url of site.resources) expect.soft(secondCounts.get(url), url).toBe(1);
    expect((await sql`SELECT generation FROM recheck_generation ORDER BY generation`).map((r) => r.generation)).toEqual([1, 2]);
  }, 300_000);
});
