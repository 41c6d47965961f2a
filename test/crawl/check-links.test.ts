// Every resource a page uses and every external link is
// checked once, over real HTTP on loopback. The site is 127.0.0.1; other 127.0.0.x
// addresses play a CDN and foreign sites (out of the crawl's origin scope). Each
// server logs `METHOD path` of what it is asked.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import type { CrawlSummary } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore, type FetchRow, type UrlRow } from '../../src/store/index.js';

type Route = readonly [status: number, headers: Record<string, string>, body?: string];

interface Host {
  readonly origin: string;
  readonly port: number;
  readonly log: string[];
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const CSS = { 'content-type': 'text/css' };
const PNG = { 'content-type': 'image/png' };

/** A server on `address` (127.0.0.x), a port the OS picks; `routes` by path (a function for those that need the origin). */
async function host(address: string, routes: (origin: string) => Record<string, Route | ((request: IncomingMessage, response: ServerResponse) => void)>): Promise<Host> {
  const log: string[] = [];
  let table: ReturnType<typeof routes> = {};
  const server = createServer((request, response) => {
    log.push(`${request.method} ${request.url}`);
    const route = table[request.url ?? ''];
    if (typeof route === 'function') return route(request, response);
    const [status, headers, body] = route ?? [404, HTML, 'not found'];
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : (body ?? ''));
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${address}:${port}`;
  table = routes(origin);
  return { origin, port, log };
}

interface Crawled {
  readonly summary: CrawlSummary;
  readonly urls: Map<string, UrlRow>;
  readonly fetches: FetchRow[];
  readonly findings: { code: string; page: string | undefined; target: string | undefined }[];
}

async function crawlSite(seed: string, options: Parameters<typeof crawl>[1] = {}): Promise<Crawled> {
  const store = new MemoryStore();
  try {
    // Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
    const summary = await crawl(seed, { store, allowPrivate: true, retries: 0, sitemap: false, ...options });
    const reader = store.reader();
    const urls = new Map<string, UrlRow>();
    for await (const url of reader.urls()) urls.set(url.key, url);
    const fetches: FetchRow[] = [];
    for await (const row of reader.fetches()) fetches.push(row);
    const findings = [];
    for await (const finding of audit(reader)) findings.push({ code: finding.code, page: finding.page, target: finding.target });
    return { summary, urls, fetches, findings };
  } finally {
    await store.close();
  }
}

const lastFetch = (crawled: Crawled, key: string): FetchRow | undefined => crawled.fetches.filter((f) => f.urlId === crawled.urls.get(key)?.id).at(-1);

describe('resources', () => {
  it('an image named by 500 pages costs one request', async () => {
    const pages = Array.from({ length: 500 }, (_, i) => `/p${i}.html`);
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, pages.map((path) => `<a href="${path}">p</a>`).join('')],
      ...Object.fromEntries(pages.map((path) => [path, [200, HTML, '<img src="/logo.png" srcset="logo.png 1x, /logo.png 2x">'] as Route])),
      '/logo.png': [200, PNG, 'PNG'],
    }));
    const crawled = await crawlSite(`${site.origin}/`, { concurrency: 8, perHostConcurrency: 8 });
    expect(site.log.filter((entry) => entry.includes('logo'))).toEqual(['GET /logo.png']);
    expect(crawled.urls.get(`${site.origin}/logo.png`)).toMatchObject({ role: 'resource', state: 'done' });
    expect(crawled.summary).toMatchObject({ resourcesChecked: 1, resourcesBroken: 0 });
    expect(crawled.summary.pagesFetched).toBe(502);
  });

  it('every kind a page uses is checked once with GET, none read for links; a broken stylesheet is reported', async () => {
    const site = await host('127.0.0.1', () => ({
      '/': [
        200,
        HTML,
        `<link rel=stylesheet href="/missing.css"><link rel=icon href="/favicon.ico"><link rel=preload as=image href="/hero.png">
         <link rel=manifest href="/app.webmanifest"><link rel=canonical href="/"><link rel=alternate href="/feed.xml">
         <script src="/app.js"></script><picture><source srcset="/a.webp"><img src="/a.png"></picture>
         <video src="/v.mp4" poster="/poster.png"><track src="/subs.vtt"></video><audio src="/s.mp3"></audio>
         <object data="/doc.svg"></object><embed src="/e.swf"><iframe src="/frame.html"></iframe>
         <div style="background: url(/bg.png)"></div>`,
      ],
      '/favicon.ico': [200, { 'content-type': 'image/x-icon' }, 'x'],
      '/hero.png': [200, PNG, 'x'],
      '/app.webmanifest': [200, { 'content-type': 'application/manifest+json' }, '{}'],
      '/app.js': [200, { 'content-type': 'text/javascript' }, '"<a href=/from-js.html>"'],
      '/a.webp': [200, { 'content-type': 'image/webp' }, 'x'],
      '/a.png': [200, PNG, 'x'],
      '/v.mp4': [200, { 'content-type': 'video/mp4' }, 'x'],
      '/poster.png': [200, PNG, 'x'],
      '/subs.vtt': [200, { 'content-type': 'text/vtt' }, 'x'],
      '/s.mp3': [200, { 'content-type': 'audio/mpeg' }, 'x'],
      '/doc.svg': [200, { 'content-type': 'image/svg+xml' }, '<svg><a href="/from-svg.html"/></svg>'],
      '/e.swf': [200, { 'content-type': 'application/x-shockwave-flash' }, 'x'],
      '/frame.html': [200, HTML, '<a href="/from-frame.html">followed: frames are followed by default</a>'],
      '/from-frame.html': [200, HTML, 'ok'],
      '/bg.png': [200, PNG, 'x'],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    const requested = site.log.filter((entry) => entry !== 'GET /robots.txt').sort();
    expect(requested).toEqual(
      [
        '/',
        '/missing.css',
        '/favicon.ico',
        '/hero.png',
        '/app.webmanifest',
        '/app.js',
        '/a.webp',
        '/a.png',
        '/v.mp4',
        '/poster.png',
        '/subs.vtt',
        '/s.mp3',
        '/doc.svg',
        '/e.swf',
        '/frame.html',
        '/from-frame.html',
        '/bg.png',
        // rel=alternate names another document: checked once, not read (a broken one is reported).
        '/feed.xml',
      ]
        .map((path) => `GET ${path}`)
        .sort(),
    );
    expect(crawled.urls.get(`${site.origin}/frame.html`)?.role).toBe('page');
    expect(crawled.urls.get(`${site.origin}/feed.xml`)).toMatchObject({ role: 'resource' });
    expect(crawled.summary).toMatchObject({ resourcesChecked: 15, resourcesBroken: 2, externalChecked: 0 });
    expect(crawled.findings).toContainEqual({ code: 'LINK_BROKEN', page: `${site.origin}/`, target: `${site.origin}/missing.css` });
  });

  it('a stylesheet is read for url() and @import, resolved against its own URL after redirects', async () => {
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, '<link rel=stylesheet href="/old/site.css">'],
      '/old/site.css': [301, { location: '/css/site.css' }],
      '/css/site.css': [200, CSS, '@import "print.css";\nbody { background: url(../img/bg.png) }\n.x { background: url("#frag") }'],
      '/css/print.css': [200, CSS, '@font-face { src: url(fonts/a.woff2) format("woff2") }'],
      '/img/bg.png': [200, PNG, 'x'],
      '/css/fonts/a.woff2': [200, { 'content-type': 'font/woff2' }, 'x'],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    expect(site.log.filter((entry) => entry !== 'GET /robots.txt')).toEqual([
      'GET /',
      'GET /old/site.css',
      'GET /css/site.css',
      'GET /css/print.css',
      'GET /img/bg.png',
      'GET /css/fonts/a.woff2',
    ]);
    for (const path of ['/css/print.css', '/img/bg.png', '/css/fonts/a.woff2']) {
      expect(crawled.urls.get(site.origin + path), path).toMatchObject({ role: 'resource', state: 'done' });
    }
    // Never /old/img/bg.png (the stylesheet's first URL) nor /img/bg.png resolved against the page.
    expect(crawled.urls.has(`${site.origin}/old/img/bg.png`)).toBe(false);
    expect(crawled.summary.resourcesBroken).toBe(0);
  });

  it('checkResources: false records them, requests none', async () => {
    const site = await host('127.0.0.1', () => ({ '/': [200, HTML, '<img src="/a.png"><link rel=stylesheet href="/s.css">'] }));
    const crawled = await crawlSite(`${site.origin}/`, { checkResources: false });
    expect(site.log).toEqual(['GET /robots.txt', 'GET /']);
    expect(crawled.urls.get(`${site.origin}/a.png`)).toMatchObject({ state: 'skipped', role: 'resource' });
    expect(crawled.summary.resourcesChecked).toBe(0);
  });
});

describe('external links', () => {
  it('are checked once with HEAD, never read; a 404 is a broken link; redirects are followed, not admitted', async () => {
    const other = await host('127.0.0.2', () => ({
      '/ok': [200, HTML, '<a href="/never-crawled">x</a>'],
      '/gone': [404, HTML, 'gone'],
      '/moved': [301, { location: '/ok-after' }],
      '/ok-after': [200, HTML, 'x'],
    }));
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, `<a href="${other.origin}/ok">a</a><a href="${other.origin}/gone">b</a><a href="${other.origin}/moved">c</a><a href="/two">2</a>`],
      '/two': [200, HTML, `<a href="${other.origin}/ok">the same link again</a>`],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    // A HEAD 404 is confirmed by GET before the link is called broken.
    expect([...other.log].sort()).toEqual(['GET /robots.txt', 'HEAD /gone', 'GET /gone', 'HEAD /moved', 'HEAD /ok', 'HEAD /ok-after'].sort());
    expect(crawled.urls.get(`${other.origin}/ok`)).toMatchObject({ role: 'external', state: 'done' });
    expect(lastFetch(crawled, `${other.origin}/ok`)).toMatchObject({ status: 200, method: 'HEAD' });
    expect(lastFetch(crawled, `${other.origin}/moved`)).toMatchObject({
      status: 200,
      method: 'HEAD',
      finalUrl: `${other.origin}/ok-after`,
      redirects: [{ from: `${other.origin}/moved`, to: `${other.origin}/ok-after`, status: 301 }],
    });
    expect(crawled.urls.has(`${other.origin}/ok-after`)).toBe(false);
    expect(crawled.urls.has(`${other.origin}/never-crawled`)).toBe(false);
    expect(crawled.summary).toMatchObject({ externalChecked: 3, externalBroken: 1, headFallbacks: 1 });
    expect(crawled.summary.errorsByCode).toMatchObject({ HTTP_404: 1 });
    expect(crawled.summary.broken['client-error']).toBe(1);
    expect(crawled.findings).toContainEqual({ code: 'LINK_BROKEN', page: `${site.origin}/`, target: `${other.origin}/gone` });
    expect(crawled.findings.filter((finding) => finding.code === 'LINK_BROKEN')).toHaveLength(1);
  });

  it('HEAD refused (405, 501) or unanswered is tried again with GET', async () => {
    const other = await host('127.0.0.2', () => ({
      '/no-head': (request, response) => {
        response.writeHead(request.method === 'HEAD' ? 405 : 200, HTML);
        response.end(request.method === 'HEAD' ? undefined : 'fine');
      },
      '/not-implemented': (request, response) => {
        response.writeHead(request.method === 'HEAD' ? 501 : 404, HTML);
        response.end();
      },
      '/hang-up': (request, response) => {
        if (request.method === 'HEAD') request.socket.destroy();
        else response.writeHead(200, HTML).end('fine');
      },
    }));
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, ['/no-head', '/not-implemented', '/hang-up'].map((path) => `<a href="${other.origin}${path}">x</a>`).join('')],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    expect(other.log.filter((entry) => entry !== 'GET /robots.txt').sort()).toEqual(
      ['HEAD /no-head', 'GET /no-head', 'HEAD /not-implemented', 'GET /not-implemented', 'HEAD /hang-up', 'GET /hang-up'].sort(),
    );
    expect(lastFetch(crawled, `${other.origin}/no-head`)).toMatchObject({ status: 200, method: 'GET' });
    expect(lastFetch(crawled, `${other.origin}/not-implemented`)).toMatchObject({ status: 404, method: 'GET' });
    expect(lastFetch(crawled, `${other.origin}/hang-up`)).toMatchObject({ status: 200, method: 'GET' });
    expect(crawled.summary).toMatchObject({ externalChecked: 3, externalBroken: 1, headFallbacks: 3 });
  });

  it('HEAD answering 403 or 404 is not the verdict: GET is asked before the link is called broken', async () => {
    const other = await host('127.0.0.2', () => ({
      '/head-forbidden': (request, response) => {
        response.writeHead(request.method === 'HEAD' ? 403 : 200, HTML);
        response.end(request.method === 'HEAD' ? undefined : 'fine');
      },
      '/head-missing': (request, response) => {
        response.writeHead(request.method === 'HEAD' ? 404 : 200, HTML);
        response.end(request.method === 'HEAD' ? undefined : 'fine');
      },
      '/gone': [404, HTML, 'gone'],
    }));
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, ['/head-forbidden', '/head-missing', '/gone'].map((path) => `<a href="${other.origin}${path}">x</a>`).join('')],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    expect(other.log.filter((entry) => entry !== 'GET /robots.txt').sort()).toEqual(
      ['HEAD /head-forbidden', 'GET /head-forbidden', 'HEAD /head-missing', 'GET /head-missing', 'HEAD /gone', 'GET /gone'].sort(),
    );
    expect(lastFetch(crawled, `${other.origin}/head-forbidden`)).toMatchObject({ status: 200, method: 'GET' });
    expect(lastFetch(crawled, `${other.origin}/head-missing`)).toMatchObject({ status: 200, method: 'GET' });
    expect(lastFetch(crawled, `${other.origin}/gone`)).toMatchObject({ status: 404, method: 'GET' });
    expect(crawled.summary).toMatchObject({ externalChecked: 3, externalBroken: 1, headFallbacks: 3 });
    expect(crawled.findings.filter((finding) => finding.code === 'LINK_BROKEN').map((finding) => finding.target)).toEqual([`${other.origin}/gone`]);
  });

  it('robots.txt of the external host applies: a disallowed URL is not checked, and said so', async () => {
    const other = await host('127.0.0.3', () => ({
      '/robots.txt': [200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private/\n'],
      '/private/x': [404, HTML, 'never asked'],
      '/public': [200, HTML, 'x'],
    }));
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, `<a href="${other.origin}/private/x">p</a><img src="${other.origin}/public">`],
    }));
    const crawled = await crawlSite(`${site.origin}/`);
    expect(other.log).toEqual(['GET /robots.txt', 'HEAD /public']);
    expect(lastFetch(crawled, `${other.origin}/private/x`)).toMatchObject({ errorCode: 'ERR_CRAWL_ROBOTS_DISALLOWED', method: undefined });
    expect(crawled.summary).toMatchObject({ externalChecked: 1, externalBroken: 0, notCheckedByRobots: 1 });
    expect(crawled.summary.broken).toEqual({ 'client-error': 0, 'server-error': 0, failed: 0 });
    expect(crawled.findings.filter((finding) => finding.code === 'LINK_BROKEN')).toEqual([]);
  });

  it('a host that does not answer is an unverified link (not proved broken), without a second request', async () => {
    const gone = await host('127.0.0.4', () => ({}));
    const deadOrigin = gone.origin;
    await Promise.all(servers.splice(servers.length - 1).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    const site = await host('127.0.0.1', () => ({ '/': [200, HTML, `<a href="${deadOrigin}/x">dead</a>`] }));
    const crawled = await crawlSite(`${site.origin}/`);
    expect(lastFetch(crawled, `${deadOrigin}/x`)?.errorCode).toMatch(/^ERR_FETCH_/);
    expect(crawled.summary).toMatchObject({ externalChecked: 1, externalBroken: 0 });
    expect(crawled.findings).toContainEqual({ code: 'LINK_UNVERIFIED', page: `${site.origin}/`, target: `${deadOrigin}/x` });
  });

  it('the private-address guard applies: a literal private address is recorded, a name resolving to one refused', async () => {
    const other = await host('127.0.0.2', () => ({ '/x': [200, HTML, 'x'] }));
    const site = await host('127.0.0.1', () => ({
      '/': [200, HTML, `<a href="http://127.0.0.2:${other.port}/x">literal</a><a href="http://internal.test:${other.port}/x">by name</a>`],
    }));
    // site.test stands for the public site (trusted); internal.test resolves to 127.0.0.2.
    const lookup: LookupFunction = (hostname, options, callback) => {
      const address = hostname === 'internal.test' ? '127.0.0.2' : '127.0.0.1';
      if (options.all === true) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family: 4 }]);
      else callback(null, address, 4);
    };
    const fetcher = createFetcher({ refusePrivate: true, lookup, trustedHosts: ['site.test'] });
    try {
      const crawled = await crawlSite(`http://site.test:${site.port}/`, { allowPrivate: false, fetcher, robots: false });
      expect(other.log).toEqual([]);
      expect(crawled.urls.get(`http://127.0.0.2:${other.port}/x`)).toMatchObject({ state: 'skipped', role: 'external' });
      expect(lastFetch(crawled, `http://internal.test:${other.port}/x`)).toMatchObject({ errorCode: 'ERR_CRAWL_PRIVATE_ADDRESS' });
      expect(crawled.summary.broken).toEqual({ 'client-error': 0, 'server-error': 0, failed: 0 });
    } finally {
      await fetcher.close();
    }
  });

  it('checkExternal: false records them, requests none; include/exclude mean never request', async () => {
    const other = await host('127.0.0.2', () => ({ '/a': [200, HTML, 'x'], '/b': [200, HTML, 'x'] }));
    const site = await host('127.0.0.1', () => ({ '/': [200, HTML, `<a href="${other.origin}/a">a</a><a href="${other.origin}/b">b</a>`] }));
    const off = await crawlSite(`${site.origin}/`, { checkExternal: false });
    expect(other.log).toEqual([]);
    expect(off.urls.get(`${other.origin}/a`)).toMatchObject({ state: 'skipped', role: 'external' });
    expect(off.summary.externalChecked).toBe(0);
    const excluded = await crawlSite(`${site.origin}/`, { exclude: ['/b$'] });
    expect(other.log).toEqual(['GET /robots.txt', 'HEAD /a']);
    expect(excluded.urls.get(`${other.origin}/b`)).toMatchObject({ state: 'skipped', role: 'external' });
  });
});
