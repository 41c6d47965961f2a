// Sitemaps seed the crawl by default (sitemap-seeds.ts): crawl() reads
// the sitemaps of each seed's origin — here a gzipped urlset that robots.txt names —
// and fetches the pages they list, linked or not.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A site on 127.0.0.1 whose robots.txt names /maps/pages.xml.gz, a gzipped urlset of three pages; no page links another. */
async function gzipSitemapSite(): Promise<{ origin: string; log: string[]; times: number[] }> {
  const log: string[] = [];
  const times: number[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    const target = request.url ?? '/';
    log.push(`${request.method ?? '?'} ${target}`);
    times.push(performance.now());
    if (target === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${origin}/maps/pages.xml.gz\n`);
    } else if (target === '/maps/pages.xml.gz') {
      const urlset =
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        `<url><loc>${origin}/</loc></url>\n<url><loc>${origin}/a.html</loc><lastmod>2024-05-01</lastmod></url>\n<url><loc>${origin}/b.html</loc></url>\n` +
        '</urlset>\n';
      // Sent as the file itself (not a Content-Encoding): gzip is known by its magic bytes.
      response.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(urlset));
    } else if (['/', '/a.html', '/b.html'].includes(target)) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>no links</p>');
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<p>missing</p>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, log, times };
}

describe('sitemaps seed the crawl (on by default)', () => {
  it('a gzipped urlset (.xml.gz) named by robots.txt: its URLs are fetched though no page links to them', async () => {
    const { origin, log } = await gzipSitemapSite();
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());

    const summary = await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });

    expect(summary.pagesFetched).toBe(3);
    expect([...log].sort()).toEqual(
      ['GET /robots.txt', 'GET /maps/pages.xml.gz', 'GET /sitemap.xml', 'GET /', 'GET /a.html', 'GET /b.html'].sort(),
    );
    const reader = store.reader();
    const sitemaps = await collect(reader.sitemaps!());
    expect(sitemaps.map((s) => [s.url.slice(origin.length), s.source, s.status, s.kind])).toEqual([
      ['/maps/pages.xml.gz', 'robots', 200, 'urlset'],
      ['/sitemap.xml', 'origin', 404, undefined],
    ]);
    const entries = await collect(reader.sitemapEntries!());
    expect(entries.map((e) => [e.loc.slice(origin.length), e.lastmod])).toEqual([
      ['/', undefined],
      ['/a.html', '2024-05-01'],
      ['/b.html', undefined],
    ]);
    for (const entry of entries) expect((await store.findUrl(entry.loc))?.state, entry.loc).toBe('done');
    // No page links any other: /a.html and /b.html are orphans (listed, linked from no page); / is the seed, where the crawl starts.
    const orphans = (await collect(audit(reader))).filter((f) => f.code === 'SITEMAP_ORPHAN').map((f) => f.target);
    expect(orphans).toEqual([`${origin}/a.html`, `${origin}/b.html`]);
  });

  it('a sitemap URL reached from a link through a chain of redirects is linked, not an orphan (its whole alias class counts)', async () => {
    const server = createServer((request, response) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const moves: Record<string, string> = { '/a': '/b', '/b': '/c' };
      const to = moves[request.url ?? ''];
      if (to !== undefined) return void response.writeHead(301, { location: to }).end();
      if (request.url === '/sitemap.xml') {
        response.writeHead(200, { 'content-type': 'application/xml' });
        return void response.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/c</loc></url><url><loc>${origin}/d</loc></url></urlset>`);
      }
      const isPage = ['/', '/c', '/d'].includes(request.url ?? '');
      response.writeHead(isPage ? 200 : 404, { 'content-type': 'text/html' });
      response.end(request.url === '/' ? '<a href="/a">a</a>' : '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });
    const orphans = (await collect(audit(store.reader()))).filter((f) => f.code === 'SITEMAP_ORPHAN').map((f) => f.target);
    expect(orphans).toEqual([`${origin}/d`]);
  });

  it('sitemap requests keep the per-host delay, as pages do: no two requests of the host closer than perHostDelayMs', async () => {
    const { origin, log, times } = await gzipSitemapSite();
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());

    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0, perHostDelayMs: 200 });

    // robots.txt is asked within the turn of the request it is read for.
    const paced = times.filter((_, i) => log[i] !== 'GET /robots.txt');
    expect(paced).toHaveLength(5);
    const gaps = paced.slice(1).map((t, i) => t - paced[i]!);
    // The delay runs from one dispatch to the next; the server sees each arrival a
    // little late, and on a loaded machine one arrival can lag the next by tens of
    // milliseconds. Unpaced requests would arrive within a few milliseconds.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(150);
  });

  it('sitemap: false reads none: no /sitemap.xml, no robots.txt Sitemap: line followed', async () => {
    const { origin, log } = await gzipSitemapSite();
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());

    const summary = await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0, sitemap: false });

    expect(summary.pagesFetched).toBe(1);
    expect(log).toEqual(['GET /robots.txt', 'GET /']);
  });
});

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * A site whose /sitemap.xml is an index of `count` sitemaps, /maps/N.xml, each listing
 * one page, /p/N.html, that no page links to. `onRequest` sees each request as it comes.
 */
