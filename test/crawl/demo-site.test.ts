// Acceptance: crawl the bundled demo site (src/cli/demo) over real HTTP on
// 127.0.0.1 with the real fetcher and robots.txt policy, and check the server's
// request log against what a correct crawl asks for — and never asks for.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequestLog, startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { runCrawler, type CrawlEvent } from '../../src/crawl/index.js';
import { createFetcher, createRobotsPolicy } from '../../src/fetch/index.js';
import { SqliteStore } from '../../src/store/index.js';

describe('the demo site', () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is crawled as expected-requests.ts says: everything once, nothing forbidden', async () => {
    const fetcher = createFetcher();
    const robots = createRobotsPolicy();
    const store = new SqliteStore({ path: ':memory:' });
    const events: CrawlEvent[] = [];
    try {
      const summary = await runCrawler({
        seeds: `${server.origin}/`,
        store,
        fetcher,
        robots,
        allowPrivate: true, // the demo listens on 127.0.0.1
        retryDelayMs: 10,
        onEvent: (event) => events.push(event),
      });
      const check = checkRequestLog(server.requests);
      expect({ ...check, log: check.isCorrect ? [] : server.requests }).toMatchObject({
        missing: [],
        repeated: [],
        forbidden: [],
        unexpected: [],
        isCorrect: true,
      });
      expect(summary.stoppedBy).toBe('frontier-empty');
      expect(summary.aliasesLearned).toMatchObject({ redirect: 4, 'content-location': 2 });
      expect(summary.errorsByCode).toMatchObject({
        ERR_CRAWL_ROBOTS_DISALLOWED: 1,
        ERR_FETCH_REDIRECT_LOOP: 1,
        ERR_FETCH_REDIRECT_WITHOUT_LOCATION: 1,
      });
      expect((await store.findUrl(`${server.origin}/manual/core.html`))?.state).toBe('alias');
      expect((await store.stats()).urlsByState).toMatchObject({ queued: 0, fetching: 0 });
    } finally {
      await store.close();
      await Promise.all([fetcher.close(), robots.close()]);
    }
  });
});
