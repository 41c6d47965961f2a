// A crawl of a 5,000-page site with ~100,000 links, written through a MemoryStore as a
// crawl writes it, for the report's load time in Chromium: broken targets (404, 500, a
// timeout) linked from many pages, redirects, and external links.

import { audit, type AuditFinding } from '../../../src/report/index.js';
import { MemoryStore, type AdmitEntry, type IndexReader } from '../../../src/store/index.js';
import { collect } from '../../support/collect.js';

export interface LargeSite {
  readonly reader: IndexReader;
  readonly findings: readonly AuditFinding[];
  readonly pages: number;
  /** Link rows written. */
  readonly links: number;
  /** Targets that answer 404, 500 or time out. */
  readonly brokenTargets: number;
  readonly unverifiedTargets: number;
  readonly redirects: number;
  readonly externalUrls: number;
}

const SITE = 'http://site.test';
const MISSING = 40;
const FAILING = 10;
const TIMING_OUT = 10;
const REDIRECTS = 20;
const EXTERNAL_HOSTS = 5;
const EXTERNAL_PER_HOST = 40;

const pageKey = (i: number): string => (i === 0 ? `${SITE}/` : `${SITE}/p/${i}.html`);

/** `pages` pages, each with `linksPerPage` links (its children in a tree of 20, others to pages already named, and to the rest). */
export async function largeSite(pages = 5000, linksPerPage = 20): Promise<LargeSite> {
  const store = new MemoryStore({ now: () => 1_700_000_000_000 });
  const runId = await store.startRun({ startedAt: 1_700_000_000_000, seeds: [pageKey(0)], settings: { scope: 'host', maxDepth: null, checkExternal: true } });
  const ids = new Map<string, number>();
  const admit = async (entries: AdmitEntry[]): Promise<void> => {
    const results = await store.admit(entries);
    results.forEach((result, n) => {
      const target = entries[n]!.target!;
      if (result.urlId !== undefined && !ids.has(target)) ids.set(target, result.urlId);
    });
  };
  await admit([{ rawHref: pageKey(0), target: pageKey(0), depth: 0 }]);
  const depth = new Map<number, number>([[0, 0]]);
  const extra = {
    missing: (k: number) => `${SITE}/missing/${k}`,
    failing: (k: number) => `${SITE}/failing/${k}`,
    timeout: (k: number) => `${SITE}/timeout/${k}`,
    old: (k: number) => `${SITE}/old/${k}`,
    external: (k: number) => `http://ext${k % EXTERNAL_HOSTS}.test/x/${Math.floor(k / EXTERNAL_HOSTS) % EXTERNAL_PER_HOST}`,
  };
  let links = 0;
  for (let i = 0; i < pages; i++) {
    const from = ids.get(pageKey(i))!;
    const d = depth.get(i)! + 1;
    const entries: AdmitEntry[] = [];
    const link = (href: string, target: string, follow = true): void => {
      // Only the external links are not followed: out of the crawl's scope.
      entries.push({ fromUrlId: from, rawHref: href, target, element: 'a', attribute: 'href', depth: d, follow, role: follow ? 'page' : 'external' });
    };
    for (let c = 20 * i + 1; c <= 20 * i + 20 && c < pages; c++) {
      depth.set(c, d);
      link(`/p/${c}.html`, pageKey(c));
    }
    // Each broken target and redirect is named by several pages: the k-th such page names target k modulo their number.
    if (i % 10 === 3) link(`../missing/${(i / 10) % MISSING | 0}`, extra.missing((i / 10) % MISSING | 0));
    if (i % 50 === 7) link(`/failing/${(i / 50) % FAILING | 0}`, extra.failing((i / 50) % FAILING | 0));
    if (i % 60 === 11) link(`/timeout/${(i / 60) % TIMING_OUT | 0}`, extra.timeout((i / 60) % TIMING_OUT | 0));
    if (i % 7 === 2) link(`/old/${(i / 7) % REDIRECTS | 0}`, extra.old((i / 7) % REDIRECTS | 0));
    if (i % 5 === 1) link(extra.external((i / 5) | 0), extra.external((i / 5) | 0), false);
    const named = Math.min(pages, 20 * i + 21);
    for (let m = 0; entries.length < linksPerPage; m++) {
      const j = (i * 7919 + m * 104_729) % named;
      link(j === 0 ? '/' : `/p/${j}.html`, pageKey(j));
    }
    links += entries.length;
    await admit(entries);
  }
  const fetch = (key: string, record: Omit<Parameters<MemoryStore['recordFetch']>[0], 'urlId' | 'startedAt'>): Promise<void> =>
    store.recordFetch({ urlId: ids.get(key)!, startedAt: 1_700_000_000_000, durationMs: 5, ...record });
  for (let i = 0; i < pages; i++) await fetch(pageKey(i), { outcome: 'done', status: 200, contentType: 'text/html', bytes: 4000 });
  for (let k = 0; k < MISSING; k++) await fetch(extra.missing(k), { outcome: 'done', status: 404, contentType: 'text/html', bytes: 100 });
  for (let k = 0; k < FAILING; k++) await fetch(extra.failing(k), { outcome: 'done', status: 500, contentType: 'text/html', bytes: 100 });
  for (let k = 0; k < TIMING_OUT; k++) await fetch(extra.timeout(k), { outcome: 'failed', errorCode: 'ERR_FETCH_TIMEOUT' });
  for (let k = 0; k < REDIRECTS; k++) {
    const to = pageKey(k + 1);
    await fetch(extra.old(k), {
      outcome: 'done',
      status: 200,
      contentType: 'text/html',
      finalUrl: to,
      redirects: [{ from: extra.old(k), to, status: 301 }],
      representsUrlId: ids.get(to)!,
    });
    await store.addAlias({ fromId: ids.get(extra.old(k))!, toId: ids.get(to)!, evidence: 'redirect', detail: '301' });
  }
  await store.endRun(runId, { endedAt: 1_700_000_754_000, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: { requests: pages + 80 } });
  await store.flush();
  const reader = store.reader();
  return {
    reader,
    findings: await collect(audit(reader)),
    pages,
    links,
    // 5xx and timeouts are unverified (LINK_UNVERIFIED), not broken: the broken table lists the 404s.
    brokenTargets: MISSING,
    unverifiedTargets: FAILING + TIMING_OUT,
    redirects: REDIRECTS,
    externalUrls: EXTERNAL_HOSTS * EXTERNAL_PER_HOST,
  };
}
