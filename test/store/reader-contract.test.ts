// One contract for every IndexReader: the SQLite store, the in-memory one and the
// PostgreSQL one, given the same writes through the IndexWriter, must read back the
// same rows in the same order: reports never learn which store they read.

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore, PgStore, SqliteStore, connectPg, migratePg, type IndexReader, type IndexWriter } from '../../src/store/index.js';
import { collect } from '../support/collect.js';
import { startPostgres } from '../support/postgres-cluster.js';
import { skipNotice } from '../support/system-tools.js';
import { emptyIndex } from './pg/empty-index.js';
import { collapsedEdges } from './collapsed-edges.js';
import { link, smallCrawl } from './small-crawl.js';

const NOW = 1_700_000_000_000;

type ReadableStore = IndexWriter & { reader(): IndexReader };

// One PostgreSQL database for the file, emptied before each store opens on it.
const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('the IndexReader contract on PostgreSQL', cluster);
const pgUrl = typeof cluster === 'string' ? undefined : await cluster.createDatabase();
const pgAdmin = pgUrl === undefined ? undefined : connectPg(pgUrl, { max: 1 });
if (pgAdmin !== undefined) await migratePg(pgAdmin, () => NOW);
let pgStore: PgStore | undefined;
afterAll(async () => {
  await pgStore?.close();
  await pgAdmin?.end();
  if (typeof cluster !== 'string') await cluster.stop();
});

/** A PostgreSQL store on an empty index (the one before it closed). */
async function openPg(): Promise<PgStore> {
  await pgStore?.close();
  await emptyIndex(pgAdmin!);
  pgStore = await PgStore.open({ url: pgUrl!, now: () => NOW });
  return pgStore;
}

const implementations: [string, () => Promise<ReadableStore>][] = [
  ['SqliteStore', async () => new SqliteStore({ path: ':memory:', now: () => NOW })],
  ['MemoryStore', async () => new MemoryStore({ now: () => NOW })],
  ...(pgUrl === undefined ? [] : [['PgStore', openPg] as [string, () => Promise<ReadableStore>]]),
];

/** A store of each kind, SQLite's first. */
async function openAll(): Promise<ReadableStore[]> {
  const stores: ReadableStore[] = [];
  for (const [, open] of implementations) stores.push(await open());
  return stores;
}

/** More of what a crawl writes: an alias cycle whose pages have links, a canonical claim, a revoked alias, retries, a failed unit. */
async function richCrawl(store: IndexWriter) {
  const ids = await smallCrawl(store);
  const { homeId, aId, newId, oldId } = ids;
  const more = await store.admit([
    link(homeId, 'img.png', 'http://site/img.png', { element: 'img', attribute: 'src', follow: false }),
    link(homeId, 'x', 'http://site/x'),
    link(homeId, 'y', 'http://site/y'),
    link(homeId, 'z', 'http://site/z'),
    { fromUrlId: homeId, rawHref: 'n', target: 'http://site/n' }, // neither element nor attribute
    link(homeId, 'c?utm=1', 'http://site/c?utm=1'),
    link(homeId, 'c', 'http://site/c'),
  ]);
  const [x, y, z, , utm, c] = more.slice(1).map((r) => r.urlId!);
  // /x and /y are pages with links of their own before they turn out to be aliases.
  await store.admit([link(x!, 'home', 'http://site/'), link(x!, 'new', 'http://site/new'), link(x!, 'img', 'http://site/img.png', { element: 'img', attribute: 'src' })]);
  await store.admit([link(y!, '/', 'http://site/'), link(y!, 'z', 'http://site/z')]);
  await store.admit([link(newId, '../', 'http://site/'), link(newId, 'old', 'http://site/old'), link(newId, 'x', 'http://site/x')]);
  await store.addAlias({ fromId: x!, toId: y!, evidence: 'redirect' });
  await store.addAlias({ fromId: y!, toId: z!, evidence: 'content-location', detail: 'http://site/z' });
  await store.addAlias({ fromId: z!, toId: x!, evidence: 'redirect' });
  await store.addAlias({ fromId: utm!, toId: c!, evidence: 'canonical' });
  await store.addAlias({ fromId: c!, toId: homeId, evidence: 'redirect' });
  await store.revokeAlias(c!);
  await store.admit([link(homeId, 'y again', 'http://site/y'), link(homeId, 'c again', 'http://SITE/c')]);
  // A retry: the last fetch is the one that counts.
  await store.recordFetch({ urlId: aId, outcome: 'done', startedAt: 20, status: 404, attempts: 2 });
  await store.recordFetch({ urlId: c!, outcome: 'done', startedAt: 21, status: 500, contentType: 'text/html', bytes: 12, durationMs: 3 });
  await store.recordFetch({ urlId: oldId, outcome: 'failed', startedAt: 22, errorCode: 'ERR_FETCH_TIMEOUT', representsUrlId: oldId });
  await expect(
    store.transact(async (tx) => {
      await tx.admit([link(homeId, 'gone', 'http://site/gone')]);
      throw new Error('the unit fails');
    }),
  ).rejects.toThrow('the unit fails');
  await store.flush();
  return { ...ids, x: x!, y: y!, z: z!, utm: utm!, c: c! };
}

