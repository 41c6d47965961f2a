// Broken links and redirects in the crawl's summary, and one meaning of "error" for
// the summary and `stats`.

import { describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { collectStats } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite, fakeRobots, page } from './fake-site.js';

const S = 'http://site.test';

describe('broken links and redirects', () => {
  it('counts 4xx, 5xx and failures apart, redirects too, and calls the same URLs errors as stats does', async () => {
    const store = new MemoryStore();
    const fetcher = new FakeSite(
      Object.fromEntries(
        Object.entries({
          '/': { body: page('/gone', '/broken', '/down', '/moved', '/private/x', '/loop') },
          '/broken': { errorCode: 'HTTP_500' },
          '/down': { errorCode: 'ERR_FETCH_NETWORK' },
          '/moved': { redirect: '/new' },
          '/new': { body: page() },
          '/loop': { redirect: '/loop2' },
          '/loop2': { redirect: '/loop' },
        }).map(([path, resource]) => [S + path, resource]),
      ),
    );
    const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, retries: 0, robots: fakeRobots((url) => !url.includes('/private/')) });
    // /gone is a 404 (the fake answers 404 for what it does not hold), /loop's redirects lead
    // nowhere: broken. The 500 and the network failure are unverified, so not broken links:
    // the `broken` line counts what the verdicts call broken, by kind.
    expect(summary.broken).toEqual({ 'client-error': 1, 'server-error': 0, failed: 1 });
    expect(summary.verdicts.broken).toBe(2);
    expect(summary.errorsByCode).toMatchObject({ HTTP_404: 1, HTTP_500: 1, ERR_FETCH_NETWORK: 1, ERR_FETCH_REDIRECT_LOOP: 1 });
    // /moved is redirected; /loop is a failure (its redirects lead nowhere), not a redirect.
    expect(summary.redirected).toBe(1);
    const stats = await collectStats(store.reader());
    expect(summary.errorsByCode).toEqual(stats.errorsByCode);
    expect(stats.broken).toEqual(summary.broken);
    expect(stats.verdicts).toEqual(summary.verdicts);
  });

  it('a status policy that calls 5xx broken counts the 500 with the broken links, as 5xx', async () => {
    const store = new MemoryStore();
    const fetcher = new FakeSite({ [`${S}/`]: { body: page('/broken', '/gone') }, [`${S}/broken`]: { errorCode: 'HTTP_500' } });
    const summary = await runCrawler({ seeds: `${S}/`, store, fetcher, retries: 0, statusPolicy: '5xx=broken' });
    expect(summary.broken).toEqual({ 'client-error': 1, 'server-error': 1, failed: 0 });
    expect(summary.verdicts.broken).toBe(2);
    expect((await collectStats(store.reader())).broken).toEqual(summary.broken);
  });
});
