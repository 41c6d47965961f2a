// One contract for every IndexWriter: the SQLite, in-memory and PostgreSQL stores
// must behave alike, so that the crawl never learns which one it writes.

import { afterAll, describe, expect, it } from 'vitest';
import { ladderForms } from '../../src/ladder/index.js';
import { MemoryStore, PgStore, SqliteStore, URL_MOVES, URL_STATES, type AdmitEntry, type ArchivedRecord, type IndexWriter, type StoreBackend, type UrlMove, type UrlOrigin, type UrlState } from '../../src/store/index.js';
import { startPostgres } from '../support/postgres-cluster.js';
import { skipNotice } from '../support/system-tools.js';
import { parseUriReference, type AbsoluteUri } from '../../src/uri/index.js';
import { link as smallCrawlLink } from './small-crawl.js';

// PostgreSQL: a throwaway cluster for this file, a fresh database for each test.
const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('the IndexWriter contract on PostgreSQL', cluster);
const pgStores: PgStore[] = [];
afterAll(async () => {
  for (const store of pgStores) await store.close().catch(() => {});
  if (typeof cluster !== 'string') await cluster.stop();
});

const implementations: [string, () => Promise<IndexWriter>][] = [
  ['SqliteStore', async () => new SqliteStore({ path: ':memory:', now: () => 1_700_000_000_000 })],
  ['MemoryStore', async () => new MemoryStore({ now: () => 1_700_000_000_000 })],
  ...(typeof cluster === 'string' ? [] : [['PgStore', async () => {
      const store = await PgStore.open({ url: await cluster.createDatabase(), now: () => 1_700_000_000_000, maxConnections: 2 });
      pgStores.push(store);
      return store;
    }] as [string, () => Promise<IndexWriter>]]),
];

/** A link written as its target. */
const link = (fromUrlId: number, target: string, extra: Partial<AdmitEntry> = {}): AdmitEntry => smallCrawlLink(fromUrlId, target, target, extra);

async function seed(store: IndexWriter, uri = 'http://host/'): Promise<number> {
  const [result] = await store.admit([{ rawHref: uri, target: uri, depth: 0 }]);
  return result!.urlId!;
}