const D1 = 'D1-body-of-x-html-en';
const D2 = 'D2-body-of-y-html';

/**
 * Byte-identical bodies as a negotiated manual gives them: /manual/x.html
 * and /manual/de/x.html each answer with their own folder's x.html.en (Content-Location,
 * so each page and its variant are one resource), /manual/fr/x.html with the same body
 * and no Content-Location (joined by content evidence, heuristic); and the rows that do
 * not count: a redirect stopped at a known URL, a 304, a body cut short, a later 404, a
 * body that changed.
 */
async function duplicateCrawl(store: IndexWriter) {
  const [home] = await store.admit([{ rawHref: 'http://site/manual/', target: 'http://site/manual/' }]);
  const homeId = home!.urlId!;
  const paths = ['x.html', 'x.html.en', 'de/x.html', 'de/x.html.en', 'fr/x.html', 'old-x', 'y.html', 'z.html', 'cut.html', 'gone.html', 'robots.html'];
  const ids = (await store.admit(paths.map((p) => link(homeId, p, `http://site/manual/${p}`)))).map((r) => r.urlId!);
  const [x, xEn, deX, deXEn, frX, oldX, y, z, cut, gone, robots] = ids as [number, number, number, number, number, number, number, number, number, number, number];
  const own = { outcome: 'done' as const, status: 200, method: 'GET' as const, durationMs: 1, contentType: 'text/html' };
  const derived = { outcome: 'done' as const, status: 200, contentType: 'text/html' };
  await store.recordFetch({ urlId: homeId, startedAt: 1, ...own, digest: 'home' });
  // Content-Location: the page's own fetch, an alias, and its variant fetched from that response.
  for (const [page, variant] of [[x, xEn], [deX, deXEn]] as const) {
    await store.recordFetch({ urlId: page, startedAt: 2, ...own, representsUrlId: page, digest: D1 });
    await store.addAlias({ fromId: page, toId: variant, evidence: 'content-location', detail: 'x.html.en' });
    await store.recordFetch({ urlId: variant, startedAt: 2, ...derived, representsUrlId: variant, digest: D1 });
  }
  await store.recordFetch({ urlId: frX, startedAt: 3, ...own, representsUrlId: frX, digest: D1 });
  await store.addAlias({ fromId: frX, toId: xEn, evidence: 'digest', detail: 'http://site/manual/x.html.en' });
  // A redirect stopped at a URL fetched already stands for it, with none of its body.
  await store.recordFetch({
    urlId: oldX,
    startedAt: 4,
    outcome: 'done',
    status: 301,
    method: 'GET',
    finalUrl: 'http://site/manual/old-x',
    redirects: [{ from: 'http://site/manual/old-x', to: 'http://site/manual/x.html.en', status: 301 }],
    representsUrlId: xEn,
  });
  await store.addAlias({ fromId: oldX, toId: xEn, evidence: 'redirect', detail: '301' });
  // A re-check: 304 keeps the representation revalidated.
  await store.recordFetch({ urlId: xEn, startedAt: 5, outcome: 'done', status: 200, isNotModified: true, representsUrlId: xEn });
  await store.recordFetch({ urlId: y, startedAt: 6, ...own, digest: D1 });
  await store.recordFetch({ urlId: y, startedAt: 7, ...own, digest: D2 });
  await store.recordFetch({ urlId: z, startedAt: 8, ...own, digest: D2 });
  await store.recordFetch({ urlId: cut, startedAt: 9, ...own, outcome: 'failed', errorCode: 'ERR_FETCH_BODY_CUT', digest: D1 });
  await store.recordFetch({ urlId: gone, startedAt: 10, ...own, digest: D1 });
  await store.recordFetch({ urlId: gone, startedAt: 11, ...own, status: 404 });
  await store.recordFetch({ urlId: robots, startedAt: 12, ...own, digest: D2 });
  // No request at all (robots.txt refused it on a later run): the body read before stays current.
  await store.recordFetch({ urlId: robots, startedAt: 13, outcome: 'failed', errorCode: 'ERR_CRAWL_ROBOTS_DISALLOWED' });
  await store.flush();
  return { homeId, x, xEn, deX, deXEn, frX, oldX, y, z, cut, gone, robots };
}

