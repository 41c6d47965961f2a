// Link floods: a page's links are recorded up to
// `maxLinksPerPage` and its new URLs queued up to `maxQueuedPerPage`; a cap that cuts
// is a finding on the page's fetch row. A big page is admitted in chunks, so the
// event loop stays responsive while it is.

import { describe, expect, it } from 'vitest';
import { runCrawler, type CrawlerOptions } from '../../src/crawl/index.js';
import { CRAWL_DEFAULTS } from '../../src/crawl/crawler-options.js';
import { SqliteStore } from '../../src/store/index.js';
import { FakeSite, type FakeResource } from './fake-site.js';
import { collect } from '../support/collect.js';

const S = 'http://site.test';

function links(count: number, prefix = '/p'): string {
  return Array.from({ length: count }, (_, i) => `<a href="${prefix}${i}">${i}</a>`).join('');
}

async function crawled(resources: Record<string, FakeResource>, options: Partial<CrawlerOptions> = {}) {
  const store = new SqliteStore({ path: ':memory:' });
  const fetcher = new FakeSite(Object.fromEntries(Object.entries(resources).map(([p, r]) => [S + p, r])));
  // Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
  const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, retryDelayMs: 0, sleep: async () => {}, sitemap: false, ...options } as CrawlerOptions);
  const reader = store.reader();
  const urls = await collect(reader.urls());
  const keys = new Map(urls.map((u) => [u.id, u.key]));
  const fetches = (await collect(reader.fetches())).map((f) => ({ url: keys.get(f.urlId), findings: f.findings }));
  const linkRows = (await collect(reader.links())).map((l) => ({ from: keys.get(l.fromUrlId), rawHref: l.rawHref }));
  store.close();
  return { summary, urls, fetches, links: linkRows, fetcher };
}

describe('link floods', () => {
  it('has sane defaults for both caps', () => {
    expect(CRAWL_DEFAULTS.maxLinksPerPage).toBe(50_000);
    expect(CRAWL_DEFAULTS.maxQueuedPerPage).toBe(10_000);
  });

  it('records at most maxLinksPerPage links of a page, in document order, with PAGE_LINKS_CAPPED', async () => {
    const { links: rows, fetches } = await crawled({ '/': { body: links(10) } }, { maxLinksPerPage: 4, maxPages: 1 });
    expect(rows.map((l) => l.rawHref)).toEqual(['/p0', '/p1', '/p2', '/p3']);
    expect(fetches[0]).toEqual({ url: `${S}/`, findings: ['PAGE_LINKS_CAPPED'] });
  });

  it('queues at most maxQueuedPerPage new URLs of a page; the others are recorded, not followed, with PAGE_QUEUE_CAPPED', async () => {
    const { urls, links: rows, fetches, fetcher } = await crawled(
      { '/': { body: `<a href="/">home</a>${links(6)}` }, ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/p${i}`, { body: 'leaf' }])) },
      { maxQueuedPerPage: 2 },
    );
    expect(rows).toHaveLength(7);
    expect(fetcher.calls).toEqual([`${S}/`, `${S}/p0`, `${S}/p1`]);
    expect(urls.filter((u) => u.state === 'skipped').map((u) => u.key)).toEqual([2, 3, 4, 5].map((i) => `${S}/p${i}`));
    expect(fetches.find((f) => f.url === `${S}/`)?.findings).toEqual(['PAGE_QUEUE_CAPPED']);
  });

  it('a URL left unqueued by the cap is queued when another page follows it', async () => {
    const { fetcher } = await crawled(
      {
        '/': { body: `<a href="/a">a</a>${links(3)}` },
        '/a': { body: '<a href="/p2">p2</a>' },
        '/p0': { body: 'leaf' },
        '/p1': { body: 'leaf' },
        '/p2': { body: 'leaf' },
      },
      { maxQueuedPerPage: 2 },
    );
    expect([...fetcher.calls].sort()).toEqual([`${S}/`, `${S}/a`, `${S}/p0`, `${S}/p2`].sort());
  });

  it('keeps the event loop responsive while a big page is admitted: many short turns, not one long one', async () => {
    const body = links(40_000);
    const store = new SqliteStore({ path: ':memory:' });
    const site = new FakeSite({ [`${S}/`]: { body } });
    // Counted from the request on: opening the index and building the page are not the crawl's.
    let turns = 0;
    let longest = 0;
    let last: number | undefined;
    let isCrawling = true;
    const turn = (): void => {
      if (!isCrawling) return;
      const now = performance.now();
      if (last !== undefined) {
        turns++;
        longest = Math.max(longest, now - last);
        last = now;
      }
      setImmediate(turn);
    };
    setImmediate(turn);
    const fetcher = {
      fetch: (...args: Parameters<FakeSite['fetch']>) => {
        last = performance.now();
        return site.fetch(...args);
      },
    };
    try {
      const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, maxPages: 1 });
      expect(summary.index.links).toBe(40_000);
    } finally {
      isCrawling = false;
      store.close();
    }
    // Unchunked, the page is read and its 40,000 links admitted in one turn of about a
    // second; in chunks of ~1,000 links, in dozens of turns of a few ms each (more on a loaded machine).
    expect(turns).toBeGreaterThan(40);
    expect(longest).toBeLessThan(1000);
  });
});
