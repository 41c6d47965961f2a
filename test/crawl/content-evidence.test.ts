// Content evidence, opt-in: on a manual served under language
// prefixes with fallback, byte-identical pages become aliases, learned rules hold
// predicted duplicates back, and nothing is lost or falsely joined.

import { afterEach, describe, expect, it } from 'vitest';
import { runCrawler, type CrawlerOptions, type CrawlSummary } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { Writable } from 'node:stream';
import { collectStats, formatStats, writeHtmlReport } from '../../src/report/index.js';
import { MemoryStore, SqliteStore, type IndexWriter } from '../../src/store/index.js';
import { startNegotiatedManual, type NegotiatedManual, type NegotiatedManualOptions } from '../support/negotiated-manual-server.js';

const open: NegotiatedManual[] = [];
afterEach(async () => {
  for (const manual of open.splice(0)) await manual.close();
});

interface ManualCrawl {
  readonly manual: NegotiatedManual;
  readonly summary: CrawlSummary;
  /** Requests under /manual/ (robots.txt and sitemaps are off). */
  readonly requests: number;
  readonly files: Set<string>;
  /** Distinct paths that answered 4xx. */
  readonly broken: number;
}

async function crawlManual(store: IndexWriter, options: Partial<CrawlerOptions>, site: NegotiatedManualOptions = {}, manual?: NegotiatedManual): Promise<ManualCrawl> {
  manual ??= await startNegotiatedManual(site);
  if (!open.includes(manual)) open.push(manual);
  const summary = await runCrawler({ seeds: manual.seed, store, fetcher: createFetcher(), sitemap: false, allowPrivate: true, ...options });
  const requests = manual.requests.filter((request) => request.path.startsWith('/manual/')).length;
  const broken = new Set(manual.requests.filter((request) => request.status >= 400).map((request) => request.path)).size;
  return { manual, summary, requests, files: manual.files(), broken };
}

/** Every content alias of the index joins two URLs that the server resolves to one file. */
async function falseJoins(store: IndexWriter & { reader(): { aliases(): AsyncIterable<{ evidence: string; fromKey: string; toKey: string }> } }, manual: NegotiatedManual): Promise<string[]> {
  const wrong: string[] = [];
  const file = (key: string): string | undefined => manual.fileFor(new URL(key).pathname);
  for await (const alias of store.reader().aliases()) {
    if (alias.evidence !== 'digest' && alias.evidence !== 'rule') continue;
    if (file(alias.fromKey) === undefined || file(alias.fromKey) !== file(alias.toKey)) wrong.push(`${alias.evidence}: ${alias.fromKey} → ${alias.toKey}`);
  }
  return wrong;
}

describe('--content-evidence on a manual served under language prefixes with fallback', () => {
  it('requests at most 1.15x the files served plus broken targets, misses no file, and joins only byte-identical URLs', async () => {
    const off = await crawlManual(new MemoryStore(), {}, { pages: 60 });
    const store = new SqliteStore({ path: ':memory:' });
    const on = await crawlManual(store, { contentEvidence: true }, { pages: 60 });
    expect([...off.files].filter((file) => !on.files.has(file))).toEqual([]);
    expect(await falseJoins(store, on.manual)).toEqual([]);
    // Without the option every fallback is fetched again under each prefix: ~1.8x.
    expect(off.requests).toBeGreaterThan(1.5 * (off.files.size + off.broken));
    expect(on.requests).toBeLessThanOrEqual(1.15 * (on.files.size + on.broken));
    const content = on.summary.contentEvidence!;
    expect(content.joined).toBeGreaterThan(0);
    expect(content.rules.every((rule) => rule.contradictions === 0)).toBe(true);
    expect(on.summary.aliasesLearned.rule).toBe(content.joined);
    // The option off: no content evidence at all.
    expect(off.summary.contentEvidence).toBeUndefined();
    expect(off.summary.aliasesLearned).toMatchObject({ digest: 0, rule: 0 });
    // The run records it, for `stats`.
    const run = (await store.runs()).at(-1)!;
    expect(run.settings.contentEvidence).toBe(true);
    expect(run.counts?.contentEvidence).toMatchObject({ joined: content.joined });
    await store.close();
  });

  it('costs no request and joins nothing on a manual without duplicates', async () => {
    const off = await crawlManual(new MemoryStore(), {}, { mode: 'unique', pages: 40 });
    const on = await crawlManual(new MemoryStore(), { contentEvidence: true }, { mode: 'unique', pages: 40 });
    expect(on.requests).toBe(off.requests);
    expect(on.files).toEqual(off.files);
    expect(on.summary.aliasesLearned).toMatchObject({ digest: 0, rule: 0 });
    expect(on.summary.contentEvidence).toMatchObject({ deferred: 0, joined: 0, rules: [] });
  });

  it('without hreflang, a rule only orders: what it held is fetched in the end, nothing lost, nothing joined falsely', async () => {
    const site: NegotiatedManualOptions = { pages: 60, hreflang: false, translated: (page, language) => page === 0 || (language === 'de' && page % 7 === 0) };
    const off = await crawlManual(new MemoryStore(), {}, site);
    const store = new SqliteStore({ path: ':memory:' });
    const on = await crawlManual(store, { contentEvidence: true }, site);
    expect([...off.files].filter((file) => !on.files.has(file))).toEqual([]);
    expect(await falseJoins(store, on.manual)).toEqual([]);
    expect(on.summary.contentEvidence!.joined).toBe(0);
    // Byte-identical pages still become digest aliases.
    expect(on.summary.aliasesLearned.digest).toBeGreaterThan(0);
    await store.close();
  });

  it('stopped while it holds predicted duplicates, puts them back on the frontier; the resumed crawl misses nothing', async () => {
    const path = `${process.env.TMPDIR ?? '/tmp'}/linkladder-content-evidence-${process.pid}.db`;
    const site: NegotiatedManualOptions = { pages: 60 };
    const all = await crawlManual(new MemoryStore(), {}, site);
    const manual = await startNegotiatedManual(site);
    open.push(manual);
    const stop = new AbortController();
    let pages = 0;
    const onEvent = (event: { type: string }): void => {
      if (event.type === 'page' && ++pages === 70) stop.abort();
    };
    const first = new SqliteStore({ path });
    try {
      const stopped = await crawlManual(first, { contentEvidence: true, signal: stop.signal, onEvent }, site, manual);
      expect(stopped.summary.stoppedBy).toBe('signal');
      expect(stopped.summary.contentEvidence!.deferred).toBeGreaterThan(0);
      expect((await first.stats()).urlsByState.fetching).toBe(0);
    } finally {
      await first.close();
    }
    const second = new SqliteStore({ path });
    try {
      const resumed = await crawlManual(second, { contentEvidence: true }, site, manual);
      expect(resumed.summary.stoppedBy).toBe('frontier-empty');
      expect([...all.files].filter((file) => !manual.files().has(file))).toEqual([]);
      expect(await falseJoins(second, manual)).toEqual([]);
    } finally {
      await second.close();
      const { rmSync } = await import('node:fs');
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    }
  });
});

