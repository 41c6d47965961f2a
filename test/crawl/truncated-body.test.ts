// A page whose body was cut short (reset mid-body, fewer bytes
// than Content-Length, a body deadline) is a failure with its own code: retried like
// other transient failures, recorded `failed` (not `done`/200) when it stays cut,
// counted in the summary, and reported by the audit (BODY_TRUNCATED).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';

let server: Server;
let origin: string;
const log: string[] = [];
/** How many times each path has been asked for. */
const asked = new Map<string, number>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    log.push(path);
    const n = (asked.get(path) ?? 0) + 1;
    asked.set(path, n);
    const cut = path === '/always-cut' || (path === '/cut-once' && n === 1);
    if (path === '/' || !cut) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(path === '/' ? '<a href="/always-cut">a</a> <a href="/cut-once">b</a>' : '<a href="/">home</a>');
      return;
    }
    // Content-Length promises more than comes; the connection is then reset.
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': '1000' });
    response.write('<a href="/never-seen">', () => setTimeout(() => response.socket?.destroy(), 10));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a truncated body', () => {
  it('is retried, recorded as failed with ERR_FETCH_BODY_TRUNCATED when it stays cut, counted, and reported by the audit', async () => {
    log.length = 0;
    asked.clear();
    const store = new MemoryStore();
    const fetcher = createFetcher();
    try {
      const summary = await crawl(`${origin}/`, { store, fetcher, robots: false, allowPrivate: true, retries: 2, retryDelayMs: 0 });
      // /always-cut: 1 + 2 retries; /cut-once: cut, then whole.
      expect(log.filter((path) => path === '/always-cut')).toHaveLength(3);
      expect(log.filter((path) => path === '/cut-once')).toHaveLength(2);
      expect(log).not.toContain('/never-seen');
      expect(summary).toMatchObject({ pagesFetched: 2, pagesFailed: 1, errorsByCode: { ERR_FETCH_BODY_TRUNCATED: 1 } });

      const reader = store.reader();
      const states = new Map<string, string>();
      for await (const url of reader.urls()) states.set(url.key, url.state);
      expect(states.get(`${origin}/always-cut`)).toBe('failed');
      expect(states.get(`${origin}/cut-once`)).toBe('done');
      expect(states.has(`${origin}/never-seen`)).toBe(false);

      const findings = [];
      for await (const finding of audit(reader)) findings.push(finding);
      expect(findings.filter((f) => f.code === 'BODY_TRUNCATED')).toEqual([
        expect.objectContaining({
          code: 'BODY_TRUNCATED',
          severity: 'error',
          page: `${origin}/always-cut`,
          detail: expect.objectContaining({ status: 200, errorCode: 'ERR_FETCH_BODY_TRUNCATED' }),
        }),
      ]);
    } finally {
      await fetcher.close();
      await store.close();
    }
  });
});
