// What a crawl records for the audit (crawler #settle, pageLinks): the page's own
// findings, its anchors and the attempts on its fetch row; the findings and the
// other base mode's target on its link rows.

import { describe, expect, it } from 'vitest';
import { runCrawler, type CrawlerOptions } from '../../src/crawl/index.js';
import { SqliteStore } from '../../src/store/index.js';
import { FakeSite, type FakeResource } from './fake-site.js';
import { collect } from '../support/collect.js';

const S = 'http://site.test';

async function crawled(resources: Record<string, FakeResource>, options: Partial<CrawlerOptions> = {}) {
  const store = new SqliteStore({ path: ':memory:' });
  const fetcher = new FakeSite(Object.fromEntries(Object.entries(resources).map(([p, r]) => [S + p, r])));
  await runCrawler({ seeds: `${S}/`, store, fetcher, retryDelayMs: 0, sleep: async () => {}, ...options } as CrawlerOptions);
  const reader = store.reader();
  const urls = new Map((await collect(reader.urls())).map((u) => [u.id, u.key]));
  const fetches = (await collect(reader.fetches())).map((f) => ({ url: urls.get(f.urlId), status: f.status, attempts: f.attempts, findings: f.findings, anchors: [...f.anchors].sort() }));
  const links = (await collect(reader.links())).map((l) => ({ from: urls.get(l.fromUrlId), rawHref: l.rawHref, findings: l.findings, alternateTarget: l.alternateTarget }));
  store.close();
  return { fetches, links };
}

describe('what the crawl records for the audit', () => {
  it('fetch rows: page findings, anchors and attempts (retries included)', async () => {
    const { fetches } = await crawled({
      '/': { body: '<base href="/"><base href="/x/"><h1 id="top1">t</h1><a name="n" href="flaky">f</a>' },
      '/flaky': { errorCode: 'ERR_FETCH_NETWORK', failTimes: 1, body: '<p id="ok">ok</p>' },
    });
    expect(fetches).toEqual([
      { url: `${S}/`, status: 200, attempts: 1, findings: ['HTML_BASE_REPEATED', 'BASE_HREF_RELATIVE'], anchors: ['n', 'top1'] },
      { url: `${S}/flaky`, status: 200, attempts: 2, findings: [], anchors: ['ok'] },
    ]);
  });

  it('link rows: href and resolution findings, and the target under the other base mode', async () => {
    const { links } = await crawled({
      '/': { body: '<a href=" d/p.html">p</a>' },
      '/d/p.html': { headers: { 'Content-Location': '/e/p.html' }, body: '<a href="../../x">x</a><a href="%7Eu">u</a>' },
    });
    expect(links).toEqual([
      { from: `${S}/`, rawHref: ' d/p.html', findings: ['HREF_SURROUNDING_WHITESPACE'], alternateTarget: undefined },
      { from: `${S}/d/p.html`, rawHref: '../../x', findings: ['REF_ABOVE_ROOT'], alternateTarget: undefined },
      { from: `${S}/d/p.html`, rawHref: '%7Eu', findings: ['REF_FOLDED_SYNTAX'], alternateTarget: `${S}/d/%7Eu` },
    ]);
  });
});
