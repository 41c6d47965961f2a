// The statements a page costs a PostgreSQL worker, counted by the server
// (pg_stat_statements). Each statement costs the server and the worker a fixed share of
// CPU (planning, the driver, the socket) whatever it does, so fewer statements a page is
// less CPU a page on both sides.

import { afterAll, describe, expect, it } from 'vitest';
import { runCrawler } from '../../../src/crawl/index.js';
import type { Fetcher } from '../../../src/fetch/index.js';
import { PgStore } from '../../../src/store/index.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';
import { chainPage, PAGE_CHAIN, pageChainSite } from './page-chain.js';

const cluster = await startPostgres({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
if (typeof cluster === 'string') skipNotice('statements of a PostgreSQL worker', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

const { pages: PAGES, from: FROM, to: TO } = PAGE_CHAIN;

describe.skipIf(typeof cluster === 'string')('statements of a PostgreSQL worker', () => {
  it('a page costs 6 statements: the claim held rides in its links, the run counts in its fetch row', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const name = new URL(url).pathname.slice(1);
    await cluster.psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', name);
    // The worker's own statements: not the lease renewal nor the progress report (each
    // once a second, crawl_worker), nor what a connection the pool opens reads (pg_catalog).
    const count = async (): Promise<{ total: number; kinds: string }> => {
      const rows = await cluster.psql(
        `SELECT s.calls, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 60) FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid
         WHERE d.datname = '${name}' AND s.query NOT LIKE '%crawl_worker%' AND s.query NOT LIKE '%pg_catalog%' AND s.query NOT LIKE '%pg_stat_statements%' ORDER BY 1 DESC`,
        name,
      );
      const lines = rows.trim().split('\n').filter((line) => line !== '');
      return { total: lines.reduce((sum, line) => sum + Number(line.split('|')[0]), 0), kinds: lines.join('\n') };
    };
    const store = await PgStore.open({ url, workerId: 'st' });
    try {
      const web = pageChainSite();
      let counted: { total: number; kinds: string } | undefined;
      // Counted from the request of page FROM to that of page TO: the units of the pages
      // between (each with the claim sent ahead with its COMMIT), not the run's start and end.
      const fetcher: Fetcher = {
        fetch: async (target, signal, options) => {
          if (target === chainPage(FROM)) await cluster.psql('SELECT pg_stat_statements_reset()', name);
          if (target === chainPage(TO)) counted = await count();
          return web.fetch(target, signal, options);
        },
      };
      // One page at a time: each unit's statements are its own.
      const summary = await runCrawler({ seeds: [chainPage(0)], store, fetcher, sitemap: false, concurrency: 1 });
      expect(summary.pagesFetched).toBe(PAGES);
      const perPage = counted!.total / (TO - FROM);
      console.log(`statements a page: ${perPage.toFixed(2)}\n${counted!.kinds}`);
      // BEGIN, the claim held, SAVEPOINT, the links, the fetch row with the run's counts,
      // COMMIT, the next claim. The run's counts were a statement of their own before (8).
      expect(perPage).toBeLessThanOrEqual(6);
    } finally {
      await store.close();
    }
  });

  it("keeps a unit's fetch row back only until its next statement: the unit reads what it recorded, in the order it recorded it", async () => {
    if (typeof cluster === 'string') return;
    const store = await PgStore.open({ url: await cluster.createDatabase(), workerId: 'st' });
    try {
      const [a, b] = (await store.admit([
        { rawHref: 'http://a.test/', target: 'http://a.test/', depth: 0 },
        { rawHref: 'http://a.test/b', target: 'http://a.test/b', depth: 0 },
      ])).map((r) => r.urlId!);
      await store.claim(2);
      const seen = await store.transact(async (tx) => {
        await tx.recordFetch({ urlId: a!, outcome: 'done', startedAt: 1, status: 200 });
        const state = (await tx.getUrl(a!))?.state;
        await tx.recordFetch({ urlId: b!, outcome: 'failed', startedAt: 2, status: 500 });
        await tx.requeue(b!);
        return state;
      });
      expect(seen).toBe('done');
      // b's fetch row was sent before its requeue, not after it: b is queued again.
      expect((await store.getUrl(b!))?.state).toBe('queued');
      const [fetches] = await store.sql`SELECT count(*)::integer AS n FROM "fetch"`;
      expect(fetches).toEqual({ n: 2 });
    } finally {
      await store.close();
    }
  });

  it("sends the run's counts in the statement of the unit's fetch row: a fetch row that fails rolls the counts back with it", async () => {
    if (typeof cluster === 'string') return;
    const store = await PgStore.open({ url: await cluster.createDatabase(), workerId: 'st' });
    try {
      const [a] = (await store.admit([{ rawHref: 'http://a.test/', target: 'http://a.test/', depth: 0 }])).map((r) => r.urlId!);
      const runId = await store.startRun({ startedAt: 1, seeds: ['http://a.test/'], settings: {} });
      await store.transact(async (tx) => {
        await tx.recordFetch({ urlId: a!, outcome: 'done', startedAt: 1, status: 200 });
        await tx.recordRunCounts(runId, { requests: 1 });
      });
      const unit = store.transact(async (tx) => {
        await tx.recordFetch({ urlId: 987_654, outcome: 'done', startedAt: 1, status: 200 });
        await tx.recordRunCounts(runId, { requests: 2 });
      });
      await expect(unit).rejects.toMatchObject({ code: 'ERR_STORE_NOT_FOUND' });
      const [run] = await store.sql`SELECT counts FROM crawl_run WHERE id = ${runId}`;
      expect(JSON.parse(run!.counts as string)).toEqual({ requests: 1 });
      const [fetches] = await store.sql`SELECT count(*)::integer AS n FROM "fetch"`;
      expect(fetches).toEqual({ n: 1 });
    } finally {
      await store.close();
    }
  });

  it("holds a unit's claim in its links' write: a claim another worker took fails that write, and the unit is rolled back with ERR_STORE_CLAIM_LOST", async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const [a, b] = [await PgStore.open({ url, workerId: 'a' }), await PgStore.open({ url, workerId: 'b' })];
    try {
      await a.admit([{ rawHref: 'http://h/1', target: 'http://h/1', depth: 0 }]);
      const [one] = await a.claim(1);
      await a.sql`UPDATE url SET lease_until = (extract(epoch FROM statement_timestamp()) * 1000)::bigint - 1 WHERE id = ${one!.id}`;
      expect((await b.claim(1)).map((c) => c.id)).toEqual([one!.id]);
      let admitted: unknown;
      const unit = a.transact(async (tx) => {
        expect(await tx.holdClaim!(one!.id)).toBe(true);
        admitted = await tx.admit([{ rawHref: 'http://h/x', target: 'http://h/x', depth: 1 }]).catch((error: unknown) => error);
        // Even were the admission's error not the unit's, the unit is not committed.
      });
      await expect(unit).rejects.toMatchObject({ code: 'ERR_STORE_CLAIM_LOST' });
      expect(admitted).toMatchObject({ code: 'ERR_STORE_CLAIM_LOST' });
      expect(await a.findUrl('http://h/x')).toBeUndefined();
      const [row] = await a.sql`SELECT state, claimed_by FROM url WHERE id = ${one!.id}`;
      expect(row).toEqual({ state: 'fetching', claimed_by: 'b' });
      // Held by its owner, the claim rides in the links' write, and the unit commits.
      await b.transact(async (tx) => {
        expect(await tx.holdClaim!(one!.id)).toBe(true);
        await tx.admit([{ rawHref: 'http://h/y', target: 'http://h/y', depth: 1 }]);
        await tx.recordFetch({ urlId: one!.id, outcome: 'done', startedAt: Date.now(), status: 200 });
      });
      expect(await b.findUrl('http://h/y')).toBeDefined();
      expect((await b.getUrl(one!.id))?.state).toBe('done');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
