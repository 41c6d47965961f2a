// What the crawl follows and what it only records; resume; retries; fatal errors.

import { describe, expect, it } from 'vitest';
import { runCrawler, CrawlError, type CrawlEvent, type CrawlerOptions, type ErrorEvent } from '../../src/crawl/index.js';
import { OptionError, StoreError } from '../../src/errors.js';
import { MemoryStore, SqliteStore, type FetchRecord, type IndexWriter } from '../../src/store/index.js';
import { FakeSite, fakeRobots, page, type FakeResource } from './fake-site.js';

const S = 'http://site.test';

function site(resources: Record<string, FakeResource>, origin = S): Record<string, FakeResource> {
  return Object.fromEntries(Object.entries(resources).map(([path, resource]) => [path.startsWith('/') ? origin + path : path, resource]));
}

async function run(
  resources: Record<string, FakeResource>,
  options: Partial<CrawlerOptions> = {},
  store: IndexWriter = new MemoryStore(),
  fetcher = new FakeSite(site(resources)),
) {
  const events: CrawlEvent[] = [];
  const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, onEvent: (e) => events.push(e), ...NO_SITEMAP, ...options } as CrawlerOptions);
  return { fetcher, events, summary, store };
}

// Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
const NO_SITEMAP = { sitemap: false } as const;

const paths = (fetcher: FakeSite): string[] => fetcher.calls.map((c) => (c.startsWith(`${S}/`) ? c.slice(S.length) : c));

describe('scope', () => {
  const resources = {
    '/': { body: page('/in', 'http://other.test/x', 'https://site.test/secure', 'http://site.test:8080/port', 'mailto:a@b.test', 'http://docs.site.test/') },
    '/in': { body: page() },
    'http://other.test/x': { body: page() },
    'https://site.test/secure': { body: page() },
    'http://site.test:8080/port': { body: page() },
    'http://docs.site.test/': { body: page() },
  };

  // What the crawl reads as pages; links out of scope are checked (HEAD), never read
  // (test/crawl/check-links.test.ts): off here, so that the calls are the crawl's pages.
  const crawlOnly = { checkExternal: false } as const;

  it('origin (default): other origins are recorded as skipped, not fetched', async () => {
    const { fetcher, store } = await run(resources, crawlOnly);
    expect(paths(fetcher)).toEqual(['/', '/in']);
    for (const url of ['http://other.test/x', 'https://site.test/secure', 'http://site.test:8080/port', 'mailto:a@b.test']) {
      expect((await store.findUrl(url))?.state, url).toBe('skipped');
    }
  });

  it('origin (default), external links checked: other origins are requested once with HEAD, never read; mailto: is recorded', async () => {
    const { fetcher, store } = await run(resources);
    expect([...fetcher.methods].sort()).toEqual(
      [`GET ${S}/`, `GET ${S}/in`, 'HEAD http://other.test/x', 'HEAD https://site.test/secure', 'HEAD http://site.test:8080/port', 'HEAD http://docs.site.test/'].sort(),
    );
    for (const url of ['http://other.test/x', 'https://site.test/secure', 'http://site.test:8080/port']) {
      expect(await store.findUrl(url), url).toMatchObject({ state: 'done', role: 'external' });
    }
    expect(await store.findUrl('mailto:a@b.test')).toMatchObject({ state: 'skipped', role: 'external' });
  });

  it('host: any scheme and port of the seed host', async () => {
    const { fetcher } = await run(resources, { scope: 'host', ...crawlOnly });
    expect(paths(fetcher).sort()).toEqual(['/', '/in', 'http://site.test:8080/port', 'https://site.test/secure'].sort());
  });

  it('domain: subdomains too', async () => {
    const { fetcher } = await run(resources, { scope: 'domain', ...crawlOnly });
    expect(paths(fetcher)).toContain('http://docs.site.test/');
    expect(paths(fetcher)).not.toContain('http://other.test/x');
  });

  it('prefix: under the seed directory only', async () => {
    const { fetcher } = await run(
      { '/docs/index.html': { body: page('a.html', '../up.html', '/docs2/x') }, '/docs/a.html': { body: page() } },
      { seeds: `${S}/docs/index.html`, scope: 'prefix', ...crawlOnly },
    );
    expect(paths(fetcher)).toEqual(['/docs/index.html', '/docs/a.html']);
  });

  it('include and exclude patterns, tested against the key', async () => {
    const { fetcher, store } = await run(
      { '/': { body: page('/a/1', '/a/2', '/b/1', '/A/3') }, '/a/1': { body: page() }, '/a/2': { body: page() }, '/b/1': { body: page() } },
      { include: [/^http:\/\/site\.test\/(a\/.*)?$/g], exclude: [/\/2$/] },
    );
    expect(paths(fetcher)).toEqual(['/', '/a/1']);
    expect((await store.findUrl(`${S}/a/2`))?.state).toBe('skipped');
    expect((await store.findUrl(`${S}/b/1`))?.state).toBe('skipped');
  });

  it('a link not followed becomes followed when a followed link names it', async () => {
    const { fetcher, store } = await run(
      {
        '/': { body: '<img src="/pic"><link rel=stylesheet href="/s.css"><a href="/page">p</a>' },
        '/page': { body: '<a href="/pic">the picture</a>' },
        '/pic': { contentType: 'image/png' },
      },
      { checkResources: false },
    );
    expect(paths(fetcher)).toEqual(['/', '/page', '/pic']);
    expect((await store.findUrl(`${S}/s.css`))?.state).toBe('skipped');
  });

  it('img, script and stylesheets are recorded, not followed (checkResources off)', async () => {
    const { fetcher, store, summary } = await run(
      { '/': { body: '<img src="/pic.png" srcset="/pic2.png 2x"><script src="/app.js"></script><link rel=stylesheet href="/s.css">' } },
      { checkResources: false },
    );
    expect(paths(fetcher)).toEqual(['/']);
    expect(summary.links).toBe(4);
    for (const path of ['/pic.png', '/pic2.png', '/app.js', '/s.css']) expect((await store.findUrl(S + path))?.state).toBe('skipped');
  });
});

