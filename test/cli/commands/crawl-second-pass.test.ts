// `linkladder crawl --second-pass`, in-process: an external link left unverified is
// asked once more after its Retry-After, and Ctrl-C during that wait ends the crawl at
// once, its first answer kept; `explain` of an answer the verdict cache gave. The site
// is 127.0.0.1; 127.0.0.2 plays another site.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../../src/api.js';
import { readVerdictCache, type CrawlSummary } from '../../../src/crawl/index.js';
import { MemoryStore } from '../../../src/store/index.js';
import { closeHosts, host, siteLinkingTo } from '../../crawl/logged-host.js';
import { FakeInterrupts, jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-second-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(closeHosts);

const FLAGS = ['--allow-private', '--retries', '0', '--no-sitemap', '--json'];

describe('linkladder crawl --second-pass', () => {
  it('asks an unverified external link once more after its Retry-After: 503, then 200', async () => {
    const other = await host('127.0.0.2', () => ({ '/robots.txt': [404], '/flaky': (n) => (n <= 2 ? [503, { 'retry-after': '1' }] : [200]) }));
    const site = await siteLinkingTo(other, ['/flaky']);
    const result = await run(['crawl', `${site.origin}/`, '--db', path.join(dir, 'ok.db'), '--second-pass', ...FLAGS]);
    expect(result.code).toBe(0);
    expect(other.log).toEqual(['GET /robots.txt', 'HEAD /flaky', 'GET /flaky', 'GET /flaky']);
    expect(jsonLines(result).at(-1) as CrawlSummary).toMatchObject({ secondPassAsked: 1, secondPassOk: 1, externalBroken: 0 });
  }, 30_000);

  it('Ctrl-C during the wait stops at once: exit 130, nothing asked again', async () => {
    const other = await host('127.0.0.2', () => ({ '/robots.txt': [404], '/down': [503, { 'retry-after': '60' }] }));
    const site = await siteLinkingTo(other, ['/down']);
    const interrupts = new FakeInterrupts();
    const startedAt = Date.now();
    const running = run(['crawl', `${site.origin}/`, '--db', path.join(dir, 'int.db'), '--second-pass', ...FLAGS], { onInterrupt: interrupts.source });
    while (!other.log.includes('GET /down')) await delay(20);
    await delay(300);
    interrupts.interrupt('SIGINT');
    const result = await running;
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(result.code).toBe(130);
    expect(other.log).toEqual(['GET /robots.txt', 'HEAD /down', 'GET /down']);
    const events = jsonLines(result) as { type: string; secondPassInMs?: number }[];
    // The wait showed in the progress events.
    expect(events.some((event) => event.type === 'progress' && (event.secondPassInMs ?? 0) > 50_000)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'summary', stoppedBy: 'signal', secondPassAsked: 0, errorsByCode: { HTTP_503: 1 } });
  }, 30_000);
});

describe('linkladder explain of an answer from the verdict cache', () => {
  it('says when it was asked, and that this run did not ask', async () => {
    const other = await host('127.0.0.2', () => ({ '/gone': [404] }));
    const site = await siteLinkingTo(other, ['/gone']);
    const options = { allowPrivate: true, retries: 0, sitemap: false, robots: false } as const;
    const first = new MemoryStore();
    await crawl(`${site.origin}/`, { ...options, store: first });
    const verdictCache = await readVerdictCache(first.reader(), { now: Date.now(), maxAgeMs: 60_000 });
    const askedAt = new Date(verdictCache.get(`${other.origin}/gone`)!.startedAt).toISOString();
    const db = path.join(dir, 'cached.db');
    await crawl(`${site.origin}/`, { ...options, db, verdictCache });
    const result = await run(['explain', `${other.origin}/gone`, '--db', db]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`fetch     ${askedAt}  from the cache of ${askedAt.slice(0, 10)} (asked then by an earlier run): status 404, not requested this run`);
    expect(result.out.find((line) => line.startsWith('verdict'))).toBe(
      `verdict   fetched: answered from the cache of ${askedAt} (an earlier run asked it with GET) (status 404): no request this run`,
    );
  });
});
