// External links' answers reused across runs (verdict-cache.ts): two crawls of one
// site into two indexes, the second given the first's answers. Over real HTTP on
// loopback: the site is 127.0.0.1, 127.0.0.2 plays another site; each server logs
// `METHOD path` of what it is asked, so "0 requests" is the server's own word.

import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { formatSummary, summaryJson } from '../../src/cli/format-summary.js';
import { cacheMaxAgeSetting, explain, verdictOfRow } from '../../src/crawl/index.js';
import type { CrawlSummary } from '../../src/crawl/index.js';
import {
  DEFAULT_CACHE_MAX_AGE_MS,
  isFromCache,
  parseCacheMaxAge,
  readVerdictCache,
  type VerdictCache,
} from '../../src/crawl/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore, type FetchRow, type UrlRow } from '../../src/store/index.js';
import { closeHosts, host, siteLinkingTo } from './logged-host.js';

afterEach(closeHosts);

interface Crawled {
  readonly store: MemoryStore;
  readonly summary: CrawlSummary;
  readonly urls: Map<string, UrlRow>;
  readonly findings: string[];
}

async function crawlInto(store: MemoryStore, seed: string, options: Parameters<typeof crawl>[1] = {}): Promise<Crawled> {
  // No sitemap, no robots.txt: the requests counted are the pages' and the links'.
  const summary = await crawl(seed, { store, allowPrivate: true, retries: 0, sitemap: false, robots: false, ...options });
  const reader = store.reader();
  const urls = new Map<string, UrlRow>();
  for await (const url of reader.urls()) urls.set(url.key, url);
  const findings: string[] = [];
  for await (const finding of audit(reader)) findings.push(`${finding.code} ${finding.page ?? ''} ${finding.target ?? ''}`);
  return { store, summary, urls, findings: findings.sort() };
}

const lastOf = (crawled: Crawled, key: string): FetchRow | undefined => crawled.urls.get(key)?.lastFetch;

async function cacheOf(crawled: Crawled, maxAgeMs = DEFAULT_CACHE_MAX_AGE_MS, now = Date.now()): Promise<VerdictCache> {
  return readVerdictCache(crawled.store.reader(), { now, maxAgeMs });
}

describe('readVerdictCache and the crawl', () => {
  it('a second crawl within the cache age sends 0 requests to the external host, reports the same findings, and keeps the first time', async () => {
    const other = await host('127.0.0.2', (origin) => ({ '/ok': [200], '/gone': [404], '/moved': [301, { location: `${origin}/ok` }] }));
    const site = await siteLinkingTo(other, ['/ok', '/gone', '/moved']);
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const asked = other.log.length;
    expect(asked).toBeGreaterThan(0);
    const cache = await cacheOf(first);
    expect(cache.size).toBe(3);

    const second = await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: cache });
    expect(other.log.length).toBe(asked);
    expect(second.findings).toEqual(first.findings);
    expect(second.findings.some((f) => f.startsWith('LINK_BROKEN') && f.includes('/gone'))).toBe(true);
    expect(second.summary).toMatchObject({ externalChecked: 0, externalFromCache: 3, externalBroken: 1, errorsByCode: { HTTP_404: 1 } });
    // The site itself is read again: only its page was requested.
    expect(second.summary.requests).toBe(1);
    for (const path of ['/ok', '/gone', '/moved']) {
      const was = lastOf(first, `${other.origin}${path}`)!;
      const now = lastOf(second, `${other.origin}${path}`)!;
      expect(isFromCache(now), path).toBe(true);
      expect(isFromCache(was), path).toBe(false);
      expect(now.startedAt, path).toBe(was.startedAt);
      expect({ status: now.status, method: now.method, finalUrl: now.finalUrl, redirects: now.redirects }).toEqual({
        status: was.status,
        method: was.method,
        finalUrl: was.finalUrl,
        redirects: was.redirects,
      });
    }

    // The new index is the next run's cache: the entries keep the first run's time.
    const third = await cacheOf(second);
    expect(third.size).toBe(3);
    expect(third.get(`${other.origin}/gone`)?.startedAt).toBe(lastOf(first, `${other.origin}/gone`)!.startedAt);
  });

  it('explain, the summary and its JSON say an answer came from the cache, and when it was asked', async () => {
    const other = await host('127.0.0.2', () => ({ '/ok': [200], '/gone': [404] }));
    const site = await siteLinkingTo(other, ['/ok', '/gone']);
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const second = await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: await cacheOf(first) });
    const asked = new Date(lastOf(first, `${other.origin}/ok`)!.startedAt).toISOString();
    expect((await explain(second.store, `${other.origin}/ok`)).reason).toBe(`answered from the cache of ${asked} (an earlier run asked it with HEAD) (status 200): no request this run`);
    expect((await explain(first.store, `${other.origin}/ok`)).reason).toMatch(/^checked once as an external link \(HEAD\)/);
    expect(formatSummary(second.summary).join('\n')).toMatch(/^external\s+0 links to other sites checked, each once,\s+2 from the cache \(not requested\): 1 broken$/m);
    expect(JSON.parse(summaryJson(second.summary))).toMatchObject({ externalChecked: 0, externalFromCache: 2, externalBroken: 1 });
  });

  it('an entry older than the cache age is asked again', async () => {
    const other = await host('127.0.0.2', () => ({ '/ok': [200] }));
    const site = await siteLinkingTo(other, ['/ok']);
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const hourLater = Date.now() + 3_600_000;
    expect((await cacheOf(first, 3_600_000 * 2, hourLater)).size).toBe(1);
    const stale = await cacheOf(first, 3_600_000, hourLater);
    expect(stale.size).toBe(0);
    const before = other.log.length;
    const second = await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: stale });
    expect(other.log.slice(before)).toEqual(['HEAD /ok']);
    expect(second.summary).toMatchObject({ externalChecked: 1, externalFromCache: 0 });
  });

  it('an unverified answer (503) is not kept: the next run asks it again', async () => {
    const other = await host('127.0.0.2', () => ({ '/ok': [200], '/busy': [503] }));
    const site = await siteLinkingTo(other, ['/ok', '/busy']);
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const cache = await cacheOf(first);
    expect(cache.get(`${other.origin}/ok`)).toBeDefined();
    expect(cache.get(`${other.origin}/busy`)).toBeUndefined();
    const before = other.log.length;
    const second = await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: cache });
    expect(other.log.slice(before)).toEqual(['HEAD /busy', 'GET /busy']);
    expect(second.summary).toMatchObject({ externalChecked: 1, externalFromCache: 1 });
  });

  it('maxAgeMs 0 keeps nothing: every external link is asked', async () => {
    const other = await host('127.0.0.2', () => ({ '/ok': [200], '/gone': [404] }));
    const site = await siteLinkingTo(other, ['/ok', '/gone']);
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const off = await cacheOf(first, 0);
    expect(off.size).toBe(0);
    const before = other.log.length;
    await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: off });
    expect(other.log.length - before).toBe(before);
  });

  it('a page of the crawl itself is never answered from the cache (local pages change between runs)', async () => {
    const site = await host('127.0.0.1', () => ({ '/': '<a href="/a">a</a>', '/a': [200] }));
    const first = await crawlInto(new MemoryStore(), `${site.origin}/`);
    const row = lastOf(first, `${site.origin}/a`)!;
    // A cache that would answer every key: only external URLs ask it.
    const answer = { outcome: 'done', startedAt: row.startedAt, durationMs: 1, status: 200, contentType: undefined, errorCode: undefined, finalUrl: undefined, redirects: [], method: 'GET' } as const;
    const everything: VerdictCache = { size: 1, get: () => answer };
    const before = site.log.length;
    await crawlInto(new MemoryStore(), `${site.origin}/`, { verdictCache: everything });
    expect(site.log.slice(before)).toEqual(['GET /', 'GET /a']);
  });
});

