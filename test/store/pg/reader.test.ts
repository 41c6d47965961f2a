// The PostgreSQL reader over rows put in its tables directly (a SQLite index copied
// row by row): it reads back what the SQLite reader reads from the same rows, in the
// same order; its lists are cursors that a pass may leave early; damage and a
// database that is no index are told in one line without the password.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore, openIndexReader, type IndexReader, type IndexWriter } from '../../../src/store/index.js';
import { connect, migratePg, type Sql } from '../../../src/store/pg/pg-database.js';
import { PG_CURSOR_ROWS, PgIndexReader, openPgIndexReader } from '../../../src/store/pg/pg-reader.js';
import { collect } from '../../support/collect.js';
import { collapsedEdges } from '../collapsed-edges.js';
import { link, smallCrawl } from '../small-crawl.js';
import { copySqliteIndex } from './copy-sqlite-index.js';
import { startPostgres, type PostgresCluster } from '../../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../../support/system-tools.js';

const NOW = 1_700_000_000_000;

let cluster: PostgresCluster | string;
let url: string;
let sql: Sql;
beforeAll(async () => {
  cluster = await startPostgres();
  if (typeof cluster === 'string') return;
  url = await icuDatabase(cluster);
  sql = connect(url);
  await migratePg(sql, () => NOW);
}, INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  await sql?.end();
  if (typeof cluster !== 'string') await cluster?.stop();
});

/**
 * A database whose own collation is not bytewise (ICU, en-US: 'img' < 'IMG', '_src' < 'a'),
 * so that the reader's order is seen to be SQLite's, not the database's.
 */
async function icuDatabase(server: PostgresCluster): Promise<string> {
  const name = `reader_icu_${process.pid}`;
  const admin = connect(server.url, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/[^/]*$/, `/${name}`);
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A SQLite index file written by `write`, and the same rows in the PostgreSQL database. */
async function bothIndexes(write: (store: IndexWriter) => Promise<unknown>): Promise<{ sqlite: IndexReader; pg: IndexReader }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-pg-reader-'));
  folders.push(dir);
  const file = path.join(dir, 'index.db');
  const store = new SqliteStore({ path: file, now: () => NOW });
  await write(store);
  await store.close();
  await copySqliteIndex(file, sql);
  return { sqlite: openIndexReader(file), pg: new PgIndexReader(sql) };
}

/** Everything a reader says, each list read to its end. */
async function readAll(reader: IndexReader) {
  const runs = await reader.runs();
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
    runs,
    runFindings: await Promise.all([...runs.map((run) => run.id), 99].map((id) => reader.runFindings?.(id))),
    sitemaps: await collect(reader.sitemaps?.() ?? []),
    sitemapEntries: await collect(reader.sitemapEntries?.() ?? []),
  };
}

