// `explain` gives the reason, not a list of possible reasons: the
// crawl records its runs' settings in the index, and explain reads them.

import { describe, expect, it } from 'vitest';
import { runCrawler, explain } from '../../src/crawl/index.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';
import { FakeSite, fakeRobots, page } from './fake-site.js';

const S = 'http://site.test';

async function crawled(store: IndexWriter): Promise<IndexWriter> {
  const fetcher = new FakeSite({
    [`${S}/manual/`]: {
      body: page('/other/x', 'http://127.0.0.1/admin', '/manual/private/secret', '/manual/page') + '<img src="/manual/pic.png">',
    },
    [`${S}/manual/page`]: { body: page() },
  });
  // The robots.txt the policy read, as the index keeps it (RFC 9309 §2.4).
  await store.robotsCache.set(S, { fetchedAt: Date.now(), status: 200, errorCode: undefined, body: 'User-agent: *\nDisallow: /manual/private/\n' });
  // Resources and external links not checked: this index holds skipped URLs to explain.
  await runCrawler({
    seeds: `${S}/manual/`,
    store,
    fetcher,
    scope: 'prefix',
    robots: fakeRobots((url) => !url.includes('/private/')),
    checkResources: false,
    checkExternal: false,
  });
  return store;
}

describe.each([
  ['SqliteStore', () => new SqliteStore({ path: ':memory:' })],
  ['MemoryStore', () => new MemoryStore()],
])('explain reasons from the crawl run: %s', (_name, open) => {
  it('says which rule: the scope with its prefix, the private-address guard, robots.txt, the element not followed', async () => {
    const store = await crawled(open());
    expect((await explain(store, `${S}/other/x`)).reason).toBe(`recorded, not fetched: out of scope (prefix ${S}/manual/)`);
    expect((await explain(store, 'http://127.0.0.1/admin')).reason).toBe('recorded, not fetched: private address refused (loopback 127.0.0.1)');
    expect((await explain(store, `${S}/manual/private/secret`)).reason).toBe(
      `refused, not requested: robots.txt of ${S} disallows /manual/private/`,
    );
    expect((await explain(store, `${S}/manual/pic.png`)).reason).toBe('recorded, not fetched: not followed: <img src>');
    await store.close();
  });
});