describe('which external answers the cache keeps: not the unverified ones (verdictOfRow)', () => {
  it.each([
    [{ status: 503, errorCode: undefined }, true],
    [{ status: 500, errorCode: undefined }, true],
    [{ status: 429, errorCode: undefined }, true],
    [{ status: 403, errorCode: undefined }, true],
    [{ status: 999, errorCode: undefined }, true],
    [{ status: undefined, errorCode: 'ERR_FETCH_CONNECT_TIMEOUT' }, true],
    [{ status: undefined, errorCode: 'ERR_FETCH_CONNECTION_REFUSED' }, true],
    [{ status: undefined, errorCode: 'ERR_CRAWL_ROBOTS_DISALLOWED' }, true],
    [{ status: undefined, errorCode: 'ERR_CRAWL_HOST_UNREACHABLE' }, true],
    [{ status: 200, errorCode: undefined }, false],
    [{ status: 404, errorCode: undefined }, false],
    [{ status: 410, errorCode: undefined }, false],
    [{ status: 301, errorCode: 'ERR_FETCH_REDIRECT_LOOP' }, false],
  ])('%o → %s', (answer, expected) => {
    expect(verdictOfRow(answer, 'external') === 'unverified').toBe(expected);
  });
});

describe('parseCacheMaxAge', () => {
  it.each([
    ['1d', 86_400_000],
    ['12h', 43_200_000],
    ['30m', 1_800_000],
    ['45s', 45_000],
    ['250ms', 250],
    ['0', 0],
    [' 2d ', 172_800_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseCacheMaxAge(text)).toBe(ms);
  });

  it.each(['', '-1d', '1w', '1.5h', 'd', '1 d'])('refuses %o, naming the option', (text) => {
    expect(() => parseCacheMaxAge(text, 'cacheMaxAge')).toThrow(/`cacheMaxAge`.*duration/);
  });

  it('the default is a day', () => {
    expect(DEFAULT_CACHE_MAX_AGE_MS).toBe(parseCacheMaxAge('1d'));
  });

  it('cacheMaxAgeSetting: the schema of a command\'s flag, variable and config file (a duration as text, a day by default)', () => {
    const setting = cacheMaxAgeSetting();
    expect(setting.parse(undefined)).toBe(86_400_000);
    expect(setting.parse('12h')).toBe(43_200_000);
    expect(setting.parse('0')).toBe(0);
    expect(setting.safeParse('soon').error?.issues[0]?.message).toBe('Expected a duration such as 1d, 12h, 30m, 45s, or 0 (no cache)');
    expect(setting.safeParse(5).success).toBe(false);
  });
});