/** The small crawl, an alias cycle with links on its pages, runs, a sitemap, findings kept, and text that orders differently by bytes and by locale. */
async function richCrawl(store: IndexWriter): Promise<void> {
  const { homeId, aId, newId } = await smallCrawl(store);
  const more = await store.admit([
    link(homeId, 'x', 'http://site/x'),
    link(homeId, 'y', 'http://site/y'),
    link(homeId, 'z', 'http://site/z'),
    { fromUrlId: homeId, rawHref: 'n', target: 'http://site/n' }, // neither element nor attribute
    link(homeId, 'img', 'http://site/img.png', { element: 'img', attribute: 'src', follow: false }),
    link(homeId, 'IMG', 'http://site/img.png', { element: 'IMG', attribute: 'src' }), // 'IMG' < 'a' < 'img' by bytes
    link(homeId, 'img2', 'http://site/img.png', { element: 'img', attribute: '_src' }),
    link(homeId, 'img3', 'http://site/img.png', { element: 'img', attribute: undefined }),
    link(homeId, 'é', 'http://site/%C3%A9', { element: 'éa' }),
    // U+FFFD before U+1D49C in UTF-8 bytes, after it in UTF-16 code units.
    link(homeId, 'astral', 'http://site/%C3%A9', { element: 'x\u{1D49C}' }),
    link(homeId, 'bmp', 'http://site/%C3%A9', { element: 'x\uFFFD' }),
    link(homeId, 'SITE', 'HTTP://Site/x'),
    link(homeId, 'SITE2', 'http://SITE/x'),
  ]);
  const [x, y, z] = more.map((r) => r.urlId!);
  await store.admit([link(x!, 'home', 'http://site/'), link(x!, 'new', 'http://site/new')]);
  await store.admit([link(y!, '/', 'http://site/'), link(y!, 'z', 'http://site/z')]);
  await store.addAlias({ fromId: x!, toId: y!, evidence: 'redirect' });
  await store.addAlias({ fromId: y!, toId: z!, evidence: 'content-location', detail: 'http://site/z' });
  await store.addAlias({ fromId: z!, toId: x!, evidence: 'redirect' });
  await store.addAlias({ fromId: newId, toId: homeId, evidence: 'canonical' });
  await store.recordFetch({ urlId: aId, outcome: 'done', startedAt: 20, status: 404, attempts: 2, method: 'HEAD', etag: '"e"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' });
  await store.recordFetch({ urlId: aId, outcome: 'done', startedAt: 30, status: 404, isNotModified: true });
  await store.recordFetch({
    urlId: x!,
    outcome: 'done',
    startedAt: 31,
    status: 302,
    redirects: [
      { from: 'http://site/x', to: 'http://site/y', status: 301 },
      { from: 'http://site/y', to: undefined, status: 302 },
    ],
  });
  const first = await store.startRun({ startedAt: 1, seeds: ['http://site/'], settings: { maxDepth: 2, include: ['a'] } });
  await store.endRun(first, { endedAt: 40, stoppedBy: 'frontier-empty', outcome: 'finished', counts: { requests: 4 } });
  await store.recordRunFindings(first, [
    { code: 'LINK_BROKEN', page: 'http://site/', target: 'http://site/a', href: 'a' },
    { code: 'LINK_BROKEN', page: 'http://site/', target: 'http://site/B', href: 'B' },
    { code: 'HREF_SURROUNDING_WHITESPACE', page: 'http://site/', target: '', href: ' a' },
  ]);
  const second = await store.startRun({ startedAt: 50, seeds: ['http://site/'], settings: {} });
  await store.recordRunFindings(second, []);
  const index = await store.recordSitemap({
    runId: second,
    url: 'http://site/sitemap.xml',
    source: 'origin',
    fetchedAt: 51,
    status: 200,
    errorCode: undefined,
    kind: 'sitemapindex',
    findings: [],
    entries: [{ loc: 'http://site/s1.xml', lastmod: undefined, line: 3, urlId: undefined }],
  });
  await store.recordSitemap({
    runId: second,
    url: 'http://site/s1.xml',
    source: 'index',
    parentId: index,
    fetchedAt: 52,
    status: 200,
    errorCode: undefined,
    kind: 'urlset',
    findings: [{ code: 'SITEMAP_LOC_INVALID', line: 4, column: 7, detail: 'http://[bad' }],
    entries: [
      { loc: 'http://site/a', lastmod: '2030-01-01', line: 3, urlId: aId },
      { loc: 'http://[bad', lastmod: undefined, line: 4, urlId: undefined },
    ],
  });
  await store.flush();
}

