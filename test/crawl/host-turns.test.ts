// Hosts take turns: one host with hundreds of queued URLs and a per-host delay does not
// keep seven small hosts waiting behind it. Eight servers on 127.0.0.2–9 log when each
// request arrives; the wide host's root links to 150 pages of its own, each small
// host's root to 4 (their roots answer later, so the wide host's links are queued
// first, ahead of theirs at the same depth).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';

const HOSTS = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);
const WIDE_PAGES = 150;
const SMALL_PAGES = 4;
const DELAY_MS = 10;

const servers: Server[] = [];
const origins: string[] = [];
/** Each request: its host's index and when it arrived. */
const log: { host: number; at: number }[] = [];

beforeAll(async () => {
  for (const [k, host] of HOSTS.entries()) {
    const server = createServer((request, response) => {
      log.push({ host: k, at: performance.now() });
      const pages = k === 0 ? WIDE_PAGES : SMALL_PAGES;
      const body = request.url === '/' ? Array.from({ length: pages }, (_, i) => `<a href="/p${i}.html">p${i}</a>`).join('\n') : 'a page';
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(body);
      }, request.url === '/' && k > 0 ? 50 : 0);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    servers.push(server);
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}/`);
  }
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe.each([
  ['SQLite', (): IndexWriter => new SqliteStore({ path: ':memory:' })],
  ['memory', (): IndexWriter => new MemoryStore()],
])('hosts in turn (%s)', (_name, open) => {
  it('seven small hosts are crawled early, not after the wide one', async () => {
    log.length = 0;
    const store = open();
    try {
      const summary = await crawl([...origins], { store, robots: false, sitemap: false, allowPrivate: true, concurrency: 4, perHostConcurrency: 1, perHostDelayMs: DELAY_MS });
      expect(summary.pagesFetched).toBe(8 + WIDE_PAGES + 7 * SMALL_PAGES);
      const wide = log.filter((r) => r.host === 0);
      const smallDone = Math.max(...log.filter((r) => r.host > 0).map((r) => r.at));
      // By the time the last small host's last page was asked, the wide host had had less than a third of its requests.
      const wideBefore = wide.filter((r) => r.at <= smallDone).length;
      expect(wideBefore).toBeLessThan(wide.length / 3);
    } finally {
      await store.close();
    }
  }, 60_000);
});
