import { describe, expect, it } from 'vitest';
import { collectStats, formatStats } from '../../../src/report/index.js';
import { MemoryStore, type AdmitEntry, type IndexReader } from '../../../src/store/index.js';

/**
 * A crawl written through a MemoryStore: a seed linking 29 new URLs (4 of them not
 * followed), 9 spellings met at the syntax rung, 2 at the scheme rung, 80 repeats
 * and 3 hrefs that did not resolve; 24 fetches; 4 aliases (3 redirects, 1
 * Content-Location) and 2 canonical claims; /p5, /p6 and /p7 serve one body, /p8 and
 * /p9 another (byte-identical, not joined by the ladder).
 */
async function reader(): Promise<IndexReader> {
  const store = new MemoryStore({ now: () => 0 });
  // Two runs, as the crawl records them: stats sums their counts.
  for (const [saved, fetches] of [[7, 20], [4, 4]] as const) {
    const run = await store.startRun({ startedAt: 0, seeds: ['http://h/'], settings: {} });
    await store.endRun(run, {
      endedAt: 1,
      stoppedBy: 'frontier-empty',
      outcome: 'frontier-empty',
      counts: { fetchesSaved: saved, requestsByKind: { fetches, retries: 1, redirects: 2, robots: 1 } },
    });
  }
  const [seed] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
  const key = (id: number): string => `http://h/p${id}`;
  const link = (target: string | undefined, follow = true): AdmitEntry => ({ fromUrlId: seed!.urlId!, rawHref: target ?? 'http://[', target, follow });
  const ids = Array.from({ length: 29 }, (_, i) => i + 2);
  await store.admit(ids.map((id) => link(key(id), id < 27)));
  const followed = ids.filter((id) => id < 27);
  await store.admit(followed.slice(0, 9).map((id) => link(`HTTP://h/p${id}`)));
  await store.admit(followed.slice(9, 11).map((id) => link(`http://h:/p${id}`)));
  await store.admit(Array.from({ length: 80 }, (_, i) => link(key(followed[i % followed.length]!))));
  await store.admit([link(undefined), link(undefined), link(undefined)]);
  const fetch = (urlId: number, outcome: 'done' | 'failed', more: { status?: number; errorCode?: string; digest?: string } = {}) => store.recordFetch({ urlId, outcome, startedAt: 0, ...more });
  const digests: Record<number, string> = { 5: 'A', 6: 'A', 7: 'A', 8: 'B', 9: 'B' };
  for (let id = 1; id <= 18; id++) await fetch(id, 'done', { status: 200, ...(digests[id] === undefined ? {} : { digest: digests[id] }) });
  await fetch(19, 'done', { status: 200 });
  await fetch(20, 'done', { status: 200 });
  await fetch(21, 'failed', { errorCode: 'ERR_FETCH_REDIRECT_LOOP' });
  await fetch(22, 'failed', { status: 404 });
  await fetch(23, 'done', { status: 404 });
  await fetch(24, 'done', { status: 301 });
  for (const [fromId, toId, evidence] of [[23, 2, 'redirect'], [24, 2, 'redirect'], [25, 2, 'redirect'], [26, 3, 'content-location'], [2, 3, 'canonical'], [4, 5, 'canonical']] as const) {
    await store.addAlias({ fromId, toId, evidence });
  }
  return store.reader();
}

describe('collectStats', () => {
  it('the funnel, what each rung folded, the fetches saved by both definitions, aliases and errors', async () => {
    expect(await collectStats(await reader())).toEqual({
      funnel: { rawLinks: 120, distinctStrings: 40, distinctSyntax: 31, distinctScheme: 29, afterAliases: 25, unresolved: 3 },
      folded: { syntax: 9, scheme: 2, protocol: 4 },
      fetchesSaved: 11,
      requests: { fetches: 24, retries: 2, redirects: 4, robots: 2, sitemaps: 0 },
      linksNotFetched: 96,
      fetches: 24,
      urls: 30,
      aliasesByEvidence: { redirect: 3, 'content-location': 1, canonical: 2, digest: 0, rule: 0 },
      errorsByCode: { ERR_FETCH_REDIRECT_LOOP: 1, HTTP_404: 2 },
      broken: { 'client-error': 2, 'server-error': 0, failed: 1 },
      // Rows written without a verdict: derived, as the audit derives them (a 301 not followed again is ok).
      verdicts: { ok: 21, broken: 3, unverified: 0 },
      duplicates: {
        groups: 2,
        urls: 5,
        joinedByContent: 0,
        prefixPairs: [
          { from: '/p6', to: '/p5', count: 1 },
          { from: '/p7', to: '/p5', count: 1 },
          { from: '/p9', to: '/p8', count: 1 },
        ],
      },
    });
  });

  it('an empty index: all zero, never negative', async () => {
    const stats = await collectStats(new MemoryStore().reader());
    expect(stats.fetchesSaved).toBeUndefined();
    expect(stats.linksNotFetched).toBe(0);
    expect(stats.folded).toEqual({ syntax: 0, scheme: 0, protocol: 0 });
    expect(stats.duplicates).toEqual({ groups: 0, urls: 0, joinedByContent: 0, prefixPairs: [] });
    expect(formatStats(stats).slice(-4)).toEqual([
      'errors          0',
      'broken          0  4xx 0, 5xx 0, no response 0',
      'verdicts        0 URLs checked: 0 ok, 0 broken, 0 unverified',
      'duplicates      0 groups, 0 URLs byte-identical, not joined by the ladder (content evidence, heuristic)',
    ]);
  });
});

