// The polite second pass (second-pass.ts): external links left unverified are asked
// once more when the frontier is empty, after a wait the `sleep` seam records (so
// tests do not wait). Over real HTTP on loopback; 127.0.0.2 plays another site and
// logs what it is asked.

import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { formatSummary } from '../../src/cli/format-summary.js';
import { SECOND_PASS_DEFAULT_WAIT_MS, type CrawlEvent, type CrawlSummary, type ProgressEvent } from '../../src/crawl/index.js';
import { MemoryStore, type UrlRow } from '../../src/store/index.js';
import { closeHosts, host, siteLinkingTo } from './logged-host.js';

afterEach(closeHosts);

interface Run {
  readonly summary: CrawlSummary;
  readonly urls: Map<string, UrlRow>;
  readonly waits: number[];
  readonly events: CrawlEvent[];
  readonly ms: number;
}

async function crawlSite(seed: string, options: Parameters<typeof crawl>[1] = {}): Promise<Run> {
  const store = new MemoryStore();
  const waits: number[] = [];
  const events: CrawlEvent[] = [];
  const startedAt = Date.now();
  const summary = await crawl(seed, {
    store,
    allowPrivate: true,
    retries: 0,
    sitemap: false,
    robots: false,
    secondPass: true,
    onEvent: (event) => events.push(event),
    // Waits are recorded, not waited.
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  const ms = Date.now() - startedAt;
  const urls = new Map<string, UrlRow>();
  for await (const url of store.reader().urls()) urls.set(url.key, url);
  await store.close();
  return { summary, urls, waits, events, ms };
}

const waitsShown = (run: Run): ProgressEvent[] => run.events.filter((e): e is ProgressEvent => e.type === 'progress' && e.secondPassInMs !== undefined);

describe('the second pass (secondPass)', () => {
  it('a link that answered 503 and then 200 is asked once more after its Retry-After, and turns ok', async () => {
    const other = await host('127.0.0.2', () => ({ '/flaky': (n) => (n <= 2 ? [503, { 'retry-after': '7' }] : [200]) }));
    // On a host of its own: the Retry-After pauses 127.0.0.2 (host-pace.ts), and a link there would wait it out in the first pass.
    const third = await host('127.0.0.3', () => ({ '/ok': [200] }));
    const site = await host('127.0.0.1', () => ({ '/': `<a href="${other.origin}/flaky">x</a><a href="${third.origin}/ok">x</a>` }));
    const run = await crawlSite(`${site.origin}/`);
    // HEAD 503, GET 503 (HEAD's error is not the verdict), then the second pass: GET, the method of the first answer.
    expect(other.log.filter((line) => line.endsWith('/flaky'))).toEqual(['HEAD /flaky', 'GET /flaky', 'GET /flaky']);
    // Retry-After counts from the answer: the wait is what is left of its 7 s.
    const shown = waitsShown(run);
    expect(shown).toMatchObject([{ secondPassUrls: 1 }]);
    expect(shown[0]!.secondPassInMs).toBeGreaterThan(5000);
    expect(shown[0]!.secondPassInMs).toBeLessThanOrEqual(7000);
    expect(run.waits).toContain(shown[0]!.secondPassInMs);
    const flaky = run.urls.get(`${other.origin}/flaky`)!;
    expect(flaky.lastFetch).toMatchObject({ status: 200, method: 'GET' });
    // The URL counts once, with its last answer; the extra request is in the requests.
    expect(run.summary).toMatchObject({ secondPassAsked: 1, secondPassOk: 1, externalChecked: 2, externalBroken: 0, errorsByCode: {}, pagesFetched: 3 });
    expect(run.summary.requestsByKind).toMatchObject({ fetches: 4, retries: 1 });
    expect(run.summary.requests).toBe(other.log.length + third.log.length + site.log.length);
    expect(formatSummary(run.summary).join('\n')).toMatch(/0\s+broken;\s+second\s+pass:\s+1\s+unverified\s+asked\s+again,\s+1\s+now\s+ok$/m);
  });

  it('a link that stays 503 costs one extra request, not more; without Retry-After the wait is the default', async () => {
    const other = await host('127.0.0.2', () => ({ '/down': [503] }));
    const site = await siteLinkingTo(other, ['/down']);
    const run = await crawlSite(`${site.origin}/`, { retries: 2, retryDelayMs: 0 });
    const firstPass = 2 * 3; // HEAD then GET, each of 3 attempts (retries 2)
    expect(other.log.length).toBe(firstPass + 1);
    expect(run.waits).toContain(SECOND_PASS_DEFAULT_WAIT_MS);
    expect(run.urls.get(`${other.origin}/down`)!.lastFetch).toMatchObject({ status: 503 });
    expect(run.summary).toMatchObject({ secondPassAsked: 1, secondPassOk: 0, externalChecked: 1, externalBroken: 0, errorsByCode: { HTTP_503: 1 } });
    // 503 is unverified, not broken: the summary counts it with the verdicts.
    expect(run.summary.verdicts).toMatchObject({ broken: 0, unverified: 1 });
  });

  it('a connection refused is asked once more too, and links answered ok or broken are not', async () => {
    const other = await host('127.0.0.2', () => ({ '/ok': [200], '/gone': [404] }));
    // Nothing listens on port 9 of 127.0.0.3 (discard, never served in tests).
    const refused = 'http://127.0.0.3:9/x';
    const page = await host('127.0.0.1', () => ({ '/': `<a href="${refused}">r</a><a href="${other.origin}/ok">o</a><a href="${other.origin}/gone">g</a>` }));
    const run = await crawlSite(`${page.origin}/`);
    expect(other.log).toEqual(['HEAD /ok', 'HEAD /gone', 'GET /gone']);
    expect(run.summary).toMatchObject({ secondPassAsked: 1, secondPassOk: 0 });
    expect(run.urls.get(refused)!.lastFetch?.errorCode).toBe('ERR_FETCH_CONNECTION_REFUSED');
  });

  it('a link whose host\'s robots.txt answered 503 is asked again, robots.txt first (RFC 9309 §2.3.1.4: unreachable is a fact of the moment)', async () => {
    const other = await host('127.0.0.2', () => ({ '/robots.txt': (n) => (n === 1 ? [503] : [404]), '/x': [200] }));
    const site = await host('127.0.0.1', () => ({ '/robots.txt': [404], '/': `<a href="${other.origin}/x">x</a>` }));
    const run = await crawlSite(`${site.origin}/`, { robots: undefined });
    expect(other.log).toEqual(['GET /robots.txt', 'GET /robots.txt', 'HEAD /x']);
    expect(run.urls.get(`${other.origin}/x`)!.lastFetch).toMatchObject({ status: 200, method: 'HEAD' });
    expect(run.summary).toMatchObject({ secondPassAsked: 1, secondPassOk: 1, notCheckedByRobots: 0, externalChecked: 1, externalBroken: 0, errorsByCode: {} });
  });

  it('is off by default: an unverified link is asked only in the first pass', async () => {
    const other = await host('127.0.0.2', () => ({ '/down': [503] }));
    const site = await siteLinkingTo(other, ['/down']);
    const run = await crawlSite(`${site.origin}/`, { secondPass: false });
    expect(other.log).toEqual(['HEAD /down', 'GET /down']);
    expect(run.summary).toMatchObject({ secondPassAsked: 0, secondPassOk: 0 });
    expect(waitsShown(run)).toEqual([]);
  });

  it('an abort during the wait stops at once: nothing is asked again, the first answer stays', async () => {
    const other = await host('127.0.0.2', () => ({ '/down': [503, { 'retry-after': '60' }] }));
    const site = await siteLinkingTo(other, ['/down']);
    const controller = new AbortController();
    const run = await crawlSite(`${site.origin}/`, {
      signal: controller.signal,
      // The second pass's wait is real (60 s): the abort must end it.
      sleep: async (ms, signal) => {
        if (ms < 50_000) return;
        setTimeout(() => controller.abort(), 50);
        await delay(ms, undefined, { signal }).catch(() => undefined);
      },
    });
    expect(run.ms).toBeLessThan(20_000);
    expect(run.summary.stoppedBy).toBe('signal');
    expect(other.log).toEqual(['HEAD /down', 'GET /down']);
    expect(run.urls.get(`${other.origin}/down`)).toMatchObject({ state: 'done', lastFetch: { status: 503 } });
    expect(run.summary).toMatchObject({ secondPassAsked: 0, errorsByCode: { HTTP_503: 1 } });
  });

  it('an answer from the verdict cache is not asked by the second pass, whatever it says', async () => {
    const other = await host('127.0.0.2', () => ({ '/a': [503] }));
    const site = await siteLinkingTo(other, ['/a']);
    const answer = { outcome: 'done', startedAt: Date.now() - 1000, durationMs: 3, status: 503, contentType: undefined, errorCode: undefined, finalUrl: undefined, redirects: [], method: 'GET' } as const;
    const run = await crawlSite(`${site.origin}/`, { verdictCache: { size: 1, get: () => answer } });
    expect(other.log).toEqual([]);
    expect(run.summary).toMatchObject({ secondPassAsked: 0, externalFromCache: 1, externalChecked: 0 });
  });

  it('maxPages bounds the second pass', async () => {
    const other = await host('127.0.0.2', () => ({ '/a': [503], '/b': [503] }));
    const site = await siteLinkingTo(other, ['/a', '/b']);
    // Two URLs requested of a budget of three (the page, /a, /b): no room for the second pass.
    const run = await crawlSite(`${site.origin}/`, { maxPages: 3 });
    expect(other.log).toEqual(['HEAD /a', 'GET /a', 'HEAD /b', 'GET /b']);
    expect(run.summary).toMatchObject({ secondPassAsked: 0 });
    expect([...run.urls.values()].filter((url) => url.state === 'queued')).toEqual([]);
  });
});
