// robots.txt unreachable at the start (the connection closed, a
// 503). RFC 9309 §2.3.1.4 asks a crawler to assume complete disallow *while* it
// is unreachable: the host's outage is recorded with its own code and retried with
// backoff, its URLs stay queued (never `failed`), and the next run fetches them.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/cli/format-summary.js';
import { runCrawler, type CrawlerOptions } from '../../src/crawl/index.js';
import { createFetcher, createRobotsPolicy } from '../../src/fetch/index.js';
import { SqliteStore } from '../../src/store/index.js';

interface Site {
  readonly origin: string;
  readonly requests: string[];
  /** How robots.txt answers: the connection closed, a 503, or a file allowing everything. */
  robots: 'close' | '503' | 'up';
  /** Serve /sitemap.xml and /listed.xml (named by robots.txt when up), each listing a page no page links to. */
  hasSitemaps: boolean;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const sockets = new Set<Socket>();
  const site = { requests: [] as string[], robots: 'close' as Site['robots'], hasSitemaps: false };
  const urlset = (path: string): string =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${(site as unknown as Site).origin}${path}</loc></url></urlset>`;
  const server: Server = createServer((request, response) => {
    const target = request.url ?? '/';
    site.requests.push(target);
    if (target === '/robots.txt') {
      if (site.robots === 'close') return void request.socket.destroy();
      if (site.robots === '503') return void response.writeHead(503).end('down');
      const named = site.hasSitemaps ? `Sitemap: ${(site as unknown as Site).origin}/listed.xml\n` : '';
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\n${named}`);
    }
    if (site.hasSitemaps && target === '/sitemap.xml') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(urlset('/only-in-sitemap'));
    if (site.hasSitemaps && target === '/listed.xml') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(urlset('/only-in-listed'));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(target === '/' ? '<a href="/a">a</a><a href="/b">b</a>' : '<p>leaf</p>');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(site, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function run(site: Site, store: SqliteStore, options: Partial<CrawlerOptions> = {}) {
  const fetcher = createFetcher({ userAgent: 'linkladder-test' });
  const robots = createRobotsPolicy({ userAgent: 'linkladder-test' });
  try {
    return await runCrawler({
      seeds: [`${site.origin}/`, `${site.origin}/a`],
      store,
      fetcher,
      robots,
      allowPrivate: true,
      retries: 2,
      retryDelayMs: 1,
      // Requests counted: no sitemap (reading it asks robots.txt for /sitemap.xml first).
      sitemap: false,
      ...options,
    } as CrawlerOptions);
  } finally {
    await fetcher.close();
    await robots.close();
  }
}

describe('robots.txt unreachable at the start', () => {
  it.each(['close', '503'] as const)('robots.txt %s: the URLs stay queued, the outage is recorded and retried, the next run fetches them', async (how) => {
    const site = await startSite();
    open.push(site);
    site.robots = how;
    const store = new SqliteStore({ path: ':memory:' });
    open.push(store);

    const first = await run(site, store);
    // Asked once, then retried with backoff (retries: 2); no page requested.
    expect(site.requests).toEqual(['/robots.txt', '/robots.txt', '/robots.txt']);
    expect(first.pagesFailed).toBe(0);
    expect(first.errorsByCode['ERR_CRAWL_ROBOTS_DISALLOWED']).toBeUndefined();
    expect(first.index.urlsByState).toMatchObject({ queued: 2, failed: 0, fetching: 0 });
    expect(first.robotsOutages).toEqual([
      expect.objectContaining({
        code: 'ERR_CRAWL_ROBOTS_UNREACHABLE',
        robotsUrl: `${site.origin}/robots.txt`,
        attempts: 3,
        urlsLeft: 2,
        ...(how === '503' ? { status: 503 } : { status: undefined }),
      }),
    ]);
    const line = formatSummary(first).join('\n');
    expect(line).toContain(`robots.txt of ${site.origin} unreachable`);
    expect(line).toContain('2 URLs left queued for the next run');

    site.robots = 'up';
    site.requests.length = 0;
    const second = await run(site, store);
    expect(second.robotsOutages).toEqual([]);
    expect([...site.requests].sort()).toEqual(['/', '/a', '/b', '/robots.txt']);
    expect(second.index.urlsByState).toMatchObject({ queued: 0, done: 3, failed: 0 });
  });

  it('with sitemaps read: robots.txt is asked once for them, no sitemap is requested, and the summary counts every robots.txt request', async () => {
    const site = await startSite();
    open.push(site);
    site.robots = '503';
    const store = new SqliteStore({ path: ':memory:' });
    open.push(store);

    const summary = await run(site, store, { sitemap: true });
    // Once for the sitemaps (complete disallow: /sitemap.xml not requested), then the pages' ask and its 2 retries.
    expect(site.requests).toEqual(['/robots.txt', '/robots.txt', '/robots.txt', '/robots.txt']);
    expect(summary.requestsByKind.robots).toBe(4);
    expect(summary.robotsOutages).toEqual([expect.objectContaining({ attempts: 4, urlsLeft: 2, status: 503 })]);
    expect(formatSummary(summary).join(' ')).toMatch(/status 503,\s+4 tries/);
    const sitemaps = [];
    for await (const row of store.reader().sitemaps!()) sitemaps.push([row.url, row.status, row.errorCode]);
    expect(sitemaps).toEqual([[`${site.origin}/sitemap.xml`, undefined, 'ERR_CRAWL_ROBOTS_UNREACHABLE']]);
  });

  it('the next run reads the sitemaps the outage kept it from: robots.txt Sitemap: lines and /sitemap.xml, each once', async () => {
    const site = await startSite();
    open.push(site);
    site.robots = '503';
    site.hasSitemaps = true;
    const store = new SqliteStore({ path: ':memory:' });
    open.push(store);
    await run(site, store, { sitemap: true });
    expect(site.requests.filter((target) => target !== '/robots.txt')).toEqual([]);

    site.robots = 'up';
    site.requests.length = 0;
    const second = await run(site, store, { sitemap: true });
    expect(second.robotsOutages).toEqual([]);
    expect([...site.requests].sort()).toEqual(['/', '/a', '/b', '/listed.xml', '/only-in-listed', '/only-in-sitemap', '/robots.txt', '/sitemap.xml']);
    // Read once: a third run reads none of them again.
    site.requests.length = 0;
    await run(site, store, { sitemap: true });
    expect(site.requests.filter((target) => target !== '/robots.txt')).toEqual([]);
  });
});
