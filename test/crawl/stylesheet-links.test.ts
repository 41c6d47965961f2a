// src/crawl/stylesheet-links.ts and its admission: what a stylesheet brings is held by
// the caps of the page that uses it. Its references take that page's links' depth
// (they are the page's resources), they and the page's own new URLs share one
// `maxQueuedPerPage`, and a chain of @import is followed MAX_IMPORT_NESTING levels deep.

import { describe, expect, it } from 'vitest';
import { runCrawler, type CrawlerOptions } from '../../src/crawl/index.js';
import { MAX_IMPORT_NESTING } from '../../src/crawl/stylesheet-links.js';
import { MemoryStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';
import { FakeSite, type FakeResource } from './fake-site.js';

const S = 'http://site.test';
const css = (body: string): FakeResource => ({ body, contentType: 'text/css' });
const png: FakeResource = { body: 'x', contentType: 'image/png' };

async function crawled(resources: Record<string, FakeResource>, options: Partial<CrawlerOptions> = {}) {
  const store = new MemoryStore();
  const fetcher = new FakeSite(Object.fromEntries(Object.entries(resources).map(([p, r]) => [S + p, r])));
  const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, retryDelayMs: 0, sleep: async () => {}, sitemap: false, ...options } as CrawlerOptions);
  const reader = store.reader();
  const urls = await collect(reader.urls());
  const byKey = new Map(urls.map((u) => [u.key.slice(S.length), u]));
  const keys = new Map(urls.map((u) => [u.id, u.key.slice(S.length)]));
  const findings = new Map((await collect(reader.fetches())).map((f) => [keys.get(f.urlId), f.findings]));
  await store.close();
  return { summary, urls: byKey, findings, calls: fetcher.calls.map((call) => call.slice(S.length)) };
}

describe('what a stylesheet brings', () => {
  it('its references take the depth of the page that uses it, @import or url(), however deep the chain', async () => {
    const { urls } = await crawled(
      {
        '/': { body: '<link rel=stylesheet href="/a.css"><img src="/i.png">' },
        '/a.css': css('@import "b.css"; x { background: url(a.png) }'),
        '/b.css': css('@import url(c.css); x { background: url(b.png) }'),
        '/c.css': css('x { background: url(c.png) }'),
        '/i.png': png,
        '/a.png': png,
        '/b.png': png,
        '/c.png': png,
      },
      { maxDepth: 0 },
    );
    for (const path of ['/i.png', '/a.css', '/a.png', '/b.css', '/b.png', '/c.css', '/c.png']) {
      expect(urls.get(path), path).toMatchObject({ depth: 1, state: 'done', role: 'resource' });
    }
  });

  it('the page and the stylesheets it uses share maxQueuedPerPage; a stylesheet cut by it gets PAGE_QUEUE_CAPPED', async () => {
    const sheets = Object.fromEntries([0, 1, 2].map((s) => [`/s${s}.css`, css([0, 1, 2, 3, 4].map((i) => `.x${i} { background: url(/s${s}-${i}.png) }`).join('\n'))]));
    const images = Object.fromEntries([0, 1, 2].flatMap((s) => [0, 1, 2, 3, 4].map((i) => [`/s${s}-${i}.png`, png])));
    const { calls, urls, findings } = await crawled(
      {
        '/': { body: '<img src="/i.png"><link rel=stylesheet href="/s0.css"><link rel=stylesheet href="/s1.css"><link rel=stylesheet href="/s2.css">' },
        '/i.png': png,
        ...sheets,
        ...images,
      },
      { maxQueuedPerPage: 6 },
    );
    // The page queues 4 (its image, 3 stylesheets); its stylesheets 2 more between them.
    expect(calls.filter((path) => /^\/s\d-\d\.png$/.test(path))).toHaveLength(2);
    expect([...urls.values()].filter((u) => u.state === 'skipped')).toHaveLength(13);
    for (const sheet of ['/s0.css', '/s1.css', '/s2.css']) expect(findings.get(sheet), sheet).toEqual(['PAGE_QUEUE_CAPPED']);
  });

  it(`a chain of @import is followed ${MAX_IMPORT_NESTING} levels deep; the last sheet's @import is recorded, with CSS_IMPORTS_CAPPED`, async () => {
    const chain = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/c${i}.css`, css(`@import "c${i + 1}.css"; x { background: url(i${i}.png) }`)]));
    const { calls, urls, findings } = await crawled({ '/': { body: '<link rel=stylesheet href="/c0.css">' }, ...chain }, { maxDepth: 3 });
    const fetched = calls.filter((path) => path.endsWith('.css'));
    expect(fetched).toHaveLength(MAX_IMPORT_NESTING + 1);
    const last = `/c${MAX_IMPORT_NESTING}.css`;
    expect(findings.get(last)).toEqual(['CSS_IMPORTS_CAPPED']);
    expect(urls.get(`/c${MAX_IMPORT_NESTING + 1}.css`)).toMatchObject({ state: 'skipped', depth: 1 });
    // Its url() references are still checked: they are what the page shows.
    expect(calls).toContain(`/i${MAX_IMPORT_NESTING}.png`);
    expect(Math.max(...[...urls.values()].map((u) => u.depth))).toBe(1);
  });
});
