// Content evidence, opt-in (issue 13, DESIGN.md §9): on a manual served under language
// prefixes with fallback, byte-identical pages become aliases, learned rules hold
// predicted duplicates back, and nothing is lost or falsely joined.

import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';
import { startNegotiatedManual, type NegotiatedManual } from '../support/negotiated-manual-server.js';

let manual: NegotiatedManual | undefined;
afterEach(async () => {
  await manual?.close();
  manual = undefined;
});

async function crawlManual(store: IndexWriter, contentEvidence: boolean, options: Parameters<typeof startNegotiatedManual>[0] = {}) {
  manual = await startNegotiatedManual(options);
  const summary = await crawl({ seeds: manual.seed, store, fetcher: createFetcher(), sitemap: false, allowPrivate: true, contentEvidence });
  const pageRequests = manual.requests.filter((request) => request.path.startsWith('/manual/'));
  const files = manual.files();
  const broken = new Set(manual.requests.filter((request) => request.status >= 400).map((request) => request.path));
  return { manual, summary, requests: pageRequests.length, files, broken };
}

describe('--content-evidence on a negotiated manual', () => {
  it('fetches each file about once, misses none, and joins only byte-identical URLs', async () => {
    const off = await crawlManual(new MemoryStore(), false, { pages: 60 });
    const offFiles = off.files;
    const offRequests = off.requests;
    const offBroken = off.broken.size;
    await manual!.close();
    manual = undefined;
    const store = new SqliteStore({ path: ':memory:' });
    const on = await crawlManual(store, true, { pages: 60 });
    console.log({ offRequests, offFiles: offFiles.size, offBroken, on: on.requests, onFiles: on.files.size, onBroken: on.broken.size, content: JSON.stringify(on.summary.contentEvidence), aliases: on.summary.aliasesLearned });
    expect([...offFiles].filter((file) => !on.files.has(file))).toEqual([]);
    // Every join is between URLs that resolve to one file.
    const reader = store.reader();
    for await (const alias of reader.aliases()) {
      if (alias.evidence !== 'digest' && alias.evidence !== 'rule') continue;
      const path = (key: string) => new URL(key).pathname;
      expect(on.manual.fileFor(path(alias.fromKey)), `${alias.fromKey} → ${alias.toKey}`).toBe(on.manual.fileFor(path(alias.toKey)));
    }
    expect(on.requests).toBeLessThanOrEqual(Math.ceil(1.15 * (on.files.size + on.broken.size)));
  });
});