describe('PgIndexReader', () => {
  it('reads back what the SQLite reader reads from the same rows, in the same order', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    const { sqlite, pg } = await bothIndexes(richCrawl);
    const fromSqlite = await readAll(sqlite);
    expect(await readAll(pg)).toStrictEqual(fromSqlite);
    // The fixture reaches what it is for: NULL and byte-ordered text in the edges, forms of one URL, redirects, runs, sitemaps.
    expect(fromSqlite.edges.filter((e) => e.toUrlId === fromSqlite.urls.find((u) => u.key === 'http://site/img.png')?.id).map((e) => [e.element, e.attribute])).toEqual([
      ['IMG', 'src'],
      ['img', undefined],
      ['img', '_src'],
      ['img', 'src'],
    ]);
    expect(fromSqlite.edges.filter((e) => e.element?.startsWith('x') === true).map((e) => e.element)).toEqual(['x\uFFFD', 'x\u{1D49C}']);
    expect(fromSqlite.forms.length).toBeGreaterThanOrEqual(5);
    expect(fromSqlite.fetches.some((f) => f.redirects.length === 2 && f.redirects[1]!.to === undefined)).toBe(true);
    expect(fromSqlite.runFindings.map((kept) => kept?.length)).toEqual([3, 0, undefined]);
    expect(fromSqlite.sitemapEntries).toHaveLength(3);
    await sqlite.close();
    await pg.close();
  });

  it('reads the small crawl as the contract says', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    let ids: Awaited<ReturnType<typeof smallCrawl>> | undefined;
    const { pg } = await bothIndexes(async (store) => {
      ids = await smallCrawl(store);
    });
    const { homeId, aId, oldId, newId } = ids!;
    expect(await collect(pg.edges())).toEqual([
      { fromUrlId: homeId, toUrlId: aId, element: 'a', attribute: 'href', count: 2 },
      { fromUrlId: homeId, toUrlId: aId + 1, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'a', attribute: 'href', count: 1 },
      { fromUrlId: homeId, toUrlId: oldId, element: 'link', attribute: 'href', count: 1 },
    ]);
    expect(await pg.funnel()).toEqual({ rawLinks: 5, distinctStrings: 4, distinctSyntax: 4, distinctScheme: 3, afterAliases: 3, unresolved: 1 });
    expect(await pg.url(oldId)).toMatchObject({ state: 'alias', aliasOf: newId, lastFetch: { redirects: [{ status: 301 }] } });
    expect(await pg.url(999)).toBeUndefined();
    expect((await pg.url(newId))?.lastFetch).toBeUndefined();
    expect(await pg.errorsByCode()).toEqual({ ERR_FETCH_TIMEOUT: 1 });
  });

  it('streams a list longer than a cursor page, and a pass left early releases its connection', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    const pages = PG_CURSOR_ROWS + 7;
    await bothIndexes(async (store) => {
      const [home] = await store.admit([{ rawHref: 'http://site/', target: 'http://site/' }]);
      await store.admit(Array.from({ length: pages }, (_, i) => link(home!.urlId!, `p${i}`, `http://site/p${i}`)));
    });
    // One connection: a cursor that kept it would leave every later query waiting.
    const narrow = connect(url, { max: 1 });
    const reader = new PgIndexReader(narrow);
    for (let pass = 0; pass < 3; pass++) {
      for await (const row of reader.urls()) {
        expect(row.id).toBe(1);
        break;
      }
      for await (const row of reader.links()) {
        expect(row.position).toBe(0);
        break;
      }
    }
    const urls = await collect(reader.urls());
    expect(urls.map((u) => u.id)).toEqual(Array.from({ length: pages + 1 }, (_, i) => i + 1));
    expect((await reader.stats()).urlsByState.queued).toBe(pages + 1);
    await reader.close();
    await narrow.end();
  });

  it('the link view reads rows of both link formats as the reader does (migration 004)', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    await bothIndexes(smallCrawl);
    // A row as written before migration 004 (format 1), on a page of its own.
    await sql`INSERT INTO page_link (site, from_url, first_position, count, links, format)
      VALUES (0, 1, 1000, 2, ${'[[2,"b#x","x","a","href","retrieval","protocol","scheme",null,["REF_X"],null,3,5,1],[null,"http://[",null,"a","href"]]'}, 1)`;
    const reader = new PgIndexReader(sql);
    const links = await collect(reader.links());
    const view = await sql`SELECT * FROM link ORDER BY from_url, position`;
    expect(view.length).toBe(links.length);
    expect(links.find((l) => l.position === 1000)).toMatchObject({ rawHref: 'b#x', fragment: 'x', rung: 'protocol', ladderRung: 'scheme', metUrlId: 3, findings: ['REF_X'], line: 5, column: 1 });
    const byPlace = new Map(view.map((row) => [`${row['from_url']}:${row['position']}`, row]));
    for (const link of links) {
      const row = byPlace.get(`${link.fromUrlId}:${link.position}`)!;
      expect([row['to_url'], row['raw_href'], row['fragment'], row['element'], row['attribute'], row['base_level'], row['rung'], row['ladder_rung'], row['error'], row['alternate_target'], row['met_url'], row['line'], row['column']]).toEqual(
        [link.toUrlId, link.rawHref, link.fragment, link.element, link.attribute, link.baseLevel, link.rung, link.ladderRung, link.error, link.alternateTarget, link.metUrlId, link.line, link.column].map((v) => v ?? null),
      );
      expect(row['findings'] ?? []).toEqual(link.findings);
    }
  });

  it('names a damaged index ERR_STORE_CORRUPT, with the database but not its password', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    await bothIndexes(smallCrawl);
    await sql`UPDATE page_link SET links = '[[1, "a"' WHERE first_position = 0`;
    const secret = url.replace('postgres://postgres@', 'postgres://postgres:s3cret@');
    const reader = new PgIndexReader(connect(secret, { max: 1 }), () => undefined);
    await expect(collect(reader.links())).rejects.toMatchObject({ code: 'ERR_STORE_CORRUPT', message: expect.stringContaining('page_link.links') });
    const edges = collect(reader.edges());
    await expect(edges).rejects.toMatchObject({ code: 'ERR_STORE_CORRUPT' });
    await expect(edges).rejects.not.toThrow(/s3cret/);
    await expect(collect(reader.links())).rejects.toThrow(new RegExp(`^the index postgres://postgres@127\\.0\\.0\\.1:\\d+/\\w+ is corrupt`));
  });

  it('opens only an up-to-date index, and says why not in one line without the password', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL reader tests', cluster));
    const empty = (await cluster.createDatabase()).replace('postgres://postgres@', 'postgres://postgres:s3cret@');
    await expect(openPgIndexReader(empty)).rejects.toMatchObject({ code: 'ERR_STORE_NOT_INDEX', message: expect.not.stringContaining('s3cret') });
    const refused = 'postgres://me:s3cret@127.0.0.1:1/none';
    const error = (await openPgIndexReader(refused).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('ERR_STORE_OPEN');
    expect(error.message).toMatch(/^cannot open the index at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/);
    expect(error.message).not.toContain('\n');
    const reader = await openPgIndexReader(url);
    expect((await reader.stats()).urlsByState).toBeDefined();
    await reader.close();
  });
});
