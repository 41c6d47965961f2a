// The round trips a page costs a PostgreSQL worker, counted by a proxy between the
// worker and the server (test/support/delaying-proxy.ts: a chunk the client sends after
// the server answered is one round trip; what the client pipelines counts once). Every
// round trip is a wait the page pays when the database is on another machine.

import { afterAll, describe, expect, it } from 'vitest';
import { runCrawler } from '../../../src/crawl/index.js';
import type { Fetcher } from '../../../src/fetch/index.js';
import { PgStore } from '../../../src/store/index.js';
import { startDelayingProxy, type DelayingProxy } from '../../support/delaying-proxy.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';
import { chainPage, PAGE_CHAIN, pageChainSite } from './page-chain.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('round trips of a PostgreSQL worker', cluster);
let proxy: DelayingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  if (typeof cluster !== 'string') await cluster.stop();
});

const { pages: PAGES, from: FROM, to: TO } = PAGE_CHAIN;

describe.skipIf(typeof cluster === 'string')('round trips of a PostgreSQL worker', () => {
  it('a page costs 2 round trips: its links with the claim held, and its records with COMMIT and the next claim', async () => {
    if (typeof cluster === 'string') return;
    const db = new URL(await cluster.createDatabase());
    // A delay, so that what the worker sends before an answer reaches it counts as one round trip.
    proxy = await startDelayingProxy({ targetPort: Number(db.port), oneWayMs: 2 });
    db.port = String(proxy.port);
    const store = await PgStore.open({ url: db.href, workerId: 'rt' });
    try {
      const web = pageChainSite();
      // Counted from the request of page FROM to that of page TO: the pages between, not the run's start and end.
      let turns = 0;
      let connections = 0;
      let startedAt = 0;
      let seconds = 0;
      const fetcher: Fetcher = {
        fetch: (url, signal, options) => {
          if (url === chainPage(FROM)) {
            proxy!.resetCounts();
            startedAt = performance.now();
          }
          if (url === chainPage(TO)) {
            turns = proxy!.turns;
            connections = proxy!.connections;
            seconds = (performance.now() - startedAt) / 1000;
          }
          return web.fetch(url, signal, options);
        },
      };
      // One page at a time: each unit's round trips are its own.
      const summary = await runCrawler({ seeds: [chainPage(0)], store, fetcher, sitemap: false, concurrency: 1 });
      expect(summary.pagesFetched).toBe(PAGES);
      // Besides the pages: the lease renewal and the progress report, each once a second (a
      // loaded machine takes seconds), and a connection the pool opens meanwhile (its start-up,
      // the types it reads, and each statement described the first time it runs there).
      const background = 2 * Math.ceil(seconds) + 2 + 8 * connections;
      const perPage = (turns - background) / (TO - FROM);
      console.log(`round trips a page: ${perPage.toFixed(2)} (${turns} for ${TO - FROM} pages in ${seconds.toFixed(2)} s, ${background} allowed for renewals, reports and ${connections} connections opened)`);
      // Before units were pipelined, a page took 11 (the claim, the check described then run,
      // BEGIN, the claim held, SAVEPOINT, links, RELEASE, the fetch row, the run's counts,
      // COMMIT, each awaited in turn); with the claim held awaited on its own, 3.
      expect(perPage).toBeLessThanOrEqual(2);
    } finally {
      await store.close();
    }
  });

  it('knows a claimed URL untouched until this worker records anything that moves it, and then has it read', async () => {
    if (typeof cluster === 'string') return;
    const store = await PgStore.open({ url: await cluster.createDatabase(), workerId: 'rt' });
    try {
      const results = await store.admit([
        { rawHref: 'http://a.test/', target: 'http://a.test/', depth: 0 },
        { rawHref: 'http://a.test/b', target: 'http://a.test/b', depth: 0 },
      ]);
      const [a, b] = results.map((r) => r.urlId!);
      const claimed = await store.claim(2);
      expect(claimed.map((c) => c.id).sort()).toEqual([a, b].sort());
      expect(store.isClaimUntouched(a!)).toBe(true);
      expect(store.isClaimUntouched(b!)).toBe(true);
      // Another page's redirect ends at b: b is an alias now, and must be read before it is requested.
      await store.addAlias({ fromId: b!, toId: a!, evidence: 'redirect' });
      expect(store.isClaimUntouched(b!)).toBe(false);
      await store.transact(async (tx) => {
        expect(await tx.holdClaim!(a!)).toBe(true);
        await tx.recordFetch({ urlId: a!, outcome: 'done', startedAt: 1, status: 200 });
      });
      expect(store.isClaimUntouched(a!)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('a write sent without waiting that fails rolls its unit back, with its own error', async () => {
    if (typeof cluster === 'string') return;
    const store = await PgStore.open({ url: await cluster.createDatabase(), workerId: 'rt' });
    try {
      const [admitted] = await store.admit([{ rawHref: 'http://a.test/', target: 'http://a.test/', depth: 0 }]);
      const id = admitted!.urlId!;
      const unit = store.transact(async (tx) => {
        await tx.admit([{ rawHref: 'http://a.test/x', target: 'http://a.test/x', depth: 1 }]);
        await tx.recordFetch({ urlId: id, outcome: 'done', startedAt: 1, status: 200 });
        await tx.recordFetch({ urlId: 987_654, outcome: 'done', startedAt: 1, status: 200 });
      });
      await expect(unit).rejects.toMatchObject({ code: 'ERR_STORE_NOT_FOUND' });
      expect(await store.findUrl('http://a.test/x')).toBeUndefined();
      expect((await store.getUrl(id))?.state).toBe('queued');
      const [fetches] = await store.sql`SELECT count(*)::integer AS n FROM "fetch"`;
      expect(fetches).toEqual({ n: 0 });
    } finally {
      await store.close();
    }
  });
});