describe('formatStats', () => {
  it('one labelled line each, the funnel as a ladder with what each rung folded, and the definitions', async () => {
    expect(formatStats(await collectStats(await reader()))).toEqual([
      'funnel          the comparison ladder (RFC 3986 §6.2), over the links with a target (distinct: beyond the seeds):',
      '  raw links     120  links with a resolved target',
      '  strings        40  distinct target strings (fragment removed)',
      '  syntax         31  distinct after syntax-based normalization (§6.2.2), 9 folded',
      '  scheme         29  distinct after scheme-based normalization (§6.2.3), 2 folded',
      '  aliases        25  distinct after protocol-based aliases (§6.2.4), 4 folded',
      '  unresolved      3  links without a valid target',
      "fetches saved   11  (requests avoided: URLs a followed link named that were never requested because, before the request, the index had joined them to a resource already known (a new spelling folded by the syntax or scheme rung, or a queued URL whose representation came with another URL's response); a URL that became an alias after its own request saved nothing)",
      'requests        32  24 fetches, 2 retries, 4 redirect hops, 2 robots.txt, 0 sitemaps',
      'links unfetched 96  (links with a target minus fetches: the requests a crawler without any deduplication would have added; 24 fetches)',
      'urls            30',
      'aliases         4  by evidence: redirect 3, content-location 1',
      // A canonical link is a claim, never obeyed: counted apart, not as an alias.
      'canonical       2  pages name another URL as canonical (rel=canonical): recorded, not obeyed, no alias',
      'errors          3  by code: HTTP_404 2, ERR_FETCH_REDIRECT_LOOP 1', // the most frequent first
      'broken          3  4xx 2, 5xx 0, no response 1',
      'verdicts        24 URLs checked: 21 ok, 3 broken, 0 unverified',
      'duplicates      2 groups, 5 URLs byte-identical, not joined by the ladder (content evidence, heuristic): /p6 ↔ /p5 1, /p7 ↔ /p5 1, /p9 ↔ /p8 1',
    ]);
  });

  it('the duplicates line: the most frequent prefix pairs first, and the URLs content evidence joined', async () => {
    const line = formatStats({
      ...(await collectStats(new MemoryStore().reader())),
      duplicates: {
        groups: 120,
        urls: 260,
        joinedByContent: 4,
        prefixPairs: [
          { from: '/manual/de/', to: '/manual/', count: 110 },
          { from: '/manual/fr/', to: '/manual/', count: 20 },
          { from: '/manual/ja/', to: '/manual/', count: 8 },
          { from: '/manual/ko/', to: '/manual/', count: 2 },
        ],
      },
    }).at(-1);
    expect(line).toBe(
      'duplicates      120 groups, 260 URLs byte-identical, not joined by the ladder (content evidence, heuristic), 4 of them joined by --content-evidence: /manual/de/ ↔ /manual/ 110, /manual/fr/ ↔ /manual/ 20, /manual/ja/ ↔ /manual/ 8, …',
    );
  });

  it('the requests of runs that did not end: what their committed units counted, summed with the others, and said so', async () => {
    const store = new MemoryStore({ now: () => 0 });
    const ended = await store.startRun({ startedAt: 0, seeds: ['http://h/'], settings: {} });
    // A run recorded before sitemap requests were counted apart has no `sitemaps`: none are added for it.
    await store.endRun(ended, { endedAt: 1, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: { requestsByKind: { fetches: 5, retries: 0, redirects: 1, robots: 1 } } });
    for (const fetches of [3, 2]) {
      const killed = await store.startRun({ startedAt: 2, seeds: ['http://h/'], settings: {} });
      await store.recordRunCounts(killed, { requests: fetches + 1, requestsByKind: { fetches, retries: 0, redirects: 0, robots: 0, sitemaps: 1 } });
    }
    const stats = await collectStats(store.reader());
    expect(stats).toMatchObject({ requests: { fetches: 10, retries: 0, redirects: 1, robots: 1, sitemaps: 2 }, runsNotEnded: 2 });
    expect(formatStats(stats).find((line) => line.startsWith('requests'))).toBe(
      'requests        14  10 fetches, 0 retries, 1 redirect hops, 1 robots.txt, 2 sitemaps; 2 runs did not end (killed, or still going): ' +
        'what a killed run had in flight or not yet committed is counted by the run that sent it again',
    );
  });
});