describe.each(implementations)('IndexWriter contract: %s', (_name, open) => {
  it('admits a seed as a new, queued URL and writes no link for it', async () => {
    const store = await open();
    const [result] = await store.admit([{ rawHref: 'http://host/', target: 'http://host/', depth: 0 }]);
    expect(result).toEqual({ urlId: 1, rung: 'new', ladderRung: 'new', isQueued: true, error: undefined });
    expect((await store.stats()).links).toBe(0);
    expect(await store.getUrl(1)).toEqual({ id: 1, key: 'http://host/', state: 'queued', depth: 0, aliasOf: undefined, role: 'page' });
  });

  it('reports the rung at which each spelling of one target met the index', async () => {
    const store = await open();
    const page = await seed(store);
    const results = await store.admit([
      link(page, 'http://host/b.'),
      link(page, 'http://host/b.'), // string: the same string again
      link(page, 'http://host/a/../b.'), // resolution would have removed the dots; written raw it meets at syntax
      link(page, 'http://host/b%2e'), // syntax: %2e decoded
      link(page, 'HTTP://HOST/b.'), // syntax: case
      link(page, 'http://host:80/b.'), // scheme: default port
      link(page, 'http://host:/b.'), // scheme: empty port
      link(page, 'http://host/b.#x'), // string: the fragment is not part of the resource
      link(page, 'http://HOST:80/b%2E#y'), // syntax: meets the spelling with :80 seen above
      link(page, 'http://HOST:0080/b%2E'), // scheme
    ]);
    expect(results.map((r) => r.rung)).toEqual(['new', 'string', 'syntax', 'syntax', 'syntax', 'scheme', 'scheme', 'string', 'syntax', 'scheme']);
    expect(new Set(results.map((r) => r.urlId))).toEqual(new Set([2]));
    expect(results.map((r) => r.isQueued)).toEqual([true, false, false, false, false, false, false, false, false, false]);
    const stats = await store.stats();
    expect(stats.links).toBe(10);
    expect(stats.linksByRung).toEqual({ new: 1, string: 2, syntax: 4, scheme: 3, protocol: 0 });
    expect(stats.urlsByState.queued).toBe(2);
  });

  it('says string for the key itself, and syntax for a spelling that meets another spelling only there', async () => {
    const store = await open();
    const page = await seed(store);
    const results = await store.admit([
      link(page, 'HTTP://host:80/x'), // new; key http://host/x
      link(page, 'http://host/x'), // string: the key itself
      link(page, 'http://HOST:80/x'), // syntax: meets HTTP://host:80/x at http://host:80/x
      link(page, 'http://host:0080/x'), // scheme
    ]);
    expect(results.map((r) => r.rung)).toEqual(['new', 'string', 'syntax', 'scheme']);
  });

  it('records links that do not resolve, with their error, and queues nothing for them', async () => {
    const store = await open();
    const page = await seed(store);
    const results = await store.admit([
      { fromUrlId: page, rawHref: 'http://a b/', target: undefined, error: 'ERR_URI_BAD_HOST' },
      { fromUrlId: page, rawHref: 'x', target: 'not a uri' },
      { fromUrlId: page, rawHref: 'rel', target: 'rel/ative' },
    ]);
    expect(results).toEqual([
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_BAD_HOST' },
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_BAD_PATH' },
      { urlId: undefined, rung: undefined, isQueued: false, error: 'ERR_URI_NOT_ABSOLUTE' },
    ]);
    expect((await store.stats()).linksWithoutTarget).toBe(3);
  });

  it('records but does not queue what is not followed, and queues it once a followed link names it', async () => {
    const store = await open();
    const page = await seed(store);
    const [img] = await store.admit([link(page, 'http://host/i.png', { follow: false, element: 'img', attribute: 'src' })]);
    expect(img).toMatchObject({ rung: 'new', isQueued: false });
    expect((await store.getUrl(img!.urlId!))?.state).toBe('skipped');
    expect((await store.admit([link(page, 'http://host/i.png', { follow: false })]))[0]).toMatchObject({ isQueued: false });
    expect((await store.admit([link(page, 'http://host/i.png')]))[0]).toMatchObject({ rung: 'string', isQueued: true });
    expect((await store.getUrl(img!.urlId!))?.state).toBe('queued');
    expect((await store.admit([link(page, 'http://host/i.png')]))[0]).toMatchObject({ isQueued: false });
  });

  it('within a depth, hosts take turns: a host with many queued URLs does not keep the others behind it', async () => {
    const store = await open();
    const page = await seed(store);
    await store.admit([
      ...Array.from({ length: 20 }, (_, i) => link(page, `http://wide/${i}`, { depth: 1 })),
      link(page, 'http://b/', { depth: 1 }),
      link(page, 'http://c/', { depth: 1 }),
      link(page, 'http://wide/deep', { depth: 2 }),
    ]);
    expect((await store.claim(1)).map((u) => u.key)).toEqual(['http://host/']);
    expect((await store.claim(3)).map((u) => u.key).sort()).toEqual(['http://b/', 'http://c/', 'http://wide/0']);
    expect((await store.claim(2)).map((u) => u.key)).toEqual(['http://wide/1', 'http://wide/2']);
  });

  it('claims shallowest first, records fetches, and never hands out a URL twice', async () => {
    const store = await open();
    const page = await seed(store);
    await store.admit([link(page, 'http://host/deep', { depth: 3 }), link(page, 'http://host/a', { depth: 1 }), link(page, 'http://host/b', { depth: 1 })]);
    const first = await store.claim(2);
    expect(first.map((u) => u.key)).toEqual(['http://host/', 'http://host/a']);
    expect(first[0]).toEqual({ id: 1, key: 'http://host/', depth: 0, host: 'host', role: 'page' });
    const second = await store.claim(10);
    expect(second.map((u) => u.key)).toEqual(['http://host/b', 'http://host/deep']);
    expect(await store.claim(10)).toEqual([]);
    await store.recordFetch({ urlId: 1, outcome: 'done', startedAt: 1, durationMs: 5, status: 200, contentType: 'text/html', bytes: 10 });
    await store.recordFetch({ urlId: 2, outcome: 'failed', startedAt: 1, errorCode: 'ERR_FETCH_TIMEOUT' });
    const stats = await store.stats();
    expect(stats.fetches).toBe(2);
    expect(stats.urlsByState).toMatchObject({ done: 1, failed: 1, fetching: 2, queued: 0 });
  });

  it('queues a URL as its link\'s role, raises a queued one to a higher role, and keeps each fetch\'s method (migration 006)', async () => {
    const store = await open();
    const page = await seed(store);
    await store.admit([
      link(page, 'http://host/pic', { role: 'resource' }),
      link(page, 'http://other/x', { role: 'external' }),
      link(page, 'http://other/y', { role: 'external', follow: false }),
      link(page, 'http://host/deep', { role: 'page', follow: false }),
    ]);
    expect(await store.findUrl('http://host/pic')).toMatchObject({ state: 'queued', role: 'resource' });
    expect(await store.findUrl('http://other/y')).toMatchObject({ state: 'skipped', role: 'external' });
    // A followed page link to the queued resource makes it a page; an external link lowers nothing.
    await store.admit([link(page, 'http://host/pic'), link(page, 'http://host/pic', { role: 'external' }), link(page, 'http://other/y', { role: 'external' })]);
    expect(await store.findUrl('http://host/pic')).toMatchObject({ state: 'queued', role: 'page' });
    expect(await store.findUrl('http://other/y')).toMatchObject({ state: 'queued', role: 'external' });
    // A skipped URL followed later takes the role of the link that queues it.
    await store.admit([link(page, 'http://host/deep', { role: 'resource' })]);
    expect(await store.findUrl('http://host/deep')).toMatchObject({ state: 'queued', role: 'resource' });
    const claimed = await store.claim(10);
    expect(claimed.map((u) => [u.key, u.role])).toEqual([
      ['http://host/', 'page'],
      ['http://host/pic', 'page'],
      ['http://other/x', 'external'],
      ['http://other/y', 'external'],
      ['http://host/deep', 'resource'],
    ]);
    // Claimed: no longer raised.
    await store.admit([link(page, 'http://other/x', { role: 'page' })]);
    expect(await store.findUrl('http://other/x')).toMatchObject({ state: 'fetching', role: 'external' });
    const x = claimed[2]!.id;
    await store.recordFetch({ urlId: x, outcome: 'done', startedAt: 1, durationMs: 5, status: 404, method: 'HEAD' });
    const history = await store.history(x);
    expect(history?.fetches.map((f) => f.method)).toEqual(['HEAD']);
    expect((await store.history(page))?.fetches).toEqual([]);
  });

  it('keeps which URL each fetch stands for, as the crawler says it', async () => {
    const store = await open();
    const page = await seed(store);
    const [moved] = await store.admit([link(page, 'http://host/moved')]);
    await store.recordFetch({ urlId: moved!.urlId!, outcome: 'done', startedAt: 1, status: 200, finalUrl: 'http://host/', representsUrlId: page });
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
    expect((await store.history(moved!.urlId!))?.fetches.map((f) => f.representsUrlId)).toEqual([page]);
    expect((await store.history(page))?.fetches.map((f) => f.representsUrlId)).toEqual([undefined]);
  });

  it('keeps the digest of a body read (migration 009), and none where none was given', async () => {
    const store = await open();
    const page = await seed(store);
    const [other] = await store.admit([link(page, 'http://host/other')]);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200, method: 'GET', digest: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg' });
    await store.recordFetch({ urlId: other!.urlId!, outcome: 'done', startedAt: 2, status: 404, method: 'GET' });
    expect((await store.history(page))?.fetches.map((f) => f.digest)).toEqual(['n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg']);
    expect((await store.history(other!.urlId!))?.fetches.map((f) => f.digest)).toEqual([undefined]);
  });

  it('applies aliases: a later link to an aliased URL names its target and queues nothing', async () => {
    const store = await open();
    const page = await seed(store);
    const [a, b] = await store.admit([link(page, 'http://host/dir'), link(page, 'http://host/dir/')]);
    await store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'redirect', detail: '301' });
    expect(await store.getUrl(a!.urlId!)).toMatchObject({ state: 'alias', aliasOf: b!.urlId });
    const later = await store.admit([link(page, 'http://host/dir'), link(page, 'http://HOST:80/dir'), link(page, 'http://host/dir/')]);
    expect(later.map((r) => [r.urlId, r.rung, r.isQueued])).toEqual([
      [b!.urlId, 'protocol', false],
      [b!.urlId, 'protocol', false],
      [b!.urlId, 'string', false],
    ]);
    expect((await store.stats()).aliasesByEvidence).toEqual({ redirect: 1, 'content-location': 0, canonical: 0, digest: 0, rule: 0 });
  });

  it('follows alias chains and is safe in a loop', async () => {
    const store = await open();
    const page = await seed(store);
    const ids = (await store.admit(['x', 'y', 'z'].map((p) => link(page, `http://host/${p}`)))).map((r) => r.urlId!);
    await store.addAlias({ fromId: ids[0]!, toId: ids[1]!, evidence: 'redirect' });
    await store.addAlias({ fromId: ids[1]!, toId: ids[2]!, evidence: 'content-location' });
    expect((await store.admit([link(page, 'http://host/x')]))[0]).toMatchObject({ urlId: ids[2], rung: 'protocol' });
    await store.addAlias({ fromId: ids[2]!, toId: ids[0]!, evidence: 'redirect' });
    expect((await store.admit([link(page, 'http://host/y')]))[0]).toMatchObject({ urlId: Math.min(...ids), rung: 'protocol' });
  });

  it('records canonical claims without following them, and revokes an alias', async () => {
    const store = await open();
    const page = await seed(store);
    const [a, b] = await store.admit([link(page, 'http://host/p?utm=1'), link(page, 'http://host/p')]);
    await store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'canonical' });
    expect((await store.admit([link(page, 'http://host/p?utm=1')]))[0]).toMatchObject({ urlId: a!.urlId, rung: 'string' });
    await store.addAlias({ fromId: a!.urlId!, toId: b!.urlId!, evidence: 'redirect' });
    expect((await store.admit([link(page, 'http://host/p?utm=1')]))[0]).toMatchObject({ urlId: b!.urlId, rung: 'protocol' });
    await store.revokeAlias(a!.urlId!);
    expect(await store.getUrl(a!.urlId!)).toMatchObject({ state: 'queued', aliasOf: undefined });
    expect((await store.admit([link(page, 'http://host/p?utm=1')]))[0]).toMatchObject({ urlId: a!.urlId, rung: 'string' });
    expect((await store.stats()).aliasesByEvidence).toEqual({ redirect: 0, 'content-location': 0, canonical: 1, digest: 0, rule: 0 });
  });

  it('finds a URL by any spelling of it', async () => {
    const store = await open();
    await seed(store, 'http://host/a%7Eb');
    expect(await store.findUrl('HTTP://host:80/a~b#frag')).toMatchObject({ id: 1, key: 'http://host/a~b' });
    expect(await store.findUrl('http://other/')).toBeUndefined();
    expect(await store.findUrl('not a uri')).toBeUndefined();
  });

  it('refuses a batch from an unknown page as a whole', async () => {
    const store = await open();
    const page = await seed(store);
    await expect(store.admit([link(page, 'http://host/ok'), link(999, 'http://host/bad')])).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
    expect(await store.findUrl('http://host/ok')).toBeUndefined();
    expect((await store.stats()).links).toBe(0);
    // and the cache forgot the rolled-back URL
    expect((await store.admit([link(page, 'http://host/ok')]))[0]).toMatchObject({ rung: 'new', isQueued: true });
    await expect(store.recordFetch({ urlId: 999, outcome: 'done', startedAt: 0 })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
  });
});

