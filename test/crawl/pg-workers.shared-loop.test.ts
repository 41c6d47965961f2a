// The crawl loop on a shared frontier, with a fake SharedFrontier on the
// MemoryStore: the politeness it is given, a claim that gave nothing asked again
// after whenIdle's retryInMs (while nothing is in flight, and while requests are),
// the end when whenIdle says over, robots.txt Crawl-delay passed on, progress
// reported, and sitemaps read only by the worker whose seeds were new.

import { describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { MemoryStore, type FrontierIdle, type SharedFrontier, type SharedPoliteness } from '../../src/store/index.js';
import { FakeSite, fakeRobots, page } from './fake-site.js';

const NO_SITEMAP = { sitemap: false } as const;

class FakeShared implements SharedFrontier {
  readonly workerId = 'w1';
  politeness: SharedPoliteness | undefined;
  readonly hostDelays: [string, number][] = [];
  readonly progress: Record<string, number>[] = [];
  readonly idleAnswers: FrontierIdle[] = [];
  idleCalls = 0;
  /** Called at each whenIdle, before it answers (another worker's doing). */
  onIdle: (call: number) => Promise<void> = async () => {};

  setPoliteness(politeness: SharedPoliteness): void {
    this.politeness = politeness;
  }

  async setHostDelay(host: string, delayMs: number): Promise<void> {
    this.hostDelays.push([host, delayMs]);
  }

  async whenIdle(): Promise<FrontierIdle> {
    this.idleCalls++;
    await this.onIdle(this.idleCalls);
    return this.idleAnswers.shift() ?? { isOver: true, retryInMs: 0 };
  }

  async reportProgress(counts: Readonly<Record<string, number>>): Promise<void> {
    this.progress.push({ ...counts });
  }
}

class SharedMemoryStore extends MemoryStore {
  readonly shared: FakeShared;
  claims: number[] = [];

  constructor(shared: FakeShared) {
    super();
    this.shared = shared;
  }

  override async claim(limit: number) {
    const claimed = await super.claim(limit);
    this.claims.push(claimed.length);
    return claimed;
  }
}

describe('a crawl on a shared frontier', () => {
  it('is given the crawl options as the politeness every worker keeps', async () => {
    const shared = new FakeShared();
    const fetcher = new FakeSite({ 'http://a.test/': { body: page() } });
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(shared), fetcher, perHostConcurrency: 3, perHostDelayMs: 40 });
    expect(shared.politeness).toEqual({ perHostConcurrency: 3, perHostDelayMs: 40 });
  });

  it('ends when a claim gave nothing and whenIdle says over', async () => {
    const shared = new FakeShared();
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1') }, 'http://a.test/1': { body: page() } });
    const summary = await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(shared), fetcher });
    expect(summary.pagesFetched).toBe(2);
    expect(summary.stoppedBy).toBe('frontier-empty');
    expect(shared.idleCalls).toBeGreaterThanOrEqual(1);
  });

  it('not over: waits retryInMs and claims again, and fetches what another worker queued meanwhile', async () => {
    const shared = new FakeShared();
    const store = new SharedMemoryStore(shared);
    shared.idleAnswers.push({ isOver: false, retryInMs: 30 }, { isOver: false, retryInMs: 30 });
    const slept: number[] = [];
    shared.onIdle = async (call) => {
      // Another worker's page named a URL: queued in the shared index.
      if (call === 2) await store.admit([{ rawHref: 'http://a.test/other', target: 'http://a.test/other', depth: 1 }]);
    };
    const fetcher = new FakeSite({ 'http://a.test/': { body: page() }, 'http://a.test/other': { body: page() } });
    const summary = await runCrawler({
      ...NO_SITEMAP,
      seeds: ['http://a.test/'],
      store,
      fetcher,
      sleep: async (ms, signal) => {
        slept.push(ms);
        await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50)));
        signal?.throwIfAborted();
      },
    });
    expect(fetcher.calls).toEqual(['http://a.test/', 'http://a.test/other']);
    expect(summary.pagesFetched).toBe(2);
    expect(slept).toContain(30);
    // Over only once the URL queued by the other worker was fetched.
    expect(shared.idleCalls).toBe(3);
  });

  it('a claim that gave nothing is retried on a timer while requests are in flight', async () => {
    const shared = new FakeShared();
    const store = new SharedMemoryStore(shared);
    // Another worker queues b.test while a.test's slow request is in flight.
    setTimeout(() => void store.admit([{ rawHref: 'http://b.test/', target: 'http://b.test/', depth: 0 }]), 50);
    const started: Record<string, number> = {};
    const fetcher = new FakeSite({ 'http://a.test/': { body: page(), latencyMs: 400 }, 'http://b.test/': { body: page() } });
    const t0 = Date.now();
    const origin = fetcher.fetch.bind(fetcher);
    fetcher.fetch = async (url, options) => {
      started[url] = Date.now() - t0;
      return origin(url, options);
    };
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store, fetcher });
    // b.test was queued while a.test's slow request was in flight: claimed on the retry timer, not after a.test ended.
    expect(started['http://b.test/']).toBeLessThan(300);
    // whenIdle is asked only with nothing in flight.
    expect(shared.idleCalls).toBe(1);
  });

  it('a claim that gave nothing while the others are over waits for its own requests (no busy loop)', async () => {
    const shared = new FakeShared();
    const store = new SharedMemoryStore(shared);
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1'), latencyMs: 150 }, 'http://a.test/1': { body: page() } });
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store, fetcher, concurrency: 1 });
    expect(fetcher.calls).toEqual(['http://a.test/', 'http://a.test/1']);
    expect(store.claims.length).toBeLessThan(10);
  });

  it("passes robots.txt's Crawl-delay on, once per host, when it is above perHostDelayMs", async () => {
    const shared = new FakeShared();
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1') }, 'http://a.test/1': { body: page() }, 'http://b.test/': { body: page() } });
    const robots = fakeRobots(() => true, 20);
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/', 'http://b.test/'], store: new SharedMemoryStore(shared), fetcher, robots });
    expect(shared.hostDelays.sort()).toEqual([['a.test', 20], ['b.test', 20]]);
    const lower = new FakeShared();
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(lower), fetcher, robots, perHostDelayMs: 50 });
    expect(lower.hostDelays).toEqual([]);
  });

  it('reports the worker progress at the end', async () => {
    const shared = new FakeShared();
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1') }, 'http://a.test/1': { body: page() } });
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(shared), fetcher });
    expect(shared.progress.at(-1)).toEqual({ requests: 2, fetched: 2, failed: 0, links: 1, queued: 2, fetchesSaved: 0, inFlight: 0 });
  });

  it('reports about every second while it runs', async () => {
    const shared = new FakeShared();
    const resources: Record<string, { body: string; latencyMs: number }> = { 'http://a.test/': { body: page('/1', '/2', '/3', '/4', '/5', '/6'), latencyMs: 300 } };
    for (let i = 1; i <= 6; i++) resources[`http://a.test/${i}`] = { body: page(), latencyMs: 300 };
    await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(shared), fetcher: new FakeSite(resources) });
    // 7 requests one after another, 300 ms each: ~2.1 s, reported about twice before the end.
    expect(shared.progress.length).toBeGreaterThanOrEqual(2);
    expect(shared.progress.length).toBeLessThanOrEqual(4);
  });

  it('maxPages is this worker budget: it ends when spent, without waiting for the others', async () => {
    const shared = new FakeShared();
    shared.idleAnswers.push(...Array.from({ length: 100 }, () => ({ isOver: false, retryInMs: 1000 })));
    const fetcher = new FakeSite({ 'http://a.test/': { body: page('/1', '/2') }, 'http://a.test/1': { body: page() }, 'http://a.test/2': { body: page() } });
    const started = Date.now();
    const summary = await runCrawler({ ...NO_SITEMAP, seeds: ['http://a.test/'], store: new SharedMemoryStore(shared), fetcher, maxPages: 2, concurrency: 1 });
    expect(summary.stoppedBy).toBe('max-pages');
    expect(fetcher.calls).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('sitemaps are read once for the index: a worker that comes later reads none that another read', async () => {
    const resources = {
      'http://a.test/': { body: page() },
      'http://a.test/sitemap.xml': { body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://a.test/s</loc></url></urlset>', contentType: 'application/xml' },
      'http://a.test/s': { body: page() },
    };
    const index = new SharedMemoryStore(new FakeShared());
    const fetcher = new FakeSite(resources);
    await runCrawler({ seeds: ['http://a.test/'], store: index, fetcher });
    expect(fetcher.calls).toContain('http://a.test/sitemap.xml');
    // A second worker on the same index, with the same seed: the sitemap frontier says it was read.
    const again = new FakeSite(resources);
    await runCrawler({ seeds: ['http://a.test/'], store: index, fetcher: again });
    expect(again.calls).not.toContain('http://a.test/sitemap.xml');
  });
});
