// A slow host does not hold its slot for minutes a URL. A
// failure that a slow server caused (a request deadline, a too slow transfer, a
// body deadline) is tried again once at most, whatever `retries` says; the crawl's
// settings carry the deadline and the minimum rate to the HTTP clients it makes.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { CRAWL_DEFAULTS, crawlOptionsSchema, httpOptionsOf } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite } from './fake-site.js';

let server: Server;
let origin: string;
const log: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    log.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' });
    if (request.url === '/') {
      response.end('<a href="/slow">slow</a>');
      return;
    }
    // A byte every 50 ms, for ever.
    const timer = setInterval(() => response.write('x'), 50);
    response.once('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a trickling server', () => {
  it('is cut after one rate window and tried again once, not `retries` times: recorded ERR_FETCH_TOO_SLOW', async () => {
    log.length = 0;
    const store = new MemoryStore();
    const fetcher = createFetcher({ minBytesPerSecond: 1000, rateWindowMs: 200 });
    const started = Date.now();
    try {
      const summary = await crawl(`${origin}/`, { store, fetcher, robots: false, allowPrivate: true, retries: 5, retryDelayMs: 0 });
      expect(log.filter((path) => path === '/slow')).toHaveLength(2);
      expect(summary).toMatchObject({ pagesFetched: 1, pagesFailed: 1, errorsByCode: { ERR_FETCH_TOO_SLOW: 1 } });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await fetcher.close();
      await store.close();
    }
  });
});

// Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
describe('retries of a slow failure', () => {
  it.each(['ERR_FETCH_REQUEST_TIMEOUT', 'ERR_FETCH_TOO_SLOW', 'ERR_FETCH_BODY_TIMEOUT', 'ERR_FETCH_HEADERS_TIMEOUT', 'ERR_FETCH_CONNECT_TIMEOUT'])('%s: one retry at most', async (code) => {
    const site = new FakeSite({ 'http://example.com/': { errorCode: code } });
    await crawl('http://example.com/', { store: new MemoryStore(), fetcher: site, robots: false, sitemap: false, retries: 3, retryDelayMs: 0 });
    expect(site.calls).toHaveLength(2);
  });

  it('other transient failures keep `retries`', async () => {
    const site = new FakeSite({ 'http://example.com/': { errorCode: 'ERR_FETCH_NETWORK' } });
    await crawl('http://example.com/', { store: new MemoryStore(), fetcher: site, robots: false, sitemap: false, retries: 3, retryDelayMs: 0 });
    expect(site.calls).toHaveLength(4);
  });

  it('retries: 0 does not retry a slow failure either', async () => {
    const site = new FakeSite({ 'http://example.com/': { errorCode: 'ERR_FETCH_TOO_SLOW' } });
    await crawl('http://example.com/', { store: new MemoryStore(), fetcher: site, robots: false, sitemap: false, retries: 0 });
    expect(site.calls).toHaveLength(1);
  });
});

describe('the settings', () => {
  it('requestTimeoutMs and minBytesPerSecond: defaults, ranges, and on to the HTTP clients', () => {
    expect(CRAWL_DEFAULTS).toMatchObject({ requestTimeoutMs: 60_000, minBytesPerSecond: 1024 });
    expect(crawlOptionsSchema.safeParse({ requestTimeoutMs: 999 }).success).toBe(false);
    expect(crawlOptionsSchema.safeParse({ requestTimeoutMs: 3_600_001 }).success).toBe(false);
    expect(crawlOptionsSchema.safeParse({ minBytesPerSecond: 0 }).success).toBe(true);
    expect(httpOptionsOf({ ...CRAWL_DEFAULTS, requestTimeoutMs: 5000, minBytesPerSecond: 10 })).toEqual({
      refusePrivate: true,
      requestTimeoutMs: 5000,
      minBytesPerSecond: 10,
      proxy: undefined,
      ca: undefined,
      insecure: false,
      http2: true,
    });
    expect(httpOptionsOf({ ...CRAWL_DEFAULTS, http2: false }).http2).toBe(false);
  });
});