describe.each(implementations)('ladder attribution of hrefs as a crawler resolves them: %s', (_name, open) => {
  it('transact: all the work of a unit is recorded, or none when it throws', async () => {
    const store = await open();
    const page = await seed(store);
    await expect(
      store.transact(async (tx) => {
        await tx.admit([link(page, 'http://host/lost')]);
        await tx.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
        throw new Error('crash in the middle of a page');
      }),
    ).rejects.toThrow('crash in the middle');
    expect(await store.findUrl('http://host/lost')).toBeUndefined();
    expect((await store.getUrl(page))?.state).toBe('queued');
    expect(await store.stats()).toMatchObject({ links: 0, fetches: 0 });
    // The store still works, and a later admit of the same target is new again.
    const [again] = await store.admit([link(page, 'http://host/lost')]);
    expect(again?.rung).toBe('new');
    const value = await store.transact(async (tx) => {
      await tx.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
      return 42;
    });
    expect(value).toBe(42);
    expect((await store.getUrl(page))?.state).toBe('done');
    // A unit that fails halfway through a call leaves the units before it.
    await expect(store.transact((tx) => tx.recordFetch({ urlId: 999, outcome: 'done', startedAt: 1 }))).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }),
    );
    expect((await store.getUrl(page))?.state).toBe('done');
  });

  it('requeues a URL in any state but alias', async () => {
    const store = await open();
    const page = await seed(store);
    const [claimed] = await store.claim(1);
    expect(claimed?.id).toBe(page);
    await store.requeue(page);
    expect((await store.getUrl(page))?.state).toBe('queued');
    const [other] = await store.admit([link(page, 'http://host/other')]);
    await store.addAlias({ fromId: other!.urlId!, toId: page, evidence: 'redirect' });
    await store.requeue(other!.urlId!);
    expect((await store.getUrl(other!.urlId!))?.state).toBe('alias');
    await expect(store.requeue(999)).rejects.toThrow(expect.objectContaining({ code: 'ERR_STORE_NOT_FOUND' }));
  });

  it('requeues for a re-check every URL fetched and every URL that answered a redirect (no longer an alias), and no other alias', async () => {
    const store = await open();
    const page = await seed(store);
    await store.claim(1);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
    const [old, negotiated, gone, queued] = await store.admit([
      link(page, 'http://host/old'),
      link(page, 'http://host/negotiated'),
      link(page, 'http://host/gone'),
      link(page, 'http://host/queued'),
    ]);
    await store.claim(2);
    await store.recordFetch({ urlId: old!.urlId!, outcome: 'done', startedAt: 2, status: 301 });
    await store.addAlias({ fromId: old!.urlId!, toId: page, evidence: 'redirect', detail: '301' });
    await store.addAlias({ fromId: old!.urlId!, toId: page, evidence: 'canonical', detail: '/' });
    await store.recordFetch({ urlId: negotiated!.urlId!, outcome: 'done', startedAt: 3, status: 200 });
    await store.addAlias({ fromId: negotiated!.urlId!, toId: page, evidence: 'content-location', detail: '/' });
    await store.claim(1);
    await store.recordFetch({ urlId: gone!.urlId!, outcome: 'failed', startedAt: 4, errorCode: 'ERR_FETCH_NETWORK' });
    expect(await store.requeueFetched()).toEqual({ generation: 1, isJoined: false, queued: 3 });
    const state = async (id: number): Promise<unknown> => {
      const url = await store.getUrl(id);
      return [url?.state, url?.aliasOf];
    };
    expect(await state(page)).toEqual(['queued', undefined]);
    expect(await state(old!.urlId!)).toEqual(['queued', undefined]);
    expect(await state(negotiated!.urlId!)).toEqual(['alias', page]);
    expect(await state(gone!.urlId!)).toEqual(['queued', undefined]);
    expect(await state(queued!.urlId!)).toEqual(['queued', undefined]);
    // The redirect is no longer proof of anything; the canonical claim is kept.
    expect((await store.history(old!.urlId!))!.aliasesFrom.map((a) => a.evidence)).toEqual(['canonical']);
    // A link to it now names it, not what it redirected to.
    const [again] = await store.admit([link(page, 'http://host/old')]);
    expect(again).toMatchObject({ urlId: old!.urlId!, rung: 'string' });
  });

  it('joins a re-check in progress (URLs of it left to fetch) and queues nothing, and begins the next one once it is finished', async () => {
    const store = await open();
    const page = await seed(store);
    const [a, b] = await store.admit([link(page, 'http://host/a'), link(page, 'http://host/b')]);
    await store.claim(3);
    for (const id of [page, a!.urlId!, b!.urlId!]) await store.recordFetch({ urlId: id, outcome: 'done', startedAt: 1, status: 200 });
    const state = async (id: number): Promise<unknown> => (await store.getUrl(id))?.state;
    expect(await store.requeueFetched({ runId: await store.startRun({ startedAt: 2, seeds: [], settings: {} }) })).toEqual({ generation: 1, isJoined: false, queued: 3 });
    // Two re-checked; another worker (or this one, started again) joins: they stay done.
    const claimed = await store.claim(2);
    for (const { id } of claimed) await store.recordFetch({ urlId: id, outcome: 'done', startedAt: 3, status: 200 });
    await store.startRun({ startedAt: 4, seeds: [], settings: {} });
    expect(await store.requeueFetched()).toEqual({ generation: 1, isJoined: true, queued: 0 });
    for (const { id } of claimed) expect(await state(id)).toBe('done');
    // One left, claimed: still in progress.
    const [last] = await store.claim(1);
    expect(await store.requeueFetched()).toEqual({ generation: 1, isJoined: true, queued: 0 });
    await store.recordFetch({ urlId: last!.id, outcome: 'done', startedAt: 5, status: 200 });
    // Finished: the next re-check asks everything again.
    expect(await store.requeueFetched({ sitemaps: true })).toEqual({ generation: 2, isJoined: false, queued: 3 });
    for (const id of [page, a!.urlId!, b!.urlId!]) expect(await state(id)).toBe('queued');
  });

  it('takes what a run queues after a re-check finished for no re-check in progress: the next --recheck begins one', async () => {
    const store = await open();
    const page = await seed(store);
    await store.claim(1);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
    expect(await store.requeueFetched()).toMatchObject({ generation: 1, isJoined: false });
    await store.claim(1);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 2, status: 200 });
    // A crawl without --recheck adds a seed and stops before fetching it.
    await store.startRun({ startedAt: 3, seeds: [], settings: {} });
    const [other] = await store.admit([{ rawHref: 'http://other/', target: 'http://other/', depth: 0 }]);
    expect((await store.getUrl(other!.urlId!))?.state).toBe('queued');
    await store.startRun({ startedAt: 4, seeds: [], settings: {} });
    expect(await store.requeueFetched()).toEqual({ generation: 2, isJoined: false, queued: 1 });
    expect((await store.getUrl(page))?.state).toBe('queued');
  });

  it('empties the sitemap frontier when a re-check begins with `sitemaps`, not when it is joined', async () => {
    const store = await open();
    const page = await seed(store);
    const entry = { key: 'http://host/sitemap.xml', origin: 'http://host', url: 'http://host/sitemap.xml', source: 'origin' as const, parentId: undefined };
    await store.queueSitemaps([entry]);
    await store.claim(1);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
    expect(await store.requeueFetched({ sitemaps: false })).toMatchObject({ isJoined: false });
    expect(await store.sitemapQueue('http://host')).toHaveLength(1);
    expect(await store.requeueFetched({ sitemaps: true })).toMatchObject({ isJoined: true });
    expect(await store.sitemapQueue('http://host')).toHaveLength(1);
    await store.claim(1);
    await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 2, status: 200 });
    expect(await store.requeueFetched({ sitemaps: true })).toMatchObject({ generation: 2, isJoined: false });
    expect(await store.sitemapQueue('http://host')).toEqual([]);
  });

  it('keeps robots.txt per origin, replacing an older entry', async () => {
    const { robotsCache } = await open();
    expect(await robotsCache.get('http://host')).toBeUndefined();
    await robotsCache.set('http://host', { fetchedAt: 1, status: 200, errorCode: undefined, body: 'User-agent: *\nDisallow: /x' });
    await robotsCache.set('http://host', { fetchedAt: 2, status: 404, errorCode: undefined, body: undefined });
    expect(await robotsCache.get('http://host')).toMatchObject({ fetchedAt: 2, status: 404 });
    expect(await robotsCache.get('http://other')).toBeUndefined();
  });

  it('keeps the history that explains a URL: its first link, its fetches and its aliases', async () => {
    const store = await open();
    const page = await seed(store);
    const [first] = await store.admit([link(page, 'http://host/moved', { rawHref: 'moved' })]);
    await store.admit([link(page, 'http://host/moved', { rawHref: './moved' })]);
    const [final] = await store.admit([{ rawHref: 'http://host/new', target: 'http://host/new' }]);
    const moved = first!.urlId!;
    await store.recordFetch({
      urlId: moved,
      outcome: 'done',
      startedAt: 5,
      status: 200,
      attempts: 2,
      finalUrl: 'http://host/new',
      redirects: [{ from: 'http://host/moved', to: 'http://host/new', status: 301 }],
      findings: ['HTML_BASE_IN_BODY'],
      anchors: ['top', 'x'],
    });
    await store.addAlias({ fromId: moved, toId: final!.urlId!, evidence: 'redirect', detail: '301' });
    const history = (await store.history(moved))!;
    expect(history.url.state).toBe('alias');
    expect(history.firstLink).toEqual({ fromUrlId: page, fromKey: 'http://host/', rawHref: 'moved', element: 'a', attribute: 'href' });
    expect(history.fetches).toHaveLength(1);
    expect(history.fetches[0]).toMatchObject({
      status: 200,
      attempts: 2,
      redirects: [{ from: 'http://host/moved', to: 'http://host/new', status: 301 }],
      findings: ['HTML_BASE_IN_BODY'],
      anchors: ['top', 'x'],
    });
    expect(history.aliasesFrom).toEqual([
      expect.objectContaining({ fromId: moved, fromKey: 'http://host/moved', toKey: 'http://host/new', evidence: 'redirect', detail: '301' }),
    ]);
    expect((await store.history(final!.urlId!))?.aliasesTo).toHaveLength(1);
    expect((await store.history(final!.urlId!))?.firstLink).toEqual({ fromUrlId: undefined, fromKey: undefined, rawHref: 'http://host/new' });
    expect(await store.history(999)).toBeUndefined();
  });

  it('/a/../b, /B%2e, HTTP://HOST:80/b and //host/b#x against http://host/x', async () => {
    const { resolve } = await import('../../src/index.js');
    const store = await open();
    const page = await seed(store, 'http://host/x');
    const base = 'http://host/x';
    const hrefs = ['b', '/a/../b', '/B%2e', '/B%2E', 'HTTP://HOST:80/b', '//host/b#x'];
    const results = await store.admit(hrefs.map((href) => ({ ...link(page, resolve(href, base)), rawHref: href })));
    expect(results.map((r) => r.rung)).toEqual([
      'new', // http://host/b
      'string', // §5.2 resolution already removed the dot segments: http://host/b
      'new', // http://host/B%2e is /B. — paths are case-sensitive: another resource
      'syntax', // http://host/B%2E meets it once %2E is decoded
      'scheme', // http://host/b once the case and the default port go
      'string', // the fragment is not part of the resource (§6.1)
    ]);
    expect(results[1]!.urlId).toBe(results[0]!.urlId);
    expect(results[4]!.urlId).toBe(results[0]!.urlId);
    expect(results[5]!.urlId).toBe(results[0]!.urlId);
    expect(results[3]!.urlId).toBe(results[2]!.urlId);
  });
});