describe('explain on content evidence', () => {
  it('names the evidence as heuristic, the rule, its support and the page that proved it', async () => {
    const { explain } = await import('../../src/crawl/index.js');
    const store = new MemoryStore();
    const on = await crawlManual(store, { contentEvidence: true }, { pages: 60 });
    const byRule: string[] = [];
    const byDigest: string[] = [];
    for await (const alias of store.reader().aliases()) {
      if (alias.evidence === 'rule') byRule.push(alias.fromKey);
      if (alias.evidence === 'digest') byDigest.push(alias.fromKey);
    }
    const ruled = await explain(store, byRule[0]!);
    expect(ruled.verdict).toBe('merged');
    expect(ruled.reason).toMatch(/^joined to http:\/\/127\.0\.0\.1:\d+\/manual\/\S+ by content evidence \(heuristic, --content-evidence\): predicted by the rule http:\/\/\S+\/ ↔ http:\/\/\S+\/ \(support \d+, contradictions 0\), first proved by \S+ = \S+; joined without a request, as a predicted URL is only when the page it maps onto declares its own language variants and names neither that URL nor its language: \S+ was fetched and declares its language variants \(hreflang\), not \w+, and no page declared \S+ one; links to it name \S+ and fetch nothing$/);
    const digested = await explain(store, byDigest[0]!);
    expect(digested.reason).toMatch(/by content evidence \(heuristic, --content-evidence\): its body is byte-identical to \S+'s \(SHA-256 [\w-]+\)/);
    expect(on.summary.contentEvidence!.joined).toBe(byRule.length);
    // `stats` says what the run did, apart and labelled heuristic.
    const stats = await collectStats(store.reader());
    expect(stats.contentEvidence).toMatchObject({ runId: 1, joined: byRule.length });
    const lines = formatStats(stats);
    expect(lines.find((line) => line.startsWith('content aliases'))).toMatch(/^content aliases \d+ {2}heuristic, by --content-evidence: digest \d+, rule \d+$/);
    expect(lines.find((line) => line.startsWith('content rules'))).toMatch(/^content rules {3}\d+ learned by run 1 \(heuristic\): \S+ ↔ \S+ support \d+/);
    // The HTML report: content aliases counted apart, the rules in the Duplicates tab.
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        html += chunk.toString('utf8');
        callback();
      },
    });
    const report = await writeHtmlReport(store.reader(), [], sink);
    expect(report.contentAliases).toBe(on.summary.aliasesLearned.digest + on.summary.aliasesLearned.rule);
    expect(html).toContain('<table id="content-rules">');
    expect(html.match(/<tr><td><code>http:\/\/127\.0\.0\.1:\d+\/manual\/\w+\/<\/code> ↔ /g)).toHaveLength(on.summary.contentEvidence!.rules.length);
  });
});
