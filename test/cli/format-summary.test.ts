// One meaning of "alias" in every report: a URL that stands for another (a redirect or
// Content-Location proved it). A page's rel=canonical is a claim, recorded and never
// obeyed: the summary's "merged", `stats`' "aliases", `explain` and the graph all say
// it made no alias, and count it apart. The site is what sphinx writes when built for
// reading from disk: each page names a file:/// URL as its canonical.

import { describe, expect, it } from 'vitest';
import { formatSummary, politenessLine } from '../../src/cli/format-summary.js';
import { runCrawler, explain } from '../../src/crawl/index.js';
import { collectStats, formatStats, readGraph } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';
import { FakeSite } from '../crawl/fake-site.js';

const S = 'http://docs.test';

describe('the summary, stats, explain and the graph agree on what an alias is', () => {
  it('rel=canonical to file:/// URLs: no URL merged, no alias, the claims counted apart; a redirect is the one alias', async () => {
    const canonical = (path: string): string => `<link rel="canonical" href="file:///build/html${path}">`;
    const fetcher = new FakeSite({
      [`${S}/`]: { body: `${canonical('/index.html')}<a href="/a.html">a</a><a href="/b.html">b</a><a href="/old.html">old</a><a href="/gone.html">gone</a>` },
      [`${S}/a.html`]: { body: `${canonical('/a.html')}<a href="/">home</a>` },
      [`${S}/b.html`]: { body: `${canonical('/b.html')}<a href="/">home</a>` },
      [`${S}/old.html`]: { redirect: '/a.html' },
      [`${S}/gone.html`]: { status: 404, body: 'gone' },
    });
    const store = new MemoryStore();
    const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, sitemap: false, checkExternal: false });
    expect(summary.aliasesLearned).toMatchObject({ redirect: 1, canonical: 3 });

    const lines = formatSummary(summary);
    expect(lines.join('\n')).toMatch(/^merged {6}1 URLs found to stand for another \(redirect 1, content-location 0\);/m);
    expect(lines).toContain('canonical   3 pages name another URL as canonical (rel=canonical): recorded,');

    const stats = formatStats(await collectStats(store.reader()));
    expect(stats).toContain('aliases         1  by evidence: redirect 1, content-location 0');
    expect(stats).toContain('canonical       3  pages name another URL as canonical (rel=canonical): recorded, not obeyed, no alias');

    const page = await explain(store, `${S}/a.html`);
    expect(page.verdict).toBe('fetched');
    expect(page.reason).toBe('fetched once, by a request of its own (status 200); it names file:///build/html/a.html as canonical (rel=canonical): a claim, recorded and not obeyed, so it is no alias of that URL');
    expect((await explain(store, `${S}/old.html`)).verdict).toBe('merged');

    const nodes = await collect(readGraph(store.reader()).nodes());
    expect(nodes.filter((node) => node.state === 'alias').map((node) => node.key)).toEqual([`${S}/old.html`]);
    const byKey = new Map(nodes.map((node) => [node.key, node]));
    expect(byKey.get(`${S}/a.html`)).toMatchObject({ state: 'done', status: 200, role: 'page' });
    expect(byKey.get(`${S}/gone.html`)).toMatchObject({ status: 404, role: 'page' });
  });
});

describe('the politeness line', () => {
  const host = { host: 'a.test', pauses: 0, longestPauseMs: 0, tooManyRequests: 0, slowestDelayMs: 0, delayMs: 0 };

  it('says what the pauses and the 429s did, and where the rate is now', () => {
    expect(politenessLine({ ...host, pauses: 2, longestPauseMs: 5000, tooManyRequests: 3, slowestDelayMs: 4000, delayMs: 500 * 3 })).toBe(
      'a.test paused 2× by Retry-After (longest 5 s); 3 × 429: rate lowered to 1 request / 4 s (now 1 / 1.5 s)',
    );
    expect(politenessLine({ ...host, tooManyRequests: 1, slowestDelayMs: 1000 })).toBe('a.test 1 × 429: rate lowered to 1 request / 1 s (now back to the configured rate)');
    expect(politenessLine({ ...host, pauses: 1, longestPauseMs: 2400 })).toBe('a.test paused 1× by Retry-After (longest 2.4 s)');
  });
});