async function manySitemapsSite(count: number, onRequest: (target: string) => void = () => {}): Promise<{ origin: string; log: string[] }> {
  const log: string[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    const target = request.url ?? '/';
    log.push(target);
    onRequest(target);
    const xml = (body: string): void => void response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    const number = /^\/maps\/(\d+)\.xml$/.exec(target)?.[1];
    if (target === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    else if (target === '/sitemap.xml') {
      const entries = Array.from({ length: count }, (_, i) => `<sitemap><loc>${origin}/maps/${i}.xml</loc></sitemap>\n`).join('');
      xml(`<sitemapindex xmlns="${SITEMAP_NS}">\n${entries}</sitemapindex>\n`);
    } else if (number !== undefined) xml(`<urlset xmlns="${SITEMAP_NS}"><url><loc>${origin}/p/${number}.html</loc></url></urlset>\n`);
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>no links</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, log };
}

/** How many times each target was requested, those asked more than once. */
function repeated(log: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const target of log) counts[target] = (counts[target] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([target, n]) => n > 1 && target !== '/robots.txt'));
}

describe.each([
  ['MemoryStore', (): IndexWriter => new MemoryStore()],
  ['SqliteStore', (): IndexWriter => new SqliteStore({ path: ':memory:' })],
] as const)('sitemap reading is part of the frontier (%s)', (_name, open) => {
  // 40 sitemaps and their index: within maxSitemaps (50 by default).
  it('a crawl stopped among its sitemaps reads the rest on the next run, none twice; a third run reads none', async () => {
    const controller = new AbortController();
    let maps = 0;
    const { origin, log } = await manySitemapsSite(40, (target) => {
      if (target.startsWith('/maps/') && ++maps === 15) controller.abort();
    });
    const store = open();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());

    const first = await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0, signal: controller.signal });
    expect(first.stoppedBy).toBe('signal');
    const readFirst = log.filter((target) => target.startsWith('/maps/')).length;
    expect(readFirst).toBeLessThan(40);

    const second = await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });
    expect(second.stoppedBy).toBe('frontier-empty');
    // Every sitemap read, every page it lists fetched; at most the one in flight at the stop asked twice.
    for (let i = 0; i < 40; i++) expect(log, `/maps/${i}.xml`).toContain(`/maps/${i}.xml`);
    for (let i = 0; i < 40; i++) expect((await store.findUrl(`${origin}/p/${i}.html`))?.state, `/p/${i}.html`).toBe('done');
    const repeats = repeated(log);
    expect(Object.keys(repeats).length, JSON.stringify(repeats)).toBeLessThanOrEqual(1);
    expect(repeats['/sitemap.xml']).toBeUndefined();

    log.length = 0;
    const third = await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });
    expect(third.stoppedBy).toBe('frontier-empty');
    expect(log.filter((target) => target !== '/robots.txt')).toEqual([]);
  });

  it('a re-check reads every sitemap again', async () => {
    const { origin, log } = await manySitemapsSite(3);
    const store = open();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });
    log.length = 0;
    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0, recheck: true });
    expect(log.filter((target) => target.endsWith('.xml')).sort()).toEqual(['/maps/0.xml', '/maps/1.xml', '/maps/2.xml', '/sitemap.xml']);
  });
});

describe('a /sitemap.xml that is not a sitemap', () => {
  /** A site that answers every path but robots.txt with the same HTML page (a catch-all), robots.txt naming `named` when given. */
  async function catchAllSite(named?: string): Promise<string> {
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\n${named === undefined ? '' : `Sitemap: ${origin}${named}\n`}`);
      } else {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><title>App</title></head><body><div id="app"></div></body></html>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return origin;
  }

  it('tried at /sitemap.xml and answered with HTML, it is as absent as a 404: no finding; a sitemap robots.txt names that answers HTML is one', async () => {
    const origin = await catchAllSite();
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0 });
    const sitemaps = await collect(store.reader().sitemaps!());
    expect(sitemaps.map((s) => [s.url.slice(origin.length), s.status, s.kind, s.findings])).toEqual([['/sitemap.xml', 200, undefined, []]]);
    expect((await collect(audit(store.reader()))).filter((f) => f.code.startsWith('SITEMAP_'))).toEqual([]);

    const named = await catchAllSite('/maps/site.xml');
    const other = new MemoryStore();
    closers.push(() => other.close());
    await crawl(`${named}/`, { store: other, fetcher, allowPrivate: true, retries: 0 });
    const findings = (await collect(audit(other.reader()))).filter((f) => f.code.startsWith('SITEMAP_'));
    expect(findings.map((f) => [f.code, f.page?.slice(named.length)])).toEqual([['SITEMAP_XML_INVALID', '/maps/site.xml']]);
  });
});
