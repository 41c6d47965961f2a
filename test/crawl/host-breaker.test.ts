// A dead host is paid for once per host, not once per link: after a few requests in a
// row that got no answer (refused, DNS, a timeout), the host is paused for the run and
// its remaining URLs are recorded as not checked (ERR_CRAWL_HOST_UNREACHABLE), never
// dropped. Loopback hosts: one that refuses connections, one that accepts and never
// answers; short timeouts; the requests each host saw are counted.

import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import type { CrawlSummary } from '../../src/crawl/index.js';
import { HOST_FAILURE_LIMIT, HostBreaker } from '../../src/crawl/host-breaker.js';
import { createFetcher, createRobotsPolicy } from '../../src/fetch/index.js';
import { MemoryStore, type FetchRow, type UrlRow } from '../../src/store/index.js';

const servers: (Server | HttpServer)[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** A port on `address` that nothing listens on (taken, then released). */
async function closedPort(address: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A host that accepts connections and never answers; counts the requests it was sent (their request lines). */
async function silentHost(address: string): Promise<{ origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      for (const line of chunk.toString('latin1').split('\r\n')) if (/^(GET|HEAD) /.test(line)) requests.push(line.replace(/ HTTP\/1\.1$/, ''));
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return { origin: `http://${address}:${(server.address() as AddressInfo).port}`, requests };
}

/** The crawled site: one page linking to `links`. */
async function site(links: readonly string[]): Promise<{ origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === '/') response.writeHead(200, HTML).end(links.map((href) => `<a href="${href}">x</a>`).join('\n'));
    else response.writeHead(404, HTML).end('not found');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

interface Crawled {
  readonly summary: CrawlSummary;
  readonly urls: Map<string, UrlRow>;
  readonly fetches: FetchRow[];
  readonly ms: number;
}

async function crawlSite(seed: string, options: Parameters<typeof crawl>[1]): Promise<Crawled> {
  const store = new MemoryStore();
  const started = Date.now();
  try {
    const summary = await crawl(seed, { store, allowPrivate: true, sitemap: false, retryDelayMs: 0, ...options });
    const ms = Date.now() - started;
    const reader = store.reader();
    const urls = new Map<string, UrlRow>();
    for await (const url of reader.urls()) urls.set(url.key, url);
    const fetches: FetchRow[] = [];
    for await (const row of reader.fetches()) fetches.push(row);
    return { summary, urls, fetches, ms };
  } finally {
    await store.close();
  }
}

const codesOf = (crawled: Crawled, keys: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const key of keys) {
    const id = crawled.urls.get(key)?.id;
    const code = crawled.fetches.filter((f) => f.urlId === id).at(-1)?.errorCode ?? 'none';
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
};

describe('a host that refuses connections', () => {
  it('is asked HOST_FAILURE_LIMIT times, not once per link; every link is recorded', async () => {
    const dead = `http://127.0.0.5:${await closedPort('127.0.0.5')}`;
    const links = Array.from({ length: 30 }, (_, i) => `${dead}/page-${i}`);
    const home = await site(links);
    // robots.txt is read for the external host (the default): each link used to ask it again.
    const crawled = await crawlSite(`${home.origin}/`, { retries: 2 });
    const toDead = crawled.summary.requests - home.requests.length;
    expect(toDead).toBe(HOST_FAILURE_LIMIT);
    expect(codesOf(crawled, links)).toEqual({ ERR_FETCH_CONNECTION_REFUSED: 3, ERR_CRAWL_HOST_UNREACHABLE: 27 });
    expect(crawled.summary.hostsUnreachable).toEqual([
      { code: 'ERR_CRAWL_HOST_UNREACHABLE', origin: dead, errorCode: 'ERR_FETCH_CONNECTION_REFUSED', failures: 3, urlsNotChecked: 27 },
    ]);
    expect(crawled.summary.errorsByCode).toMatchObject({ ERR_FETCH_CONNECTION_REFUSED: 3, ERR_CRAWL_HOST_UNREACHABLE: 27 });
    // No answer from the host proves nothing of its pages: unverified, not broken, as its first links are.
    expect(crawled.summary.broken.failed).toBe(0);
    expect(crawled.summary.verdicts).toMatchObject({ broken: 0, unverified: 30 });
  });

  it('without robots.txt: HEAD is not followed by GET on a refused connection, and no link is retried past the pause', async () => {
    const dead = `http://127.0.0.5:${await closedPort('127.0.0.5')}`;
    const links = Array.from({ length: 30 }, (_, i) => `${dead}/page-${i}`);
    const home = await site(links);
    const crawled = await crawlSite(`${home.origin}/`, { retries: 2, robots: false });
    expect(crawled.summary.requests - home.requests.length).toBe(HOST_FAILURE_LIMIT);
    expect(crawled.summary.headFallbacks).toBe(0);
    expect(codesOf(crawled, links)).toEqual({ ERR_FETCH_CONNECTION_REFUSED: 1, ERR_CRAWL_HOST_UNREACHABLE: 29 });
  });
});

describe('a host that accepts and never answers', () => {
  it('costs a few deadlines, not HEAD + GET on each of 3 tries for every link', async () => {
    const silent = await silentHost('127.0.0.6');
    const links = Array.from({ length: 10 }, (_, i) => `${silent.origin}/page-${i}`);
    const home = await site(links);
    const fetcher = createFetcher({ headersTimeoutMs: 300, refusePrivate: false });
    try {
      const crawled = await crawlSite(`${home.origin}/`, { retries: 2, robots: false, fetcher });
      // The first link: HEAD, GET (HEAD got no answer), then the host is paused: a slow failure is retried once at most.
      expect(silent.requests).toEqual(['HEAD /page-0', 'GET /page-0', 'HEAD /page-0'].slice(0, HOST_FAILURE_LIMIT));
      expect(codesOf(crawled, links)).toEqual({ ERR_FETCH_HEADERS_TIMEOUT: 1, ERR_CRAWL_HOST_UNREACHABLE: 9 });
      expect(crawled.summary.hostsUnreachable).toMatchObject([{ origin: silent.origin, errorCode: 'ERR_FETCH_HEADERS_TIMEOUT', urlsNotChecked: 9 }]);
    } finally {
      await fetcher.close();
    }
  });

  it('with robots.txt read: its robots.txt is asked HOST_FAILURE_LIMIT times, not once per link', async () => {
    const silent = await silentHost('127.0.0.6');
    const links = Array.from({ length: 10 }, (_, i) => `${silent.origin}/page-${i}`);
    const home = await site(links);
    const robots = createRobotsPolicy({ headersTimeoutMs: 300, refusePrivate: false });
    try {
      const crawled = await crawlSite(`${home.origin}/`, { retries: 2, robots });
      expect(silent.requests).toEqual(Array(HOST_FAILURE_LIMIT).fill('GET /robots.txt'));
      expect(codesOf(crawled, links)).toEqual({ ERR_FETCH_HEADERS_TIMEOUT: 3, ERR_CRAWL_HOST_UNREACHABLE: 7 });
    } finally {
      await robots.close();
    }
  });
});

describe('HostBreaker', () => {
  it('pauses a host after HOST_FAILURE_LIMIT failures in a row; an answer starts the count again; other errors are answers', () => {
    const breaker = new HostBreaker(3);
    breaker.failed('http://a:', 'ERR_FETCH_CONNECTION_REFUSED');
    breaker.failed('http://a:', 'ERR_FETCH_DNS');
    breaker.answered('http://a:');
    breaker.failed('http://a:', 'ERR_FETCH_CONNECT_TIMEOUT');
    breaker.failed('http://a:', 'ERR_FETCH_TLS');
    breaker.failed('http://a:', 'ERR_FETCH_HEADERS_TIMEOUT');
    breaker.failed('http://a:', 'ERR_FETCH_NETWORK');
    expect(breaker.isPaused('http://a:')).toBe(false);
    breaker.failed('http://a:', 'ERR_FETCH_REQUEST_TIMEOUT');
    expect(breaker.isPaused('http://a:')).toBe(true);
    expect(breaker.isPaused('http://b:')).toBe(false);
    breaker.notChecked('http://a:');
    expect(breaker.hosts()).toEqual([{ code: 'ERR_CRAWL_HOST_UNREACHABLE', origin: 'http://a:', errorCode: 'ERR_FETCH_REQUEST_TIMEOUT', failures: 3, urlsNotChecked: 1 }]);
  });

  it('keeps `retries` for the first URL: the limit is at least one URL\'s tries', () => {
    expect(HostBreaker.limitFor(2)).toBe(HOST_FAILURE_LIMIT);
    expect(HostBreaker.limitFor(0)).toBe(HOST_FAILURE_LIMIT);
    expect(HostBreaker.limitFor(5)).toBe(6);
  });
});

describe('what the user reads', () => {
  it('the audit reports every link to the paused host as unverified, the summary names the host', async () => {
    const { audit } = await import('../../src/report/index.js');
    const { formatSummary } = await import('../../src/cli/format-summary.js');
    const dead = `http://127.0.0.5:${await closedPort('127.0.0.5')}`;
    const links = Array.from({ length: 5 }, (_, i) => `${dead}/page-${i}`);
    const home = await site(links);
    const store = new MemoryStore();
    try {
      const summary = await crawl(`${home.origin}/`, { store, allowPrivate: true, sitemap: false, retryDelayMs: 0, retries: 2, robots: false });
      const broken = [];
      // A refused connection and a paused host prove nothing of the URL: not LINK_BROKEN.
      for await (const finding of audit(store.reader())) if (finding.code === 'LINK_UNVERIFIED') broken.push(finding);
      expect(broken.map((f) => [f.target, f.detail['errorCode']])).toEqual(
        links.map((link, i) => [link, i === 0 ? 'ERR_FETCH_CONNECTION_REFUSED' : 'ERR_CRAWL_HOST_UNREACHABLE']),
      );
      // Lines wrapped to the screen, read as one.
      expect(formatSummary(summary).join(' ').replace(/ +/g, ' ')).toContain(
        `unreachable ${dead} paused for the run, no answer to 3 requests in a row, ERR_FETCH_CONNECTION_REFUSED; 4 URLs of it not checked, ERR_CRAWL_HOST_UNREACHABLE`,
      );
    } finally {
      await store.close();
    }
  });
});
