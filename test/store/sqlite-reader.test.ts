// The IndexReader on SQLite: what reports read back is what the crawl admitted.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore, openIndexReader, type AdmitEntry } from '../../src/store/index.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchDb(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-reader-'));
  folders.push(dir);
  return path.join(dir, 'index.db');
}

const link = (fromUrlId: number, rawHref: string, target: string | undefined, extra: Partial<AdmitEntry> = {}): AdmitEntry => ({
  fromUrlId,
  rawHref,
  target,
  element: 'a',
  attribute: 'href',
  baseLevel: 'retrieval',
  depth: 1,
  ...extra,
});

/** A small crawl: a home page linking /a in four spellings, /old (a redirect to /new), and a broken href. */
async function smallCrawl(store: SqliteStore) {
  const [home] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
  const homeId = home!.urlId!;
  const results = await store.admit([
    link(homeId, 'a', 'http://site/a'),
    link(homeId, 'A%2e', 'http://site/A%2e', { findings: ['HREF_SURROUNDING_WHITESPACE'] }),
    link(homeId, 'http://SITE:80/a#top', 'http://SITE:80/a#top', { alternateTarget: 'http://site/other/a' }),
    link(homeId, 'old', 'http://site/old'),
    link(homeId, 'http://[bad', undefined, { error: 'ERR_URI_BAD_IP_LITERAL' }),
  ]);
  const oldId = results[3]!.urlId!;
  const [target] = await store.admit([{ rawHref: 'http://site/new', target: 'http://site/new' }]);
  await store.recordFetch({
    urlId: oldId,
    outcome: 'done',
    startedAt: 10,
    status: 200,
    finalUrl: 'http://site/new',
    redirects: [{ from: 'http://site/old', to: 'http://site/new', status: 301 }],
  });
  await store.addAlias({ fromId: oldId, toId: target!.urlId!, evidence: 'redirect', detail: '301' });
  // A later link to /old meets it at the string rung, and names /new through the alias.
  await store.admit([link(homeId, '/old', 'http://site/old', { element: 'link', attribute: 'href' })]);
  await store.recordFetch({ urlId: homeId, outcome: 'done', startedAt: 1, status: 200, anchors: ['top'], findings: ['BASE_RELATIVE'] });
  await store.recordFetch({ urlId: results[0]!.urlId!, outcome: 'failed', startedAt: 2, errorCode: 'ERR_FETCH_TIMEOUT' });
  return { homeId, aId: results[0]!.urlId!, oldId, newId: target!.urlId! };
}

describe('SqliteStore reader', () => {
  it('reads every link back in page order, with what the crawl recorded about it', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    const { homeId, aId, oldId, newId } = await smallCrawl(store);
    const links = [...store.reader().links()];
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
    const store = new SqliteStore({ path: ':memory:' });
    const { homeId, aId, oldId, newId } = await smallCrawl(store);
    const reader = store.reader();
    expect([...reader.edges()]).toEqual([
      { fromUrlId: homeId, toUrlId: aId, element: 'a', attribute: 'href', count: 2 },
      { fromUrlId: homeId, toUrlId: aId + 1, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'link', attribute: 'href', count: 1 },
    ]);
    const collapsed = [...reader.edges({ collapseAliases: true })];
    expect(collapsed.filter((e) => e.toUrlId === newId).map((e) => e.element)).toEqual(['a', 'link']);
    expect(collapsed.some((e) => e.toUrlId === oldId)).toBe(false);
  });

  it('counts the ladder funnel, fetch errors, URLs with their last fetch, forms, fetches and aliases', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    const { aId, oldId, homeId } = await smallCrawl(store);
    const reader = store.reader();
    expect(reader.funnel()).toEqual({
      rawLinks: 5,
      distinctStrings: 4, // a, A%2e, http://SITE:80/a, old (the second /old repeats a string)
      distinctSyntax: 4,
      distinctScheme: 3, // http://SITE:80/a folds into /a at the scheme rung
      afterAliases: 2, // /old is an alias of /new
      unresolved: 1,
    });
    expect(reader.errorsByCode()).toEqual({ ERR_FETCH_TIMEOUT: 1 });
    const urls = [...reader.urls()];
    expect(urls.map((u) => u.key)).toEqual(['http://site/', 'http://site/a', 'http://site/A.', 'http://site/old', 'http://site/new']);
    expect(urls[0]?.lastFetch).toMatchObject({ status: 200, anchors: ['top'], findings: ['BASE_RELATIVE'] });
    expect(reader.url(aId)?.firstLink).toEqual({ fromUrlId: homeId, fromKey: 'http://site/', rawHref: 'a' });
    expect(reader.url(oldId)).toMatchObject({ state: 'alias', lastFetch: { redirects: [{ status: 301 }] } });
    expect([...reader.forms()].map((f) => [f.urlId, f.text, f.rung])).toEqual([
      [aId, 'http://SITE:80/a', 'string'],
      [aId, 'http://site:80/a', 'syntax'],
      [aId + 1, 'http://site/A%2e', 'string'],
    ]);
    expect([...reader.fetches()]).toHaveLength(3);
    expect([...reader.aliases()].map((a) => [a.fromKey, a.toKey, a.evidence])).toEqual([['http://site/old', 'http://site/new', 'redirect']]);
    expect(reader.stats().linksByRung).toEqual({ new: 3, string: 0, syntax: 0, scheme: 1, protocol: 1 });
  });

  it('opens a database file to read it, and the `link` view gives one row per link for SQL users', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    await smallCrawl(store);
    await store.close();
    const reader = openIndexReader(file);
    expect([...reader.links()]).toHaveLength(6);
    reader.close();
    expect(() => openIndexReader(path.join(path.dirname(file), 'absent.db'))).toThrow(expect.objectContaining({ code: 'ERR_STORE_OPEN' }));
  });
});

