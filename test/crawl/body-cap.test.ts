// A body longer than `maxBodyBytes` (`--max-body-bytes`) is read up to the cap and
// kept: the page gets PAGE_BODY_CAPPED, its links before the cut are followed, and
// a seed read so is fetched (the crawl does not end "no seed could be fetched").

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { CRAWL_DEFAULTS } from '../../src/crawl/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const CAP = 4096;
let server: Server;
let origin: string;
const log: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    log.push(path);
    const pages: Record<string, string> = {
      '/': `<a href="/before">before</a>${' '.repeat(2 * CAP)}<a href="/after">after</a>`,
      '/alone': `<a href="/missing">gone</a>${' '.repeat(2 * CAP)}`,
      '/before': 'small',
    };
    const body = pages[path];
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the body cap (maxBodyBytes)', () => {
  it('is 10 MiB by default', () => {
    expect(CRAWL_DEFAULTS.maxBodyBytes).toBe(10 * 1024 * 1024);
  });

  it('a page cut at the cap gets PAGE_BODY_CAPPED; its links before the cut are followed, none after', async () => {
    log.length = 0;
    const store = new MemoryStore();
    try {
      const summary = await crawl(`${origin}/`, { store, robots: false, sitemap: false, allowPrivate: true, maxBodyBytes: CAP });
      expect(log.sort()).toEqual(['/', '/before']);
      expect(summary.stoppedBy).toBe('frontier-empty');
      const reader = store.reader();
      const keys = new Map((await collect(reader.urls())).map((url) => [url.id, url.key]));
      const fetches = (await collect(reader.fetches())).map((f) => ({ url: keys.get(f.urlId), findings: f.findings, errorCode: f.errorCode }));
      expect(fetches.find((f) => f.url === `${origin}/`)).toEqual({ url: `${origin}/`, findings: ['PAGE_BODY_CAPPED'], errorCode: 'ERR_FETCH_BODY_TOO_LARGE' });
      expect([...keys.values()]).not.toContain(`${origin}/after`);
      const findings = (await collect(audit(reader))).filter((f) => f.code === 'PAGE_BODY_CAPPED');
      expect(findings).toEqual([expect.objectContaining({ code: 'PAGE_BODY_CAPPED', severity: 'warning', page: `${origin}/` })]);
    } finally {
      await store.close();
    }
  });

  it('a seed read in part is fetched: the crawl does not end as if no seed could be fetched', async () => {
    const store = new MemoryStore();
    try {
      const summary = await crawl(`${origin}/alone`, { store, robots: false, sitemap: false, allowPrivate: true, maxBodyBytes: CAP });
      expect(summary.stoppedBy).toBe('frontier-empty');
      expect(summary.seeds).toEqual([{ url: `${origin}/alone`, isFetched: true, reason: undefined }]);
    } finally {
      await store.close();
    }
  });
});
