// Sitemaps seed the crawl by default (issue 11, item 3; sitemap-seeds.ts): crawl() reads
// the sitemaps of each seed's origin — here a gzipped urlset that robots.txt names —
// and fetches the pages they list, linked or not.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
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

  it('sitemap requests keep the per-host delay, as pages do: no two requests of the host closer than perHostDelayMs', async () => {
    const { origin, log, times } = await gzipSitemapSite();
    const store = new MemoryStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());

    await crawl(`${origin}/`, { store, fetcher, allowPrivate: true, retries: 0, perHostDelayMs: 120 });

    // robots.txt is asked within the turn of the request it is read for.
    const paced = times.filter((_, i) => log[i] !== 'GET /robots.txt');
    expect(paced).toHaveLength(5);
    const gaps = paced.slice(1).map((t, i) => t - paced[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(110);
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