describe('depth and page limits', () => {
  const chain = {
    '/': { body: page('/1') },
    '/1': { body: page('/2') },
    '/2': { body: page('/3') },
    '/3': { body: page() },
  };

  it('maxDepth: links deeper than it are recorded, not followed', async () => {
    const { fetcher, store } = await run(chain, { maxDepth: 1 });
    expect(paths(fetcher)).toEqual(['/', '/1']);
    expect(await store.findUrl(`${S}/2`)).toMatchObject({ state: 'skipped', depth: 2 });
  });

  it('maxDepth 0 fetches the seeds only', async () => {
    const { fetcher } = await run(chain, { maxDepth: 0 });
    expect(paths(fetcher)).toEqual(['/']);
  });

  it('maxPages: stops after that many URLs, leaving the rest queued (none claimed)', async () => {
    const many = { '/': { body: page('/a', '/b', '/c', '/d', '/e') } };
    const { fetcher, summary, store } = await run(many, { maxPages: 3 });
    expect(paths(fetcher)).toEqual(['/', '/a', '/b']);
    expect(summary.stoppedBy).toBe('max-pages');
    expect((await store.stats()).urlsByState).toMatchObject({ queued: 3, fetching: 0 });
  });
});

describe('robots.txt', () => {
  it('a disallowed URL is not fetched: a failed fetch row with ERR_CRAWL_ROBOTS_DISALLOWED', async () => {
    const robots = fakeRobots((url) => !url.includes('/private/'));
    const { fetcher, store, summary, events } = await run(
      { '/': { body: page('/private/x', '/public') }, '/public': { body: page() }, '/private/x': { body: page() } },
      { robots },
    );
    expect(paths(fetcher)).toEqual(['/', '/public']);
    expect(robots.asked).toContain(`${S}/private/x`);
    expect((await store.findUrl(`${S}/private/x`))?.state).toBe('failed');
    expect(summary.errorsByCode).toEqual({ ERR_CRAWL_ROBOTS_DISALLOWED: 1 });
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'ERR_CRAWL_ROBOTS_DISALLOWED', outcome: 'permanent' });
  });

  it('a disallowed URL does not count against maxPages', async () => {
    const robots = fakeRobots((url) => !url.endsWith('/no'));
    const { fetcher } = await run({ '/': { body: page('/no', '/yes') }, '/yes': { body: page() } }, { robots, maxPages: 2 });
    expect(paths(fetcher)).toEqual(['/', '/yes']);
  });
});