describe('SqliteStore keys in memory', () => {
  it('finds every key and spelling again after the database is reopened', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    const [home] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    const first = await store.admit([link(home!.urlId!, 'x', 'http://SITE:80/x'), link(home!.urlId!, 'y', 'http://site/y', { follow: false })]);
    await store.close();
    const reopened = new SqliteStore({ path: file });
    const again = await reopened.admit([
      link(home!.urlId!, 'x', 'http://SITE:80/x'),
      link(home!.urlId!, 'x', 'http://site:80/x'),
      link(home!.urlId!, 'x', 'http://site/x'),
      link(home!.urlId!, 'y', 'http://site/y'),
    ]);
    expect(again.map((r) => [r.urlId, r.rung, r.isQueued])).toEqual([
      [first[0]!.urlId, 'string', false],
      [first[0]!.urlId, 'syntax', false], // its syntax form was kept: it meets that
      [first[0]!.urlId, 'string', false],
      [first[1]!.urlId, 'string', true], // skipped until a followed link named it
    ]);
    await reopened.close();
  });
});

describe('SqliteStore with other writers', () => {
  it('DEVIATION(STYLE url.key UNIQUE): integrityCheck finds a key stored twice, which no index forbids', async () => {
    const file = scratchDb();
    const store = new SqliteStore({ path: file });
    await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    await store.close();
    const raw = new Database(file);
    raw.prepare(`INSERT INTO url (key, scheme, host, state, depth, first_seen) VALUES ('http://site/', 'http', 'site', 'queued', 0, 0)`).run();
    raw.close();
    const reopened = new SqliteStore({ path: file });
    expect(reopened.integrityCheck()).toBe('url.key stored twice: http://site/');
    await reopened.close();
  });

  it('sees what another connection admitted since its last transaction, so nothing is admitted twice', async () => {
    const file = scratchDb();
    const first = new SqliteStore({ path: file });
    const second = new SqliteStore({ path: file });
    const [home] = await first.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
    await first.flush(); // a group holds the write lock until it commits
    // The second store built its key table before the first admitted: it must catch up.
    expect((await second.findUrl('http://site/'))?.id).toBe(home?.urlId);
    const [again] = await second.admit([{ rawHref: 'http://SITE/', target: 'http://SITE/' }]);
    expect(again).toMatchObject({ urlId: home?.urlId, rung: 'syntax' });
    await second.flush();
    const [fromFirst] = await first.admit([{ rawHref: 'http://SITE/', target: 'http://SITE/' }]);
    expect(fromFirst).toMatchObject({ urlId: home?.urlId, rung: 'string' }); // the form the second wrote
    expect(first.integrityCheck()).toBe('ok');
    await first.close();
    await second.close();
  });
});
