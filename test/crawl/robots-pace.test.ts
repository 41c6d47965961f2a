// robots.txt's Crawl-delay held from a host's first request (robots-pace.ts), in one
// process on a SQLite index: the delay is learned when the first task reads robots.txt,
// before its own request, and no other task on the host starts before then. A host
// without a Crawl-delay is not slowed beyond its first request's wait for robots.txt.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/index.js';
import { serveMultiHostSite, type MultiHostSite } from '../support/multi-host-site.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-robots-pace-'));
let site: MultiHostSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isSiteFile = (url: string): boolean => url.endsWith('/robots.txt') || url.endsWith('/sitemap.xml');

/** When each request on `host` reached the server (ms), robots.txt and sitemaps left out. */
function startsOn(site: MultiHostSite, host: string): number[] {
  return site.requests.filter((r) => r.host === host && !isSiteFile(r.url)).map((r) => r.at);
}

const gaps = (starts: readonly number[]): number[] => starts.slice(1).map((at, i) => at - starts[i]!);

/**
 * What passes between the crawler's start of a request and its arrival at the server's
 * handler may differ from one request to the next by this much (a loaded machine).
 */
const TOLERANCE_MS = 15;

describe("robots.txt's Crawl-delay from a host's first request (SQLite)", () => {
  it('a host whose robots.txt says Crawl-delay: 0.5, its pages all queued, concurrency 8: every gap between starts is at least 0.5 s, the first one too', async () => {
    const delayed = '127.0.0.2';
    site = await serveMultiHostSite({ hosts: [delayed], pagesPerHost: 10, imagesPerHost: 1, latencyMs: 20, robots: { [delayed]: 'User-agent: *\nCrawl-delay: 0.5\n' } });
    // Every page a seed: the host's whole line is queued before its first request.
    const seeds = site.resources.filter((url) => url.endsWith('.html') || url.endsWith('/'));
    const summary = await crawl(seeds, { db: path.join(dir, 'delayed.db'), allowPrivate: true, sitemap: false, concurrency: 8, perHostConcurrency: 8 });
    expect(summary.stoppedBy).toBe('frontier-empty');
    const starts = startsOn(site, delayed);
    expect(starts).toHaveLength(site.resources.length);
    const list = gaps(starts);
    expect(Math.min(...list), list.map(Math.round).join(' ')).toBeGreaterThanOrEqual(500 - TOLERANCE_MS);
  }, 60_000);

  it('a host without a Crawl-delay: once robots.txt answered, its requests start together (not one after another)', async () => {
    const host = '127.0.0.3';
    site = await serveMultiHostSite({ hosts: [host], pagesPerHost: 8, imagesPerHost: 1, latencyMs: 300, robots: { [host]: 'User-agent: *\nDisallow: /private/\n' } });
    const seeds = site.resources.filter((url) => url.endsWith('.html') || url.endsWith('/'));
    const summary = await crawl(seeds, { db: path.join(dir, 'free.db'), allowPrivate: true, sitemap: false, concurrency: 8, perHostConcurrency: 4 });
    expect(summary.stoppedBy).toBe('frontier-empty');
    // The first four start within a fraction of one answer's 300 ms: none waited for another's response.
    const starts = startsOn(site, host);
    expect(starts[3]! - starts[0]!).toBeLessThan(150);
    expect(site.maxInFlightByHost.get(host)).toBe(4);
  }, 60_000);
});