describe('private addresses (RFC 3986 §7.4)', () => {
  const rare = ['http://0x7f.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://[::1]/', 'http://localhost/', 'http://127.1/'];

  it('a seed naming one is refused unless allowPrivate', async () => {
    for (const seed of rare) {
      await expect(runCrawler({ seeds: seed, store: new MemoryStore(), fetcher: new FakeSite({}) })).rejects.toThrow(OptionError);
    }
  });

  it.each(rare)('allowPrivate: true crawls %s and its links', async (seed) => {
    const fetcher = new FakeSite({ [seed]: { body: page('/next') }, [`${seed}next`]: { body: page() } });
    const summary = await runCrawler({ seeds: seed, store: new MemoryStore(), fetcher, allowPrivate: true });
    expect(summary.pagesFetched).toBe(2);
  });

  it('links to them are recorded, not followed, even in scope', async () => {
    const fetcher = new FakeSite({
      'http://site.test/': { body: page(...rare, 'http://[fe80::1]/', 'http://[fd00::1]/', 'http://10.1.2.3/', 'http://[::ffff:127.0.0.1]/') },
    });
    const store = new MemoryStore();
    const summary = await runCrawler({ seeds: 'http://site.test/', store, fetcher, scope: 'domain', include: [/./], ...NO_SITEMAP });
    expect(fetcher.calls).toEqual(['http://site.test/']);
    expect(summary.queued).toBe(1);
  });

  it('a redirect into one is discarded: ERR_CRAWL_PRIVATE_ADDRESS', async () => {
    const { store, summary } = await run({
      '/': { body: page('/go') },
      '/go': { status: 302, redirect: 'http://0x7f.1/admin' },
      'http://0x7f.1/admin': { body: page('/secret') },
    });
    expect((await store.findUrl(`${S}/go`))?.state).toBe('failed');
    expect(await store.findUrl('http://0x7f.1/admin')).toBeUndefined();
    expect(summary.errorsByCode).toEqual({ ERR_CRAWL_PRIVATE_ADDRESS: 1 });
  });
});

describe.each([
  ['MemoryStore', () => new MemoryStore()],
  ['SqliteStore', () => new SqliteStore({ path: ':memory:' })],
] as const)('resume (%s)', (_name, open) => {
  const resources = {
    '/': { body: page('/a', '/b', '/c') },
    '/a': { body: page('/a1', '/a2', '/') },
    '/b': { body: page('/b1', '/a') },
    '/c': { redirect: '/c/' },
    '/c/': { body: page('/c1', '../c') },
    '/a1': { body: page() },
    '/a2': { body: page() },
    '/b1': { body: page('/c/') },
    '/c1': { body: page() },
  };

  it('a second crawl on the same index continues where the first stopped: nothing twice, everything reached', async () => {
    const store = open();
    const fetcher = new FakeSite(site(resources));
    const first = await runCrawler({ seeds: `${S}/`, store, fetcher, maxPages: 3, ...NO_SITEMAP });
    expect(first.stoppedBy).toBe('max-pages');
    expect(fetcher.calls).toHaveLength(3);
    const second = await runCrawler({ seeds: `${S}/`, store, fetcher, ...NO_SITEMAP });
    expect(second.stoppedBy).toBe('frontier-empty');
    const counts = fetcher.callCounts();
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.keys()].sort()).toEqual(['/', '/a', '/a1', '/a2', '/b', '/b1', '/c', '/c1'].map((p) => S + p).sort());
    expect((await store.stats()).urlsByState).toMatchObject({ queued: 0, fetching: 0 });
    // A third crawl has nothing to do.
    const third = await runCrawler({ seeds: `${S}/`, store, fetcher, ...NO_SITEMAP });
    expect(third.requests).toBe(0);
  });

  it('a crawl stopped by its signal puts claimed URLs back: the next one fetches nothing twice', async () => {
    const store = open();
    const fetcher = new FakeSite(site(resources), { latencyMs: 5 });
    const controller = new AbortController();
    const first = await runCrawler({
      seeds: `${S}/`,
      store,
      fetcher,
      ...NO_SITEMAP,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'page' && e.url === `${S}/a`) controller.abort();
      },
    });
    expect(first.stoppedBy).toBe('signal');
    expect((await store.stats()).urlsByState.fetching).toBe(0);
    await runCrawler({ seeds: `${S}/`, store, fetcher, ...NO_SITEMAP });
    const counts = fetcher.callCounts();
    expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(counts.size).toBe(8);
  });
});

