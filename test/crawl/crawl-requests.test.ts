// "requests" is every HTTP request sent: page fetches, retries,
// redirect hops, robots.txt and sitemaps, each counted where it is sent, so the crawl's count
// equals the server's.

import { afterEach, describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { createFetcher, createRobotsPolicy } from '../../src/fetch/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { closeAll, onCleanup, startServer } from '../fetch/test-server.js';

afterEach(closeAll);

describe('requests', () => {
  it('counts every request the server received, with fetches, retries, redirect hops, robots.txt and sitemaps apart', async () => {
    let flaky = 0;
    const server = await startServer((request, response) => {
      switch (request.url) {
        case '/robots.txt':
          response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
          return;
        case '/sitemap.xml':
          response.writeHead(301, { location: '/maps/site.xml' }).end();
          return;
        case '/maps/site.xml':
          response.writeHead(200, { 'content-type': 'application/xml' });
          response.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${request.headers.host}/</loc></url></urlset>`);
          return;
        case '/':
          response.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/old">o</a><a href="/flaky">f</a><a href="/private/x">p</a>');
          return;
        case '/old':
          response.writeHead(301, { location: '/older' }).end();
          return;
        case '/older':
          response.writeHead(302, { location: '/new' }).end();
          return;
        case '/flaky':
          flaky++;
          if (flaky === 1) response.writeHead(503).end();
          else response.writeHead(200, { 'content-type': 'text/html' }).end('ok');
          return;
        default:
          response.writeHead(200, { 'content-type': 'text/html' }).end('page');
      }
    });
    const fetcher = createFetcher();
    const robots = createRobotsPolicy();
    onCleanup(() => fetcher.close());
    onCleanup(() => robots.close());
    const summary = await runCrawler({
      seeds: `${server.origin}/`,
      store: new MemoryStore(),
      fetcher,
      robots,
      allowPrivate: true,
      retryDelayMs: 1,
    });
    // GET /robots.txt, /sitemap.xml → /maps/site.xml (read by default; it lists /), /, /old → /older → /new, /flaky twice.
    expect(server.log).toHaveLength(9);
    expect(summary.requests).toBe(server.log.length);
    // A sitemap's requests, its redirect hop too, are neither page fetches nor a page's redirect hops.
    expect(summary.requestsByKind).toEqual({ fetches: 3, retries: 1, redirects: 2, robots: 1, sitemaps: 2 });
  });
});