/** Everything a reader says, each list read to its end. */
async function readAll(reader: IndexReader) {
  return {
    stats: await reader.stats(),
    funnel: await reader.funnel(),
    urls: await collect(reader.urls()),
    url: await Promise.all([0, 1, 2, 5, 99].map((id) => reader.url(id))),
    forms: await collect(reader.forms()),
    links: await collect(reader.links()),
    edges: await collect(reader.edges()),
    collapsed: await collapsedEdges(reader),
    fetches: await collect(reader.fetches()),
    aliases: await collect(reader.aliases()),
    errorsByCode: await reader.errorsByCode(),
    duplicateBodies: await collect(reader.duplicateBodies()),
  };
}

describe.each(implementations)('IndexReader contract: %s', (_name, open) => {
  it('reads every link back in page order, with what the crawl recorded about it', async () => {
    const store = await open();
    const { homeId, aId, oldId, newId } = await smallCrawl(store);
    const links = await collect(store.reader().links());
    expect(links.map((l) => [l.position, l.rawHref, l.toUrlId, l.rung, l.ladderRung, l.metUrlId])).toEqual([
      [0, 'a', aId, 'new', 'new', aId],
      [1, 'A%2e', aId + 1, 'new', 'new', aId + 1], // A%2e is another path (case matters in the path)
      [2, 'http://SITE:80/a#top', aId, 'scheme', 'scheme', aId],
      [3, 'old', oldId, 'new', 'new', oldId],
      [4, 'http://[bad', undefined, undefined, undefined, undefined],
      [5, '/old', newId, 'protocol', 'string', oldId],
    ]);
    expect(links.every((l) => l.fromUrlId === homeId)).toBe(true);
    expect(links[1]?.findings).toEqual(['HREF_SURROUNDING_WHITESPACE']);
    expect(links[2]).toMatchObject({ fragment: 'top', alternateTarget: 'http://site/other/a', baseLevel: 'retrieval' });
    expect(links[4]).toMatchObject({ error: 'ERR_URI_BAD_IP_LITERAL', findings: [] });
    expect(links[5]).toMatchObject({ element: 'link', attribute: 'href' });
  });

  it('groups edges by page and target, with aliases kept apart or collapsed', async () => {
    const store = await open();
    const { homeId, aId, oldId, newId } = await smallCrawl(store);
    const reader = store.reader();
    expect(await collect(reader.edges())).toEqual([
      { fromUrlId: homeId, toUrlId: aId, element: 'a', attribute: 'href', count: 2 },
      { fromUrlId: homeId, toUrlId: aId + 1, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'link', attribute: 'href', count: 1 },
    ]);
    const collapsed = await collapsedEdges(reader);
    expect(collapsed.filter((e) => e.toUrlId === newId).map((e) => e.element)).toEqual(['a', 'link']);
    expect(collapsed.some((e) => e.toUrlId === oldId)).toBe(false);
  });

  it('collapses an alias cycle, pages and targets, onto its least id', async () => {
    const store = await open();
    const { homeId, x, y, z, newId } = await richCrawl(store);
    const collapsed = await collapsedEdges(store.reader());
    // x → y → z → x: the cycle is named by x; the links of pages x and y are x's, summed.
    expect(collapsed.filter((e) => e.fromUrlId === x)).toEqual([
      { fromUrlId: x, toUrlId: homeId, element: 'a', attribute: 'href', count: 2 },
      { fromUrlId: x, toUrlId: newId, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: x, toUrlId: newId + 1, element: 'img', attribute: 'src', count: 1 },
      { fromUrlId: x, toUrlId: x, element: 'a', attribute: 'href', count: 1 },
    ]);
    expect(collapsed.some((e) => e.fromUrlId === y || e.toUrlId === y || e.toUrlId === z)).toBe(false);
    expect(collapsed.find((e) => e.fromUrlId === homeId && e.element === undefined)).toMatchObject({ attribute: undefined, count: 1 });
  });

  it('counts the ladder funnel, fetch errors, URLs with their last fetch, forms, fetches and aliases', async () => {
    const store = await open();
    const { aId, oldId, homeId } = await smallCrawl(store);
    const reader = store.reader();
    expect(await reader.funnel()).toEqual({
      rawLinks: 5,
      distinctStrings: 4, // a, A%2e, http://SITE:80/a, old (the second /old repeats a string)
      distinctSyntax: 4,
      distinctScheme: 3, // http://SITE:80/a folds into /a at the scheme rung
      afterAliases: 3, // /a, /A. and /new: /old is an alias of /new, which its link names
      unresolved: 1,
    });
    expect(await reader.errorsByCode()).toEqual({ ERR_FETCH_TIMEOUT: 1 });
    const urls = await collect(reader.urls());
    expect(urls.map((u) => u.key)).toEqual(['http://site/', 'http://site/a', 'http://site/A.', 'http://site/old', 'http://site/new']);
    expect(urls[0]?.lastFetch).toMatchObject({ status: 200, anchors: ['top'], findings: ['BASE_RELATIVE'] });
    expect((await reader.url(aId))?.firstLink).toEqual({ fromUrlId: homeId, fromKey: 'http://site/', rawHref: 'a' });
    expect(await reader.url(oldId)).toMatchObject({ state: 'alias', lastFetch: { redirects: [{ status: 301 }] } });
    expect(await reader.url(999)).toBeUndefined();
    expect((await collect(reader.forms())).map((f) => [f.urlId, f.text, f.rung])).toEqual([
      [aId, 'http://SITE:80/a', 'string'],
      [aId, 'http://site:80/a', 'syntax'],
      [aId + 1, 'http://site/A%2e', 'string'],
    ]);
    expect(await collect(reader.fetches())).toHaveLength(3);
    expect((await collect(reader.aliases())).map((a) => [a.fromKey, a.toKey, a.evidence])).toEqual([['http://site/old', 'http://site/new', 'redirect']]);
    expect((await reader.stats()).linksByRung).toEqual({ new: 3, string: 0, syntax: 0, scheme: 1, protocol: 1 });
  });

  it('counts each URL by its last fetch in errorsByCode, the most frequent first', async () => {
    const store = await open();
    await richCrawl(store);
    expect(Object.entries(await store.reader().errorsByCode())).toEqual([
      ['ERR_FETCH_TIMEOUT', 1],
      ['HTTP_404', 1],
      ['HTTP_500', 1],
    ]);
  });

  it('lists byte-identical bodies under URLs the ladder did not join, by group and key (DUPLICATE_REPRESENTATION)', async () => {
    const store = await open();
    const ids = await duplicateCrawl(store);
    const rows = await collect(store.reader().duplicateBodies());
    const fetches = await collect(store.reader().fetches());
    const fetchesOf = (id: number) => fetches.filter((f) => f.urlId === id);
    const lastOf = (id: number) => fetchesOf(id).filter((f) => f.isNotModified !== true).at(-1)!.id;
    expect(rows).toEqual([
      { digest: D1, urlId: ids.deXEn, key: 'http://site/manual/de/x.html.en', fetchId: lastOf(ids.deXEn), fetchedUrlId: ids.deXEn, fetchedKey: 'http://site/manual/de/x.html.en', contentEvidence: undefined },
      { digest: D1, urlId: ids.frX, key: 'http://site/manual/fr/x.html', fetchId: lastOf(ids.frX), fetchedUrlId: ids.frX, fetchedKey: 'http://site/manual/fr/x.html', contentEvidence: 'digest' },
      { digest: D1, urlId: ids.xEn, key: 'http://site/manual/x.html.en', fetchId: lastOf(ids.xEn), fetchedUrlId: ids.xEn, fetchedKey: 'http://site/manual/x.html.en', contentEvidence: 'digest' },
      { digest: D2, urlId: ids.robots, key: 'http://site/manual/robots.html', fetchId: fetchesOf(ids.robots)[0]!.id, fetchedUrlId: ids.robots, fetchedKey: 'http://site/manual/robots.html', contentEvidence: undefined },
      { digest: D2, urlId: ids.y, key: 'http://site/manual/y.html', fetchId: lastOf(ids.y), fetchedUrlId: ids.y, fetchedKey: 'http://site/manual/y.html', contentEvidence: undefined },
      { digest: D2, urlId: ids.z, key: 'http://site/manual/z.html', fetchId: lastOf(ids.z), fetchedUrlId: ids.z, fetchedKey: 'http://site/manual/z.html', contentEvidence: undefined },
    ]);
  });

  it('lists no duplicates where no body was read twice, nor where only a Content-Location variant repeats its page', async () => {
    const store = await open();
    const { homeId } = await smallCrawl(store);
    expect(await collect(store.reader().duplicateBodies())).toEqual([]);
    const [page, variant] = (await store.admit([link(homeId, 'p', 'http://site/p'), link(homeId, 'p.en', 'http://site/p.en')])).map((r) => r.urlId!);
    await store.recordFetch({ urlId: page!, outcome: 'done', startedAt: 1, status: 200, method: 'GET', digest: 'same' });
    await store.addAlias({ fromId: page!, toId: variant!, evidence: 'content-location' });
    await store.recordFetch({ urlId: variant!, outcome: 'done', startedAt: 1, status: 200, digest: 'same' });
    await store.flush();
    expect(await collect(store.reader().duplicateBodies())).toEqual([]);
  });

  it('reads back the verdict of each fetch row as recorded, and none for a row written without one (an index older than the column)', async () => {
    const store = await open();
    const [page] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    const [gone, slow, old] = await store.admit([
      link(page!.urlId!, 'gone', 'http://site/gone'),
      link(page!.urlId!, 'slow', 'http://other/slow', { role: 'external' }),
      link(page!.urlId!, 'old', 'http://site/old'),
    ]);
    await store.claim(10);
    await store.recordFetch({ urlId: page!.urlId!, outcome: 'done', startedAt: 1, status: 200, method: 'GET', verdict: 'ok' });
    await store.recordFetch({ urlId: gone!.urlId!, outcome: 'done', startedAt: 2, status: 404, method: 'GET', verdict: 'broken' });
    await store.recordFetch({ urlId: slow!.urlId!, outcome: 'done', startedAt: 3, status: 503, method: 'HEAD', verdict: 'unverified' });
    await store.recordFetch({ urlId: old!.urlId!, outcome: 'done', startedAt: 4, status: 410, method: 'GET' });
    const reader = store.reader();
    expect((await collect(reader.fetches())).map((f) => f.verdict)).toEqual(['ok', 'broken', 'unverified', undefined]);
    expect((await collect(reader.urls())).map((u) => u.lastFetch?.verdict)).toEqual(['ok', 'broken', 'unverified', undefined]);
    expect((await store.history(slow!.urlId!))?.fetches.map((f) => f.verdict)).toEqual(['unverified']);
  });

  it('reads back the protocol of each fetch row as recorded (h2, http/1.1), and none for a row written without one', async () => {
    const store = await open();
    const [page] = await store.admit([{ rawHref: 'https://site/', target: 'https://site/' }]);
    const [plain, failed] = await store.admit([
      link(page!.urlId!, 'plain', 'http://site/plain'),
      link(page!.urlId!, 'failed', 'https://other/failed', { role: 'external' }),
    ]);
    await store.claim(10);
    await store.recordFetch({ urlId: page!.urlId!, outcome: 'done', startedAt: 1, status: 200, method: 'GET', protocol: 'h2' });
    await store.recordFetch({ urlId: plain!.urlId!, outcome: 'done', startedAt: 2, status: 200, method: 'GET', protocol: 'http/1.1' });
    await store.recordFetch({ urlId: failed!.urlId!, outcome: 'failed', startedAt: 3, errorCode: 'ERR_FETCH_CONNECTION_REFUSED', method: 'HEAD' });
    const reader = store.reader();
    expect((await collect(reader.fetches())).map((f) => f.protocol)).toEqual(['h2', 'http/1.1', undefined]);
    expect((await collect(reader.urls())).map((u) => u.lastFetch?.protocol)).toEqual(['h2', 'http/1.1', undefined]);
    expect((await store.history(page!.urlId!))?.fetches.map((f) => f.protocol)).toEqual(['h2']);
  });

  it('lets a pass stop early and starts each pass anew', async () => {
    const store = await open();
    await richCrawl(store);
    const reader = store.reader();
    for await (const url of reader.urls()) {
      expect(url.id).toBe(1);
      break;
    }
    expect(await collect(reader.urls())).toEqual(await collect(reader.urls()));
    await reader.close();
  });
});