describe.each(implementations)('IndexWriter contract, crawl runs: %s', (_name, open) => {
  it('records a run when it starts and how it ended, and reads them back oldest first, the writer and the reader alike', async () => {
    const store = await open();
    expect(await store.runs()).toEqual([]);
    const settings = { scope: 'prefix', include: ['^http://h/a'], maxDepth: 3, follow: ['link'] };
    const first = await store.startRun({ startedAt: 10, seeds: ['http://h/a/'], settings });
    const second = await store.startRun({ startedAt: 20, seeds: ['http://h/b/'], settings: {} });
    await store.endRun(first, { endedAt: 15, stoppedBy: 'frontier-empty', outcome: 'finished', counts: { requests: 3 } });
    const expected = [
      { id: first, startedAt: 10, seeds: ['http://h/a/'], settings, endedAt: 15, stoppedBy: 'frontier-empty', outcome: 'finished', counts: { requests: 3 } },
      { id: second, startedAt: 20, seeds: ['http://h/b/'], settings: {}, endedAt: undefined, stoppedBy: undefined, outcome: undefined, counts: undefined },
    ];
    expect(await store.runs()).toEqual(expected);
    await store.flush();
    const reader = (store as unknown as { reader(): { runs(): Promise<unknown> } }).reader();
    expect(await reader.runs()).toEqual(expected);
  });

  it('keeps the counts of a run that has not ended, written in the unit of the outcomes they count, and lets its end replace them', async () => {
    const store = await open();
    const id = await store.startRun({ startedAt: 10, seeds: ['http://h/'], settings: {} });
    const page = await seed(store, 'http://h/');
    await store.claim(1);
    // The unit that records an outcome counts its requests: both, or neither.
    await store.transact(async (tx) => {
      await tx.recordFetch({ urlId: page, outcome: 'done', startedAt: 11, status: 200, attempts: 1 });
      await tx.recordRunCounts(id, { requests: 2, requestsByKind: { fetches: 1, retries: 0, redirects: 0, robots: 1 } });
    });
    const failing = store.transact(async (tx) => {
      await tx.recordRunCounts(id, { requests: 9 });
      throw new Error('the unit fails');
    });
    await expect(failing).rejects.toThrow('the unit fails');
    const byKind = { fetches: 1, retries: 0, redirects: 0, robots: 1 };
    expect((await store.runs())[0]).toMatchObject({ endedAt: undefined, counts: { requests: 2, requestsByKind: byKind } });
    expect((await store.getUrl(page))?.state).toBe('done');
    await store.endRun(id, { endedAt: 20, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: { requests: 3 } });
    // Once ended, the run's counts are its end's.
    await store.recordRunCounts(id, { requests: 1 });
    expect((await store.runs())[0]).toMatchObject({ endedAt: 20, counts: { requests: 3 } });
  });
});