describe('stopping on the signal', () => {
  it('lets a request in flight finish and records it: it is not requested again on resume', async () => {
    const store = new MemoryStore();
    const fetcher = new FakeSite(site({ '/slow': { body: page('/later'), latencyMs: 200 }, '/fast': { body: page() }, '/later': { body: page() } }));
    const controller = new AbortController();
    const first = await runCrawler({
      seeds: [`${S}/slow`, `${S}/fast`],
      store,
      fetcher,
      concurrency: 2,
      perHostConcurrency: 2,
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'page' && e.url === `${S}/fast`) controller.abort();
      },
    });
    expect(first.stoppedBy).toBe('signal');
    expect((await store.findUrl(`${S}/slow`))?.state).toBe('done');
    expect((await store.findUrl(`${S}/later`))?.state).toBe('queued');
    expect((await store.stats()).urlsByState.fetching).toBe(0);
    await runCrawler({ seeds: `${S}/slow`, store, fetcher });
    expect([...fetcher.callCounts().entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(fetcher.callCounts().get(`${S}/later`)).toBe(1);
  });
});

describe('retries and the outcome table', () => {
  it('a transient error is retried with backoff within the claim, then recorded', async () => {
    const { fetcher, store, events, summary } = await run(
      { '/': { body: page('/flaky', '/down') }, '/flaky': { errorCode: 'ERR_FETCH_NETWORK', failTimes: 2, body: page() }, '/down': { errorCode: 'HTTP_503' } },
      { retries: 2, retryDelayMs: 5 },
    );
    // One host: a retry goes to the front of its line, and the host waits out the backoff.
    expect(paths(fetcher)).toEqual(['/', '/flaky', '/flaky', '/flaky', '/down', '/down', '/down']);
    expect((await store.findUrl(`${S}/flaky`))?.state).toBe('done');
    // 503 every time: recorded as the last response was.
    expect((await store.findUrl(`${S}/down`))?.state).toBe('done');
    const retries = events.filter((e): e is ErrorEvent => e.type === 'error');
    expect(retries.map((e) => [e.code, e.attempt])).toEqual([
      ['ERR_FETCH_NETWORK', 1],
      ['ERR_FETCH_NETWORK', 2],
      ['HTTP_503', 1],
      ['HTTP_503', 2],
    ]);
    expect(retries.every((e) => e.retryInMs !== undefined && e.outcome === 'retry')).toBe(true);
    expect(summary.requests).toBe(7);
    expect(summary.pagesFetched).toBe(3);
  });

  it('a permanent error is recorded at once and the crawl goes on', async () => {
    const { fetcher, store, summary } = await run(
      { '/': { body: page('/tls', '/ok') }, '/tls': { errorCode: 'ERR_FETCH_TLS' }, '/ok': { body: page() } },
      { retries: 3, retryDelayMs: 1 },
    );
    expect(paths(fetcher)).toEqual(['/', '/tls', '/ok']);
    expect((await store.findUrl(`${S}/tls`))?.state).toBe('failed');
    expect(summary.errorsByCode).toEqual({ ERR_FETCH_TLS: 1 });
    expect(summary.pagesFailed).toBe(1);
  });

  it('a redirect loop is recorded as failed; its hops are not aliases', async () => {
    const { store, summary } = await run({ '/': { body: page('/l1') }, '/l1': { redirect: '/l2' }, '/l2': { redirect: '/l1' } });
    expect((await store.findUrl(`${S}/l1`))?.state).toBe('failed');
    expect(summary.errorsByCode).toEqual({ ERR_FETCH_REDIRECT_LOOP: 1 });
    expect(summary.aliasesLearned.redirect).toBe(0);
  });

  it('a fetcher that throws breaks its contract: ERR_CRAWL_FETCHER_THREW, and the crawl goes on', async () => {
    const inner = new FakeSite(site({ '/': { body: page('/boom', '/ok') }, '/ok': { body: page() } }));
    const fetcher = {
      fetch: (url: string, signal?: AbortSignal) => (url.endsWith('/boom') ? Promise.reject(new Error('boom')) : inner.fetch(url, signal)),
    };
    const { store, summary } = await run({}, {}, new MemoryStore(), fetcher as unknown as FakeSite);
    expect((await store.findUrl(`${S}/boom`))?.state).toBe('failed');
    expect((await store.findUrl(`${S}/ok`))?.state).toBe('done');
    expect(summary.errorsByCode).toEqual({ ERR_CRAWL_FETCHER_THREW: 1 });
  });
});

