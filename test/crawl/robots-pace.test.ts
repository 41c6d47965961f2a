// robots.txt's Crawl-delay held from a host's first request (robots-pace.ts), in one
// process on a SQLite index: the delay is learned when the first task reads robots.txt,
// before its own request, and no other task on the host starts before then. A host
// without a Crawl-delay is not slowed beyond its first request's wait for robots.txt.
// The crawl runs in a process of its own (test/support/crawl-worker.mjs), so that the
// server's times are not those of a handler waiting for the crawl's own work.

import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/built-cli.js';
import { killAll, startWorker } from '../support/crawl-workers.js';
import { serveMultiHostSite, type MultiHostSite } from '../support/multi-host-site.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-robots-pace-'));
const running = new Set<ChildProcess>();
let site: MultiHostSite | undefined;

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

afterEach(async () => {
  killAll(running);
  await site?.close();
  site = undefined;
});

/** Crawl `seeds` into the SQLite index `file` in a process of its own; resolves with its summary line. */
async function crawlInProcess(file: string, seeds: readonly string[], options: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const exit = await startWorker({ db: path.join(dir, file), seeds, workerId: file, options: { allowPrivate: true, sitemap: false, ...options } }, running).exit;
  expect(exit.code, exit.stderr).toBe(0);
  return exit.lines.at(-1);
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isSiteFile = (url: string): boolean => url.endsWith('/robots.txt') || url.endsWith('/sitemap.xml');

/** When each request on `host` reached the server (ms), robots.txt and sitemaps left out. */
function startsOn(site: MultiHostSite, host: string): number[] {
  return site.requests.filter((r) => r.host === host && !isSiteFile(r.url)).map((r) => r.at);
}

const gaps = (starts: readonly number[]): number[] => starts.slice(1).map((at, i) => at - starts[i]!);

/**
 * What passes between the crawler's start of a request and its arrival at the server's
 * handler differs from one request to the next: up to ~30 ms either way measured on a
 * loaded 2-core machine (a gap of 532 ms followed by one of 473). The starts the crawler
 * recorded (fetch.started_at, taken as each request is sent) are held exactly.
 */
const TOLERANCE_MS = 50;

/** Gaps between the starts recorded in the SQLite index `file` (ms), oldest first. */
function recordedGaps(file: string): number[] {
  const db = new Database(path.join(dir, file), { readonly: true });
  try {
    return gaps(db.prepare('SELECT started_at FROM fetch ORDER BY started_at').pluck().all() as number[]);
  } finally {
    db.close();
  }
}

describe("robots.txt's Crawl-delay from a host's first request (SQLite)", () => {
  it('a host whose robots.txt says Crawl-delay: 0.5, its pages all queued, concurrency 8: every gap between starts is at least 0.5 s, the first one too', async () => {
    const delayed = '127.0.0.2';
    site = await serveMultiHostSite({ hosts: [delayed], pagesPerHost: 10, imagesPerHost: 1, latencyMs: 20, robots: { [delayed]: 'User-agent: *\nCrawl-delay: 0.5\n' } });
    // Every page a seed: the host's whole line is queued before its first request.
    const seeds = site.resources.filter((url) => url.endsWith('.html') || url.endsWith('/'));
    expect(await crawlInProcess('delayed.db', seeds, { concurrency: 8, perHostConcurrency: 8 })).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
    const starts = startsOn(site, delayed);
    expect(starts).toHaveLength(site.resources.length);
    const recorded = recordedGaps('delayed.db');
    expect(recorded).toHaveLength(site.resources.length - 1);
    expect(Math.min(...recorded), recorded.join(' ')).toBeGreaterThanOrEqual(500);
    const seen = gaps(starts);
    expect(Math.min(...seen), seen.map(Math.round).join(' ')).toBeGreaterThanOrEqual(500 - TOLERANCE_MS);
  }, 60_000);

  it('a host without a Crawl-delay: once robots.txt answered, its requests start together (not one after another)', async () => {
    const host = '127.0.0.3';
    site = await serveMultiHostSite({ hosts: [host], pagesPerHost: 8, imagesPerHost: 1, latencyMs: 300, robots: { [host]: 'User-agent: *\nDisallow: /private/\n' } });
    const seeds = site.resources.filter((url) => url.endsWith('.html') || url.endsWith('/'));
    expect(await crawlInProcess('free.db', seeds, { concurrency: 8, perHostConcurrency: 4 })).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
    // The first four start within a fraction of one answer's 300 ms: none waited for another's response.
    const starts = startsOn(site, host);
    expect(starts[3]! - starts[0]!).toBeLessThan(150);
    expect(site.maxInFlightByHost.get(host)).toBe(4);
  }, 60_000);
});
