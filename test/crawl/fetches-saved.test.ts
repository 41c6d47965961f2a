// "fetches saved" counts requests actually avoided: a URL joined to a known resource
// before it was requested — in the summary, `stats` and the report alike.

import { describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { collectStats } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite, page } from './fake-site.js';

const S = 'http://site.test';
const site = (resources: Record<string, object>): Record<string, object> =>
  Object.fromEntries(Object.entries(resources).map(([path, resource]) => [S + path, resource]));

async function crawlSite(resources: Record<string, object>) {
  const store = new MemoryStore();
  const fetcher = new FakeSite(site(resources));
  // Requests counted: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
  const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, sitemap: false });
  return { summary, stats: await collectStats(store.reader()), fetcher };
}

describe('fetches saved', () => {
  it('a site whose pages each answer as their own negotiated variant saves nothing, and has as many resources as pages', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const resources: Record<string, object> = {
      '/': { body: page(...names.map((name) => `/${name}`)), headers: { 'content-location': '/index.html.en' } },
    };
    for (const name of names) resources[`/${name}`] = { body: page('/', ...names.map((other) => `/${other}`)), headers: { 'content-location': `/${name}.en` } };
    const { summary, stats, fetcher } = await crawlSite(resources);
    expect(fetcher.calls).toHaveLength(6);
    expect(summary.fetchesSaved).toBe(0);
    expect(stats.fetchesSaved).toBe(0);
    // Five distinct resources behind the five link targets, not one.
    expect(stats.funnel.afterAliases).toBe(5);
  });

  it('out-of-scope links save nothing; a new spelling folded by the syntax rung saves its request', async () => {
    const { summary, stats, fetcher } = await crawlSite({
      '/': { body: page('/a', '/%61', 'http://elsewhere.test/x', 'http://elsewhere.test/y') },
      '/a': { body: page() },
    });
    // The two external links are checked (HEAD, and GET on HEAD's 404), which saves nothing either.
    expect(fetcher.methods).toEqual([`GET ${S}/`, `GET ${S}/a`, 'HEAD http://elsewhere.test/x', 'GET http://elsewhere.test/x', 'HEAD http://elsewhere.test/y', 'GET http://elsewhere.test/y']);
    expect(summary.fetchesSaved).toBe(1);
    expect(stats.fetchesSaved).toBe(1);
  });

  it('a queued URL whose representation came with another response before its turn is a request saved', async () => {
    // /old redirects to /new, which / also links to: /new is never requested on its own.
    const { summary, stats, fetcher } = await crawlSite({
      '/': { body: page('/old', '/new') },
      '/old': { redirect: '/new' },
      '/new': { body: page() },
    });
    expect(fetcher.requests.map((url) => url.slice(S.length))).toEqual(['/', '/old', '/new']);
    expect(summary.fetchesSaved).toBe(1);
    expect(stats.fetchesSaved).toBe(1);
  });
});