describe('fatal errors', () => {
  it('the index failing stops the crawl: ERR_CRAWL_STOPPED with the cause and a summary', async () => {
    const store = new MemoryStore();
    let fetches = 0;
    // The second fetch row the crawl records, inside its unit of work, fails.
    const failingTx = (tx: IndexWriter): IndexWriter =>
      new Proxy(tx, {
        get(target, property) {
          if (property === 'recordFetch') {
            return (record: FetchRecord) => {
              if (++fetches === 2) return Promise.reject(new StoreError('ERR_STORE_OPEN', 'disk gone'));
              return target.recordFetch(record);
            };
          }
          return Reflect.get(target, property) as unknown;
        },
      });
    const broken = new Proxy(store, {
      get(target, property) {
        if (property === 'transact') {
          return (work: (tx: IndexWriter) => Promise<unknown>) => target.transact((tx) => work(failingTx(tx)));
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const fetcher = new FakeSite(site({ '/': { body: page('/a', '/b') }, '/a': { body: page() }, '/b': { body: page() } }));
    const error = await runCrawler({ seeds: `${S}/`, store: broken, fetcher }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlError);
    expect(error).toMatchObject({ code: 'ERR_CRAWL_STOPPED', name: 'CrawlError', cause: { code: 'ERR_STORE_OPEN' } });
    expect((error as CrawlError).summary?.stoppedBy).toBe('fatal');
    expect(fetcher.calls.length).toBeLessThanOrEqual(3);
  });

  it('an onEvent callback that throws stops the crawl', async () => {
    const fetcher = new FakeSite(site({ '/': { body: page('/a') }, '/a': { body: page() } }));
    const error = await runCrawler({
      seeds: `${S}/`,
      store: new MemoryStore(),
      fetcher,
      ...NO_SITEMAP,
      onEvent: (e) => {
        if (e.type === 'page') throw new Error('renderer bug');
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CRAWL_STOPPED', cause: { message: 'renderer bug' } });
    expect(fetcher.calls).toEqual([`${S}/`]);
  });
});

describe('events and summary', () => {
  it('page, progress and a summary with per-rung counts', async () => {
    const { events, summary } = await run({
      '/': { body: page('/a', '/A', '/%61', 'http://SITE.test:80/a') },
      '/a': { body: page() },
    });
    const pageEvents = events.filter((e) => e.type === 'page');
    expect(pageEvents.map((e) => e.type === 'page' && [e.url, e.status, e.links, e.queued])).toEqual([
      [`${S}/`, 200, 4, 2],
      [`${S}/a`, 200, 0, 0],
      [`${S}/A`, 404, 0, 0], // a path is case-sensitive: another resource
    ]);
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ fetched: 3, failed: 0, queued: 0, inFlight: 0 });
    expect(summary.linksByRung).toEqual({ new: 2, string: 0, syntax: 1, scheme: 1, protocol: 0 });
    expect(summary.index.linksByRung).toEqual(summary.linksByRung);
    expect(summary.queued).toBe(3); // the seed and /a, /A
  });
});