describe.each(implementations)('IndexWriter contract, the sitemap frontier (migration 011): %s', (_name, open) => {
  const origin = 'http://h';
  const entry = (path: string, source: 'origin' | 'robots' | 'index' = 'robots') => ({ key: `${origin}${path}`, origin, url: `${origin}${path}`, source, parentId: undefined });
  const record = (url: string) => ({ runId: undefined, url, source: 'robots' as const, fetchedAt: 1, status: 200, errorCode: undefined, kind: 'sitemapindex' as const, findings: [], entries: [] });

  it('queues each sitemap once, settles it with its record, queues what an index names, and is emptied for a re-check', async () => {
    const store = await open();
    expect(await store.sitemapQueue(origin)).toEqual([]);
    await store.queueSitemaps([entry('/s.xml'), entry('/sitemap.xml', 'origin'), entry('/s.xml', 'origin')]);
    await store.queueSitemaps([entry('/sitemap.xml')]);
    expect((await store.sitemapQueue(origin)).map((r) => [r.url, r.source, r.state])).toEqual([
      [`${origin}/s.xml`, 'robots', 'queued'],
      [`${origin}/sitemap.xml`, 'origin', 'queued'],
    ]);
    expect(await store.sitemapQueue('http://other')).toEqual([]);
    expect(await store.takeSitemap(`${origin}/s.xml`)).toBe(true);
    expect(await store.takeSitemap(`${origin}/none.xml`)).toBe(false);
    // Taken and given back unread: taken again.
    expect(await store.takeSitemap(`${origin}/sitemap.xml`)).toBe(true);
    await store.releaseSitemap(`${origin}/sitemap.xml`);
    expect(await store.takeSitemap(`${origin}/sitemap.xml`)).toBe(true);
    const children = [{ key: `${origin}/c1.xml`, origin, url: `${origin}/c1.xml#x`, source: 'index' as const }, { key: `${origin}/s.xml`, origin, url: `${origin}/s.xml`, source: 'index' as const }];
    const id = await store.recordSitemap(record(`${origin}/s.xml`), { key: `${origin}/s.xml`, state: 'read', children });
    await store.recordSitemap({ ...record(`${origin}/sitemap.xml`), status: 404, kind: undefined }, { key: `${origin}/sitemap.xml`, state: 'failed', children: [] });
    expect(await store.sitemapQueue(origin)).toEqual([
      { key: `${origin}/s.xml`, origin, url: `${origin}/s.xml`, source: 'robots', parentId: undefined, state: 'read' },
      { key: `${origin}/sitemap.xml`, origin, url: `${origin}/sitemap.xml`, source: 'origin', parentId: undefined, state: 'failed' },
      { key: `${origin}/c1.xml`, origin, url: `${origin}/c1.xml#x`, source: 'index', parentId: id, state: 'queued' },
    ]);
    // A sitemap read or failed is not taken again.
    expect(await store.takeSitemap(`${origin}/s.xml`)).toBe(false);
    expect(await store.takeSitemap(`${origin}/sitemap.xml`)).toBe(false);
    // What a unit that fails wrote is not kept.
    await expect(
      store.transact(async (tx) => {
        await tx.queueSitemaps([entry('/lost.xml')]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.sitemapQueue(origin)).map((r) => r.url)).not.toContain(`${origin}/lost.xml`);
    await store.flush();
    await store.clearSitemapQueue();
    expect(await store.sitemapQueue(origin)).toEqual([]);
  });
});

describe.each(implementations)('IndexWriter contract, WARC records (migration 014): %s', (_name, open) => {
  const at = (iso: string) => new Date(iso);
  const record = (extra: Partial<ArchivedRecord> = {}): ArchivedRecord => ({
    uri: 'http://h/a',
    file: 'crawl.warc.gz',
    offset: 0,
    length: 100,
    type: 'response',
    payloadDigest: 'sha256:AAAA',
    date: at('2026-11-27T23:59:01Z'),
    status: 200,
    ...extra,
  });

  it('records WARC records with their run and reads those of a URL back newest first, by the URL as requested or any spelling of it', async () => {
    const store = await open();
    expect(await store.archivedRecords('http://h/a')).toEqual([]);
    const run = await store.startRun({ startedAt: 10, seeds: ['http://h/'], settings: {} });
    await store.recordArchived([
      record({ type: 'request', offset: 0, length: 50, payloadDigest: undefined, status: undefined }),
      record({ offset: 50, length: 678 }),
      record({ uri: 'http://h/b', offset: 728, length: 300, payloadDigest: 'sha256:BBBB' }),
    ]);
    // Written later (a re-check), with a spelling of the same resource: a revisit.
    await store.recordArchived([record({ uri: 'HTTP://H:80/%61', file: 'crawl-00001.warc.gz', offset: 12345, length: 60, type: 'revisit', date: at('2026-11-28T00:10:00Z'), runId: run })]);
    const expected = [
      { ...record({ uri: 'HTTP://H:80/%61', file: 'crawl-00001.warc.gz', offset: 12345, length: 60, type: 'revisit', date: at('2026-11-28T00:10:00Z') }), runId: run },
      { ...record({ offset: 50, length: 678 }), runId: run },
      { ...record({ type: 'request', offset: 0, length: 50, payloadDigest: undefined, status: undefined }), runId: run },
    ];
    // Same WARC-Date: the one recorded later first.
    expect((await store.archivedRecords('http://h/a')).map((r) => [r.type, r.offset])).toEqual([['revisit', 12345], ['response', 50], ['request', 0]]);
    expect(await store.archivedRecords('http://h/a')).toEqual(expected);
    expect(await store.archivedRecords('http://h/a#part')).toEqual(expected);
    expect(await store.archivedRecords('HTTP://H:80/%61')).toEqual(expected);
    expect((await store.archivedRecords('http://h/b')).map((r) => r.offset)).toEqual([728]);
    expect(await store.archivedRecords('http://h/c')).toEqual([]);
    // A target that is no absolute URI is found as written only.
    await store.recordArchived([record({ uri: 'not a uri', offset: 2000 })]);
    expect((await store.archivedRecords('not a uri')).map((r) => r.offset)).toEqual([2000]);
    expect(await store.archivedRecords('not  a uri')).toEqual([]);
  });

  it('finds the first response with a payload digest (what a revisit refers to), never a revisit or a request', async () => {
    const store = await open();
    expect(await store.archivedPayload('sha256:AAAA')).toBeUndefined();
    await store.recordArchived([record({ uri: 'http://h/r', type: 'revisit', offset: 10 }), record({ uri: 'http://h/q', type: 'request', offset: 20 })]);
    expect(await store.archivedPayload('sha256:AAAA')).toBeUndefined();
    await store.recordArchived([record({ uri: 'http://h/first', offset: 30, date: at('2026-11-27T23:00:00Z') })]);
    await store.recordArchived([record({ uri: 'http://h/second', offset: 40 })]);
    expect(await store.archivedPayload('sha256:AAAA')).toEqual({ ...record({ uri: 'http://h/first', offset: 30, date: at('2026-11-27T23:00:00Z') }), runId: undefined });
    expect(await store.archivedPayload('sha256:ZZZZ')).toBeUndefined();
  });

  it('keeps nothing a failed unit wrote, and reads what a unit wrote inside it', async () => {
    const store = await open();
    await expect(
      store.transact(async (tx) => {
        await tx.recordArchived([record()]);
        expect((await tx.archivedRecords('http://h/a')).length).toBe(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.archivedRecords('http://h/a')).toEqual([]);
    expect(await store.archivedPayload('sha256:AAAA')).toBeUndefined();
  });
});

describe('SqliteStore recovery of claims', () => {
  it('requeues fetching rows on open, unless asked only to inspect', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-claims-'));
    const file = path.join(dir, 'x.db');
    const crawler = new SqliteStore({ path: file });
    await seed(crawler);
    expect(await crawler.claim(1)).toHaveLength(1);
    await crawler.flush(); // units are committed in groups: make the claim visible to another connection
    const inspector = new SqliteStore({ path: file, readOnly: true });
    expect((await inspector.stats()).urlsByState.fetching).toBe(1);
    await inspector.close();
    await crawler.close();
    const restarted = new SqliteStore({ path: file });
    expect((await restarted.stats()).urlsByState).toMatchObject({ fetching: 0, queued: 1 });
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

// A resolved link carries its ladder forms; the index then neither parses
// nor normalizes, and says exactly what it says when it does both itself.
describe.each(implementations)('IndexWriter contract, links with their ladder forms: %s', (_name, open) => {
  const spellings = ['http://host/a/../b', 'http://host/B%2e', 'HTTP://HOST:80/b', 'http://host/b', 'http://host/x/%2E/..', 'http://host/', 'http://host/c?%41', 'http://host/c?A', 'mailto:x@y'];

  async function admitAll(store: IndexWriter, withForms: boolean) {
    const page = await seed(store);
    const results = [];
    for (const target of spellings) {
      const parsed = parseUriReference(target);
      const forms = withForms && parsed.ok ? ladderForms(parsed.value as AbsoluteUri, target) : undefined;
      results.push((await store.admit([link(page, target, { forms })]))[0]);
    }
    return results;
  }

  it('admits each spelling at the same rung, to the same URL, as without them', async () => {
    expect(await admitAll(await open(), true)).toEqual(await admitAll(await open(), false));
  });

  it('ignores forms that do not describe the target', async () => {
    const store = await open();
    const page = await seed(store);
    const other = parseUriReference('http://other/');
    if (!other.ok) throw new Error('unreachable');
    const wrong = ladderForms(other.value as AbsoluteUri);
    const [result] = await store.admit([link(page, 'http://host/z', { forms: wrong })]);
    expect((await store.getUrl(result!.urlId!))?.key).toBe('http://host/z');
  });
});

// The URL state machine (url-state-machine.ts), transition by transition: on each store,
// a URL in each state meets each operation, and ends in the state the table says, or
// the one it was in when the table has no move for it. Every move a store makes must be
// met by the walk.

type Walked = { store: IndexWriter; reopen: (options?: { recoverClaims?: boolean }) => Promise<IndexWriter>; another: () => Promise<IndexWriter>; setClock: (ms: number) => void };

const walkImplementations: [StoreBackend, () => Promise<Walked>][] = [
  ['sqlite', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'linkladder-walk-')), 'x.db');
    const store = new SqliteStore({ path: file, now: () => 1_700_000_000_000 });
    return {
      store,
      reopen: async (options) => new SqliteStore({ path: file, now: () => 1_700_000_000_000, ...options }),
      another: async () => store,
      setClock: () => {},
    };
  }],
  ['memory', async () => {
    const store = new MemoryStore({ now: () => 1_700_000_000_000 });
    return { store, reopen: async () => store, another: async () => store, setClock: () => {} };
  }],
  ...(typeof cluster === 'string' ? [] : [['postgresql', async () => {
      const url = await cluster.createDatabase();
      let clock = 1_700_000_000_000;
      const open = async (workerId: string): Promise<PgStore> => {
        const store = await PgStore.open({ url, workerId, now: () => 1_700_000_000_000, leaseClock: () => clock, maxConnections: 2 });
        pgStores.push(store);
        return store;
      };
      return { store: await open('walker'), reopen: async () => open('reopened'), another: async () => open('another'), setClock: (ms: number) => void (clock = ms) };
    }] as [StoreBackend, () => Promise<Walked>]]),
];

/** One operation the walk applies: to each URL, or once to the store; `exercises` says which moves of the table it makes. */
interface WalkStep {
  readonly name: string;
  readonly backends?: readonly StoreBackend[];
  readonly exercises: (move: UrlMove) => boolean;
  /** Applies the operation; returns the store to read the states from, and the ids it claimed, if it claims. */
  readonly run: (walked: Walked, page: number, subjects: ReadonlyMap<UrlOrigin, number>, target: number) => Promise<{ store: IndexWriter; claimed?: number[] }>;
}

const SUBJECT = (state: UrlOrigin): string => `http://host/${state}`;

const eachSubject = (work: (store: IndexWriter, id: number, state: UrlOrigin) => Promise<unknown>) =>
  async ({ store }: Walked, _page: number, subjects: ReadonlyMap<UrlOrigin, number>): Promise<{ store: IndexWriter }> => {
    for (const [state, id] of subjects) if (state !== 'none') await work(store, id, state);
    return { store };
  };

const WALK: readonly WalkStep[] = [
  {
    name: 'admit, a followed link',
    exercises: (m) => m.by === 'admit' && m.to === 'queued',
    run: async ({ store }, page) => {
      await store.admit([...URL_STATES, 'none' as const].map((state) => link(page, SUBJECT(state))));
      return { store };
    },
  },
  {
    name: 'admit, a link not followed',
    exercises: (m) => m.by === 'admit' && m.to === 'skipped',
    run: async ({ store }, page) => {
      await store.admit([...URL_STATES, 'none' as const].map((state) => link(page, SUBJECT(state), { follow: false })));
      return { store };
    },
  },
  {
    name: 'claim',
    exercises: (m) => m.by === 'claim' && m.transition.when === undefined,
    run: async ({ store }) => ({ store, claimed: (await store.claim(100)).map((u) => u.id) }),
  },
  {
    name: 'claim by another worker once the leases lapsed',
    backends: ['postgresql'],
    exercises: (m) => m.by === 'claim',
    run: async (walked) => {
      walked.setClock(1_700_000_000_000 + 60_000);
      const other = await walked.another();
      return { store: other, claimed: (await other.claim(100)).map((u) => u.id) };
    },
  },
  {
    name: 'recordFetch, done',
    exercises: (m) => m.by === 'recordFetch' && m.to === 'done',
    run: eachSubject((store, urlId) => store.recordFetch({ urlId, outcome: 'done', startedAt: 9, status: 200 })),
  },
  {
    name: 'recordFetch, failed',
    exercises: (m) => m.by === 'recordFetch' && m.to === 'failed',
    run: eachSubject((store, urlId) => store.recordFetch({ urlId, outcome: 'failed', startedAt: 9, errorCode: 'ERR_FETCH_NETWORK' })),
  },
  {
    name: 'addAlias, a redirect',
    exercises: (m) => m.by === 'addAlias',
    run: async (walked, page, subjects, target) => eachSubject((store, fromId) => store.addAlias({ fromId, toId: target, evidence: 'redirect' }))(walked, page, subjects),
  },
  {
    name: 'addAlias, a canonical claim',
    exercises: () => false,
    run: async (walked, page, subjects, target) => eachSubject((store, fromId) => store.addAlias({ fromId, toId: target, evidence: 'canonical' }))(walked, page, subjects),
  },
  {
    name: 'revokeAlias',
    exercises: (m) => m.by === 'revokeAlias',
    run: eachSubject((store, id) => store.revokeAlias(id)),
  },
  {
    name: 'requeue',
    exercises: (m) => m.by === 'requeue',
    run: eachSubject((store, id) => store.requeue(id)),
  },
  {
    name: 'requeueFetched',
    exercises: (m) => m.by === 'requeueFetched',
    run: async ({ store }) => {
      await store.requeueFetched();
      return { store };
    },
  },
  {
    name: 'close',
    backends: ['sqlite', 'postgresql'],
    exercises: (m) => m.by === 'close',
    run: async ({ store, reopen }) => {
      await store.close();
      // SQLite: opened not to recover claims, so that only what close did shows.
      return { store: await reopen({ recoverClaims: false }) };
    },
  },
  {
    name: 'open',
    backends: ['sqlite', 'postgresql'],
    exercises: (m) => m.by === 'open',
    run: async ({ store, reopen, another }) => {
      // PostgreSQL: a worker opening the index while this one holds its claims.
      if (store instanceof PgStore) return { store: await another() };
      await store.close();
      return { store: await reopen() };
    },
  },
];

/** A URL in each state (but `none`, which the walk admits), a page naming them, and a target for aliases. */
async function urlsInEachState(store: IndexWriter): Promise<{ page: number; subjects: Map<UrlOrigin, number>; target: number }> {
  const page = await seed(store);
  const [target, ...admitted] = await store.admit([
    link(page, 'http://host/target', { depth: 9 }),
    ...URL_STATES.map((state) =>
      link(page, SUBJECT(state), { depth: state === 'fetching' || state === 'done' || state === 'failed' ? 1 : 9, follow: state !== 'skipped' }),
    ),
  ]);
  const subjects = new Map<UrlOrigin, number>(URL_STATES.map((state, i) => [state, admitted[i]!.urlId!]));
  const claimed = await store.claim(4); // the page and the three at depth 1
  expect(claimed.map((u) => u.id).sort()).toEqual([page, subjects.get('fetching'), subjects.get('done'), subjects.get('failed')].sort());
  await store.recordFetch({ urlId: page, outcome: 'done', startedAt: 1, status: 200 });
  await store.recordFetch({ urlId: subjects.get('done')!, outcome: 'done', startedAt: 1, status: 200 });
  await store.recordFetch({ urlId: subjects.get('failed')!, outcome: 'failed', startedAt: 1, errorCode: 'ERR_FETCH_NETWORK' });
  await store.addAlias({ fromId: subjects.get('alias')!, toId: target!.urlId!, evidence: 'redirect' });
  for (const [state, id] of subjects) expect([state, (await store.getUrl(id))?.state]).toEqual([state, state]);
  return { page, subjects, target: target!.urlId! };
}

describe.each(walkImplementations)('the URL state machine, move by move: %s', (backend, openWalked) => {
  const met = new Set<UrlMove>();
  const moves = URL_MOVES.filter((m) => m.transition.only === undefined || m.transition.only.includes(backend));

  it.each(WALK.filter((step) => step.backends === undefined || step.backends.includes(backend)).map((step) => [step.name, step] as const))(
    '%s: each state moves as the table says, or stays',
    async (_stepName, step) => {
      const walked = await openWalked();
      const { page, subjects, target } = await urlsInEachState(walked.store);
      const { store, claimed } = await step.run(walked, page, subjects, target);
      await store.flush();
      const expected: [UrlOrigin, UrlState | undefined][] = [];
      const actual: [UrlOrigin, UrlState | undefined][] = [];
      const moved: number[] = [];
      for (const from of [...URL_STATES, 'none' as const]) {
        const id = from === 'none' ? (await store.findUrl(SUBJECT('none')))?.id : subjects.get(from);
        const made = moves.filter((m) => m.from === from && step.exercises(m));
        expect(made.length).toBeLessThanOrEqual(1);
        for (const m of made) met.add(m);
        if (made[0] !== undefined && id !== undefined && made[0].by === 'claim') moved.push(id);
        expected.push([from, made[0]?.to ?? (from === 'none' ? undefined : from)]);
        actual.push([from, id === undefined ? undefined : (await store.getUrl(id))?.state]);
      }
      expect(actual).toEqual(expected);
      // A claim moves fetching to fetching when it takes a lapsed lease: what shows it is the claim itself.
      if (claimed !== undefined) expect(claimed.filter((id) => [...subjects.values()].includes(id)).sort()).toEqual(moved.sort());
      await store.close();
    },
  );

  it('met every move the table has for this store', () => {
    expect(moves.filter((m) => !met.has(m)).map((m) => `${m.by}: ${m.from} → ${m.to}`)).toEqual([]);
  });
});
