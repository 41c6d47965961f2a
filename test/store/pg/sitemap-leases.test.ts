// Workers sharing a PostgreSQL index take each queued sitemap with a lease, as they
// claim URLs: one reads it, a dead worker's hold runs out, one given back is free at once.

import { afterAll, expect, it } from 'vitest';
import { PgStore } from '../../../src/store/index.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL sitemap leases', cluster);
const stores: PgStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close().catch(() => {});
  if (typeof cluster !== 'string') await cluster.stop();
});

it.skipIf(typeof cluster === 'string')('a sitemap taken by one worker is not taken by another until given back or its lease runs out', async () => {
  if (typeof cluster === 'string') return;
  let clock = 1_000_000;
  const url = await cluster.createDatabase();
  const open = async (workerId: string): Promise<PgStore> => {
    const store = await PgStore.open({ url, workerId, leaseMs: 5_000, now: () => clock, leaseClock: () => clock, maxConnections: 2 });
    stores.push(store);
    return store;
  };
  const [a, b] = [await open('a'), await open('b')];
  const key = 'http://h/s.xml';
  await a.queueSitemaps([{ key, origin: 'http://h', url: key, source: 'robots', parentId: undefined }]);
  expect(await a.takeSitemap(key)).toBe(true);
  expect(await b.takeSitemap(key)).toBe(false);
  await a.releaseSitemap(key);
  expect(await b.takeSitemap(key)).toBe(true);
  // b dies holding it: a takes it once the hold has run out. The hold is not renewed while a
  // sitemap is read, so it lasts as long as one read may, not as long as a claim's short lease.
  expect(await a.takeSitemap(key)).toBe(false);
  clock += 5_001;
  expect(await a.takeSitemap(key)).toBe(false);
  clock += 120_000;
  expect(await a.takeSitemap(key)).toBe(true);
  await a.recordSitemap(
    { runId: undefined, url: key, source: 'robots', fetchedAt: clock, status: 404, errorCode: undefined, kind: undefined, findings: [], entries: [] },
    { key, state: 'failed', children: [] },
  );
  clock += 200_000;
  expect(await b.takeSitemap(key)).toBe(false);
  expect((await b.sitemapQueue('http://h')).map((row) => row.state)).toEqual(['failed']);
});
