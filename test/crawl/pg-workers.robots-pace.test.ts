// robots.txt's Crawl-delay held from a host's first request by cooperating workers on
// PostgreSQL (robots-pace.ts): the worker that reads robots.txt writes the delay to the
// index before its request, and the URLs claimed before the index held it are given
// back and claimed again under it. Two worker processes (test/support/crawl-worker.mjs)
// on one host whose pages are all queued at once; the server times every request.

import { describe, expect, it } from 'vitest';
import { connect } from '../../src/store/pg/pg-database.js';
import { startWorker, type WorkerExit } from '../support/crawl-workers.js';
import { serveMultiHostSite } from '../support/multi-host-site.js';
import { isSiteFile } from '../support/worker-exits.js';
import { workerTestBed } from '../support/worker-test-bed.js';

const { cluster, running, cleanups } = await workerTestBed("robots.txt's Crawl-delay across workers on PostgreSQL");

function expectClean(exit: WorkerExit): void {
  expect(exit.stderr.replace(/^\(node:\d+\) .*\n|^\(Use `node --trace-warnings.*\n/gm, '')).toBe('');
  expect(exit.code).toBe(0);
  expect(exit.lines.at(-1)).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
}

/**
 * What passes between a worker's start of a request and its arrival at the server's
 * handler differs from one request (and worker) to the next: up to ~30 ms either way
 * measured on a loaded 2-core machine. The starts the workers recorded (fetch.started_at,
 * taken as each request is sent) are held exactly.
 */
const TOLERANCE_MS = 50;

describe.skipIf(typeof cluster === 'string')("robots.txt's Crawl-delay across workers on PostgreSQL", () => {
  it('2 workers, a host whose robots.txt says Crawl-delay: 0.3, its pages all queued, concurrency 8: every gap between starts the server saw is at least 0.3 s, the first one too', async () => {
    if (typeof cluster === 'string') return;
    const delayed = '127.0.0.2';
    const site = await serveMultiHostSite({ hosts: [delayed], pagesPerHost: 20, imagesPerHost: 1, latencyMs: 20, robots: { [delayed]: 'User-agent: *\nCrawl-delay: 0.3\n' } });
    cleanups.push(() => site.close());
    const db = await cluster.createDatabase();
    const seeds = site.resources.filter((url) => url.endsWith('.html') || url.endsWith('/'));
    const options = { allowPrivate: true, sitemap: false, concurrency: 8, perHostConcurrency: 8 };
    // Both open first, then crawl at once.
    const workers = ['w0', 'w1'].map((workerId) => startWorker({ db, seeds, workerId, options, waitForGo: true }, running));
    await Promise.all(workers.map((w) => w.opened));
    for (const w of workers) w.go();
    for (const exit of await Promise.all(workers.map((w) => w.exit))) expectClean(exit);

    const requests = site.requests.filter((r) => !isSiteFile(r.url));
    expect(requests.map((r) => r.url).sort()).toEqual([...site.resources].sort());
    // Both took part. Which worker takes a host's next slot is a race (both wait on the
    // same slot): on a loaded machine one worker once took all 11 requests of a 10-page run.
    expect(new Set(requests.map((r) => r.userAgent)).size).toBe(2);
    const sql = connect(db, { max: 1 });
    try {
      const starts = (await sql`SELECT started_at FROM "fetch" ORDER BY started_at`).map((r) => Number(r.started_at));
      expect(starts).toHaveLength(site.resources.length);
      const recorded = starts.slice(1).map((at, i) => at - starts[i]!);
      expect(Math.min(...recorded), recorded.join(' ')).toBeGreaterThanOrEqual(299);
    } finally {
      await sql.end();
    }
    const gaps = requests.slice(1).map((r, i) => r.at - requests[i]!.at);
    expect(Math.min(...gaps), gaps.map(Math.round).join(' ')).toBeGreaterThanOrEqual(300 - TOLERANCE_MS);
  }, 120_000);
});