describe('the readers of every store', () => {
  it('read back the same rows, in the same order, for the same writes', async () => {
    const [sqlite, ...others] = await openAll();
    await richCrawl(sqlite!);
    const fromSqlite = await readAll(sqlite!.reader());
    for (const other of others) {
      await richCrawl(other);
      expect(await readAll(other.reader())).toStrictEqual(fromSqlite);
    }
    expect(fromSqlite.links.length).toBeGreaterThan(15);
  });

  it('read back the same duplicate bodies, in the same order, for the same writes', async () => {
    const [sqlite, ...others] = await openAll();
    await duplicateCrawl(sqlite!);
    const fromSqlite = await readAll(sqlite!.reader());
    for (const other of others) {
      await duplicateCrawl(other);
      expect(await readAll(other.reader())).toStrictEqual(fromSqlite);
    }
    expect(fromSqlite.duplicateBodies).toHaveLength(6);
  });

  /** One write, by indexes into what exists (so that any sequence is valid on both stores). */
  type Step =
    | { op: 'admit'; page: number; links: { path: number; spelling: number; element: number; follow: boolean }[] }
    | { op: 'alias'; from: number; to: number; evidence: 'redirect' | 'content-location' | 'canonical' | 'digest' }
    | { op: 'revoke'; url: number }
    | { op: 'fetch'; url: number; status: number | undefined; body: number };

  const PATHS = ['/', '/a', '/b', '/c/', '/d?q'];
  const SPELLINGS = [(p: string) => `http://h${p}`, (p: string) => `HTTP://H:80${p}`, (p: string) => `http://h${p}#f`, (p: string) => `http://h:${p.replace('/', '/%7e/..')}`];
  const ELEMENTS: [string | undefined, string | undefined][] = [['a', 'href'], ['img', 'src'], [undefined, undefined]];

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      op: fc.constant('admit' as const),
      page: fc.nat(),
      links: fc.array(
        fc.record({ path: fc.nat(PATHS.length - 1), spelling: fc.nat(SPELLINGS.length - 1), element: fc.nat(ELEMENTS.length - 1), follow: fc.boolean() }),
        { maxLength: 6 },
      ),
    }),
    fc.record({ op: fc.constant('alias' as const), from: fc.nat(), to: fc.nat(), evidence: fc.constantFrom('redirect' as const, 'content-location' as const, 'canonical' as const, 'digest' as const) }),
    fc.record({ op: fc.constant('revoke' as const), url: fc.nat() }),
    fc.record({ op: fc.constant('fetch' as const), url: fc.nat(), status: fc.option(fc.constantFrom(200, 301, 404, 500), { nil: undefined }), body: fc.nat(2) }),
  );

  async function play(store: IndexWriter, steps: readonly Step[]): Promise<void> {
    let urls = (await store.admit([{ rawHref: 'http://h/', target: 'http://h/', depth: 0 }]))[0]!.urlId!;
    const pick = (n: number): number => 1 + (n % urls);
    for (const s of steps) {
      if (s.op === 'admit') {
        const results = await store.admit(
          s.links.map((l) => {
            const [element, attribute] = ELEMENTS[l.element]!;
            const target = SPELLINGS[l.spelling]!(PATHS[l.path]!);
            return { fromUrlId: pick(s.page), rawHref: target, target, element, attribute, follow: l.follow, depth: 1 };
          }),
        );
        urls = Math.max(urls, ...results.map((r) => r.urlId ?? 0));
      } else if (s.op === 'alias') {
        await store.addAlias({ fromId: pick(s.from), toId: pick(s.to), evidence: s.evidence });
      } else if (s.op === 'revoke') {
        await store.revokeAlias(pick(s.url));
      } else {
        const status = s.status;
        // One of two bodies (or none) for a 2xx: duplicate bodies to group.
        const digest = status === 200 && s.body > 0 ? `body-${s.body}` : undefined;
        await store.recordFetch({ urlId: pick(s.url), outcome: status === undefined ? 'failed' : 'done', startedAt: 1, status, errorCode: status === undefined ? 'ERR_FETCH_TIMEOUT' : undefined, digest });
      }
    }
    await store.flush();
  }

  // A store on a server costs a round trip a write: fewer runs there.
  it.each(implementations.slice(1).map(([name, open]) => [name, open, name === 'PgStore' ? 20 : 60] as const))(
    'agree on any sequence of writes (property): %s and SqliteStore',
    async (_name, open, numRuns) => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
          const sqlite = await implementations[0]![1]();
          const other = await open();
          await play(sqlite, steps);
          await play(other, steps);
          expect(await readAll(other.reader())).toStrictEqual(await readAll(sqlite.reader()));
          await sqlite.close();
          await other.close();
        }),
        { numRuns },
      );
    },
    // Each run on PostgreSQL makes a database and migrates it (a second or more on a busy machine).
    180_000,
  );
});
