// Politeness: global and per-host concurrency, per-host delay and Crawl-delay.
// Real timers with small values; the fake site counts what is in flight.

import { describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite, fakeRobots, page, type FakeResource } from './fake-site.js';

const HOSTS = ['http://a.test', 'http://b.test', 'http://c.test'];

// Requests counted and timed: no sitemap (/sitemap.xml is read by default; test/crawl/sitemap-seeds.test.ts).
const NO_SITEMAP = { sitemap: false } as const;

/** Three hosts of six pages each, every response taking `latencyMs`. */
function threeHosts(): Record<string, FakeResource> {
  const resources: Record<string, FakeResource> = {};
  for (const host of HOSTS) {
    resources[`${host}/`] = { body: page('/1', '/2', '/3', '/4', '/5') };
    for (let i = 1; i <= 5; i++) resources[`${host}/${i}`] = { body: page('/') };
  }
  return resources;
}

/** Gaps between consecutive starts on each host, ms. */
function gapsByHost(fetcher: FakeSite): number[] {
  const gaps: number[] = [];
  const last = new Map<string, number>();
  for (const start of fetcher.starts) {
    const previous = last.get(start.host);
    if (previous !== undefined) gaps.push(start.at - previous);
    last.set(start.host, start.at);
  }
  return gaps;
}

describe('concurrency', () => {
  it('never more than perHostConcurrency to one host, nor concurrency in all', async () => {
    const fetcher = new FakeSite(threeHosts(), { latencyMs: 10 });
    const summary = await runCrawler({ ...NO_SITEMAP, seeds: HOSTS.map((h) => `${h}/`), store: new MemoryStore(), fetcher, concurrency: 2, perHostConcurrency: 1 });
    expect(summary.pagesFetched).toBe(18);
    expect(fetcher.maxInFlight).toBe(2);
    expect(Math.max(...fetcher.maxInFlightByHost.values())).toBe(1);
  });

  it('per-host concurrency above one is used, and kept', async () => {
    const fetcher = new FakeSite(threeHosts(), { latencyMs: 10 });
    await runCrawler({ ...NO_SITEMAP, seeds: HOSTS.map((h) => `${h}/`), store: new MemoryStore(), fetcher, concurrency: 8, perHostConcurrency: 2 });
    expect(fetcher.maxInFlight).toBeLessThanOrEqual(6);
    expect(fetcher.maxInFlight).toBeGreaterThan(3);
    expect(Math.max(...fetcher.maxInFlightByHost.values())).toBe(2);
  });

  it('the default: 4 in all, 1 per host; a slow host does not hold the others back', async () => {
    const resources = threeHosts();
    for (let i = 1; i <= 5; i++) resources[`http://a.test/${i}`] = { body: page(), latencyMs: 40 };
    const fetcher = new FakeSite(resources, { latencyMs: 2 });
    const started = Date.now();
    await runCrawler({ ...NO_SITEMAP, seeds: HOSTS.map((h) => `${h}/`), store: new MemoryStore(), fetcher });
    expect(fetcher.maxInFlight).toBeLessThanOrEqual(3);
    expect(Math.max(...fetcher.maxInFlightByHost.values())).toBe(1);
    // b and c were done long before a's five slow pages.
    const lastB = Math.max(...fetcher.starts.filter((s) => s.host === 'b.test').map((s) => s.at));
    const lastA = Math.max(...fetcher.starts.filter((s) => s.host === 'a.test').map((s) => s.at));
    expect(lastB).toBeLessThan(lastA);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 40 - 5);
  });
});

describe('per-host delay', () => {
  it('perHostDelayMs spaces the starts of requests to one host', async () => {
    const fetcher = new FakeSite(threeHosts());
    await runCrawler({ ...NO_SITEMAP, seeds: HOSTS.map((h) => `${h}/`), store: new MemoryStore(), fetcher, perHostDelayMs: 30 });
    const gaps = gapsByHost(fetcher);
    expect(gaps).toHaveLength(15);
    // Measured where the fake fetcher is called: each request holds its host from there,
    // so a GC pause between a task's start and its request shortens no gap.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(30);
    // The hosts were crawled side by side, not one after another.
    expect(fetcher.starts.slice(0, 3).map((s) => s.host).sort()).toEqual(['a.test', 'b.test', 'c.test']);
  });

  it('a larger robots.txt Crawl-delay wins, and a disallowed URL costs no delay', async () => {
    const resources = { 'http://a.test/': { body: page('/1', '/no', '/2', '/3') }, 'http://a.test/1': { body: page() }, 'http://a.test/2': { body: page() }, 'http://a.test/3': { body: page() } };
    const fetcher = new FakeSite(resources);
    const robots = fakeRobots((url) => !url.endsWith('/no'), 60);
    await runCrawler({ ...NO_SITEMAP, seeds: 'http://a.test/', store: new MemoryStore(), fetcher, robots, perHostDelayMs: 5 });
    const gaps = gapsByHost(fetcher);
    expect(gaps).toHaveLength(3);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(55);
    // Three turns of 60 ms, not four: the disallowed URL gave its turn back.
    expect(fetcher.starts.at(-1)!.at - fetcher.starts[0]!.at).toBeLessThan(4 * 60 - 10);
  });

  it('retry backoff delays the host, not the others', async () => {
    const resources: Record<string, FakeResource> = {
      'http://a.test/': { errorCode: 'ERR_FETCH_CONNECT_TIMEOUT', failTimes: 1, body: page() },
      'http://b.test/': { body: page('/1', '/2') },
      'http://b.test/1': { body: page() },
      'http://b.test/2': { body: page() },
    };
    const fetcher = new FakeSite(resources);
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/', 'http://b.test/'], store: new MemoryStore(), fetcher, retryDelayMs: 50 });
    const a = fetcher.starts.filter((s) => s.host === 'a.test');
    expect(a).toHaveLength(2);
    expect(a[1]!.at - a[0]!.at).toBeGreaterThanOrEqual(45);
    const bDone = Math.max(...fetcher.starts.filter((s) => s.host === 'b.test').map((s) => s.at));
    expect(bDone).toBeLessThan(a[1]!.at);
  });
});

describe('an injected clock and sleep', () => {
  it('schedules delays on the clock it is given', async () => {
    let clock = 1_000_000;
    const slept: number[] = [];
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1', '/2') }, 'http://a.test/1': { body: page() }, 'http://a.test/2': { body: page() } }, { now: () => clock });
    const summary = await runCrawler({
      ...NO_SITEMAP,
      seeds: 'http://a.test/',
      store: new MemoryStore({ now: () => clock }),
      fetcher,
      perHostDelayMs: 1000,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    expect(summary.pagesFetched).toBe(3);
    expect(fetcher.starts.map((s) => s.at - 1_000_000)).toEqual([0, 1000, 2000]);
    expect(slept).toEqual([1000, 1000]);
    expect(summary.durationMs).toBe(2000);
  });
});

describe('a robots.txt Crawl-delay past any sane wait', () => {
  it('is capped at the longest --per-host-delay-ms (one hour), never overflowing the timer', async () => {
    let clock = 1_000_000;
    const slept: number[] = [];
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1') }, 'http://a.test/1': { body: page() } }, { now: () => clock });
    const summary = await runCrawler({
      ...NO_SITEMAP,
      seeds: 'http://a.test/',
      store: new MemoryStore({ now: () => clock }),
      fetcher,
      robots: { isAllowed: async () => true, crawlDelayMs: () => 99_999_999_999_000 },
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    expect(summary.pagesFetched).toBe(2);
    expect(slept).toEqual([3_600_000]);
  });
});
