// Two crawls in one process sharing a PostgreSQL index, on an in-memory site whose
// answer to one worker's request is held back by the test: a claim whose lease lapsed
// while its request was out is another worker's, and its late results are refused (one
// fetch row, the page's links once); and a worker whose clock runs ahead takes no claim
// another holds, since leases are judged by the database's clock.

import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import type { FetchCallOptions, FetchedResponse, Fetcher } from '../../src/fetch/index.js';
import { PgStore } from '../../src/store/index.js';
import { startPostgres } from '../support/postgres-cluster.js';
import { skipNotice } from '../support/system-tools.js';
import { FakeSite, page } from './fake-site.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('leases of cooperating workers on PostgreSQL', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

const SLOW = 'http://a.test/slow';
const OPTIONS = { sitemap: false, concurrency: 2 } as const;

/** One worker's way to the site: its request for `SLOW` waits for `hold` when one is set. */
class Worker implements Fetcher {
  hold: ((sent: () => void) => Promise<void>) | undefined;
  /** Every request this worker sent. */
  requests = 0;

  constructor(readonly site: FakeSite) {}

  async fetch(url: string, signal?: AbortSignal, options?: FetchCallOptions): Promise<FetchedResponse> {
    this.requests++;
    if (url === SLOW && this.hold !== undefined) {
      let sent!: () => void;
      const out = new Promise<void>((resolve) => (sent = resolve));
      const response = out.then(() => this.site.fetch(url, signal, options));
      await this.hold(sent);
      return response;
    }
    return this.site.fetch(url, signal, options);
  }
}

function site(): FakeSite {
  return new FakeSite({
    'http://a.test/': { body: page('/slow') },
    [SLOW]: { body: page('/a', '/b', '/c') },
    'http://a.test/a': { body: page() },
    'http://a.test/b': { body: page() },
    'http://a.test/c': { body: page() },
  });
}

describe.skipIf(typeof cluster === 'string')('leases of cooperating workers', () => {
  it("refuses the results of a claim that lapsed while its request was out: the worker that took it over records the page, once", async () => {
    if (typeof cluster === 'string') return;
    const db = await cluster.createDatabase();
    const web = site();
    const [a, b] = [await PgStore.open({ url: db, workerId: 'a' }), await PgStore.open({ url: db, workerId: 'b' })];
    try {
      const first = new Worker(web);
      let crawlB: Promise<unknown> | undefined;
      first.hold = async (sent) => {
        sent();
        // Worker a stalls past its lease (30 s, renewed every 10 s: not before this ends).
        await a.sql`UPDATE url SET lease_until = (extract(epoch FROM statement_timestamp()) * 1000)::bigint - 1 WHERE key = ${SLOW}`;
        // Worker b takes the lapsed claim over and crawls to the end before a's answer comes.
        crawlB = runCrawler({ ...OPTIONS, seeds: ['http://a.test/'], store: b, fetcher: new Worker(web) });
        await crawlB;
      };
      // What each run's row counted as its units committed: what a killed run keeps.
      const recorded = new Map<number, number>();
      const recordRunCounts = PgStore.prototype.recordRunCounts;
      const spy = vi.spyOn(PgStore.prototype, 'recordRunCounts').mockImplementation(function (this: PgStore, id, counts) {
        recorded.set(id, counts['requests'] as number);
        return recordRunCounts.call(this, id, counts);
      });
      let summaryA;
      try {
        summaryA = await runCrawler({ ...OPTIONS, seeds: ['http://a.test/'], store: a, fetcher: first });
        await crawlB;
      } finally {
        spy.mockRestore();
      }
      // a's unit for SLOW was rolled back (its claim was b's by then): its request is counted all the same.
      const [runA] = await a.sql`SELECT id FROM crawl_run WHERE worker = 'a'`;
      expect(recorded.get(Number(runA!.id))).toBe(first.requests);
      expect(web.requestCount(SLOW)).toBe(2);
      const fetches = await a.sql`SELECT f.worker, count(*)::integer AS n FROM "fetch" AS f JOIN url AS u ON u.id = f.url_id WHERE u.key = ${SLOW} GROUP BY 1`;
      expect(fetches).toEqual([{ worker: 'b', n: 1 }]);
      const links = await a.sql`SELECT count(*)::integer AS n FROM page_link AS p JOIN url AS u ON u.id = p.from_url WHERE u.key = ${SLOW}`;
      expect(links).toEqual([{ n: 1 }]);
      expect((await a.stats()).links).toBe(4);
      const [rows] = await a.sql`SELECT count(*)::integer AS n, count(*) FILTER (WHERE state = 'done')::integer AS done FROM url`;
      expect(rows).toEqual({ n: 5, done: 5 });
      // a counts what it recorded: the seed alone.
      expect(summaryA.pagesFetched).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it("a worker whose clock runs a minute ahead takes no claim another worker holds", async () => {
    if (typeof cluster === 'string') return;
    const db = await cluster.createDatabase();
    const web = site();
    const a = await PgStore.open({ url: db, workerId: 'a' });
    const b = await PgStore.open({ url: db, workerId: 'b', now: () => Date.now() + 60_000 });
    try {
      const first = new Worker(web);
      let crawlB: Promise<unknown> | undefined;
      first.hold = async (sent) => {
        // b starts while a's request is out, and finds nothing to claim but a's live claim.
        crawlB = runCrawler({ ...OPTIONS, seeds: ['http://a.test/'], store: b, fetcher: new Worker(web) });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        sent();
      };
      await runCrawler({ ...OPTIONS, seeds: ['http://a.test/'], store: a, fetcher: first });
      await crawlB;
      expect(web.requestCount(SLOW)).toBe(1);
      const [fetches] = await a.sql`SELECT count(*)::integer AS n, count(DISTINCT url_id)::integer AS urls FROM "fetch"`;
      expect(fetches).toEqual({ n: 5, urls: 5 });
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
