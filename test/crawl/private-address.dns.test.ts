// A host NAME that resolves to loopback is crawled only with
// `allowPrivate`, as a seed and as a redirect target. The crawl's HTTP clients get
// their options from its settings (httpOptionsOf); names resolve through a hosts
// table the test injects, never real DNS.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { CRAWL_DEFAULTS, httpOptionsOf } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { MemoryStore } from '../../src/store/index.js';

const toLoopback: LookupFunction = (_host, options, callback) => {
  if (options.all === true) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

let server: Server;
let port: number;
const log: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    log.push(`${request.headers.host} ${request.url}`);
    if (request.url === '/hop') response.writeHead(301, { location: `http://internal.test:${port}/target` }).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Crawl `seed` with an HTTP fetcher set from `allowPrivate` as crawl() sets its own. */
async function crawlWith(seed: string, allowPrivate: boolean) {
  log.length = 0;
  const store = new MemoryStore();
  // public.test stands for a public host (trusted: its own address is not judged).
  const fetcher = createFetcher({ ...httpOptionsOf({ ...CRAWL_DEFAULTS, allowPrivate }), lookup: toLoopback, trustedHosts: ['public.test'] });
  try {
    // Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
    const summary = await crawl(seed, { store, fetcher, robots: false, allowPrivate, retries: 0, sitemap: false });
    const fetches = [];
    for await (const row of store.reader().fetches()) fetches.push(row);
    return { summary, fetches, states: (await store.stats()).urlsByState };
  } finally {
    await fetcher.close();
    await store.close();
  }
}

describe('a host name that resolves to 127.0.0.1', () => {
  it('as the seed: refused without allowPrivate (ERR_CRAWL_PRIVATE_ADDRESS, no request), crawled with it', async () => {
    const seed = `http://site.test:${port}/`;
    const refused = await crawlWith(seed, false);
    expect(refused.summary).toMatchObject({ pagesFetched: 0, pagesFailed: 1, errorsByCode: { ERR_CRAWL_PRIVATE_ADDRESS: 1 } });
    expect(refused.fetches).toMatchObject([{ status: undefined, errorCode: 'ERR_CRAWL_PRIVATE_ADDRESS' }]);
    expect(refused.states.failed).toBe(1);
    expect(log).toEqual([]);

    const allowed = await crawlWith(seed, true);
    expect(allowed.summary).toMatchObject({ pagesFetched: 1, pagesFailed: 0 });
    expect(log).toEqual([`site.test:${port} /`]);
  });

  it('as a redirect target: refused without allowPrivate, the hop recorded and its target not requested; followed with it', async () => {
    const seed = `http://public.test:${port}/hop`;
    const refused = await crawlWith(seed, false);
    expect(refused.summary).toMatchObject({ pagesFetched: 0, pagesFailed: 1, errorsByCode: { ERR_CRAWL_PRIVATE_ADDRESS: 1 } });
    expect(refused.fetches).toMatchObject([
      { errorCode: 'ERR_CRAWL_PRIVATE_ADDRESS', redirects: [{ to: `http://internal.test:${port}/target`, status: 301 }] },
    ]);
    expect(refused.states.failed).toBe(1);
    expect(log).toEqual([`public.test:${port} /hop`]);

    const allowed = await crawlWith(seed, true);
    expect(allowed.summary).toMatchObject({ pagesFetched: 1, pagesFailed: 0 });
    expect(log).toEqual([`public.test:${port} /hop`, `internal.test:${port} /target`]);
  });

  it('crawl() and the CLI make their clients refuse private addresses unless allowPrivate', () => {
    expect(httpOptionsOf({ ...CRAWL_DEFAULTS, allowPrivate: false })).toMatchObject({ refusePrivate: true });
    expect(httpOptionsOf({ ...CRAWL_DEFAULTS, allowPrivate: true })).toMatchObject({ refusePrivate: false });
  });
});
