// Politeness that adapts, against a loopback server that logs when each
// request arrived and what it answered: a 429 or 503 with Retry-After pauses the whole
// host (no request of any task reaches it meanwhile, but those already in flight),
// repeated 429s lower its rate, and the progress line, the summary line and the
// --json summary say so with the figures the server saw.

import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/cli/format-summary.js';
import type { CrawlSummary } from '../../src/crawl/index.js';
import { Sink, jsonLines, run } from '../cli/cli-harness.js';

interface Arrival {
  readonly path: string;
  readonly at: number;
  /** When the answer was sent. */
  sentAt?: number;
  /** Its place in the order the requests came in (robots.txt included). */
  readonly seq?: number;
  readonly status: number;
  readonly retryAfter: string | undefined;
}

interface LoggedSite {
  readonly origin: string;
  readonly arrivals: Arrival[];
}

type Answer = readonly [status: number, headers?: Record<string, string>];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
});
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-politeness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A site on 127.0.0.1: `/` links to `pages`; `answer(n, path)` may override the nth request's answer (robots.txt aside). */
async function site(pages: readonly string[], answer: (n: number, path: string) => Answer | undefined | Promise<Answer | undefined>): Promise<LoggedSite> {
  const arrivals: Arrival[] = [];
  let n = 0;
  let count = 0;
  const server = createServer((request, response) => {
    const at = Date.now();
    const seq = ++count;
    const target = request.url ?? '/';
    void (async () => {
      let [status, headers]: Answer = [200, { 'content-type': 'text/html; charset=utf-8' }];
      if (target === '/robots.txt') status = 404;
      else {
        const override = await answer(++n, target);
        if (override !== undefined) [status, headers] = override;
      }
      const arrival: Arrival = { path: target, at, seq, status, retryAfter: headers?.['retry-after'] };
      arrivals.push(arrival);
      response.writeHead(status, headers);
      response.end(target === '/' && status === 200 ? pages.map((p) => `<a href="${p}">${p}</a>`).join('') : '<p>page</p>');
      arrival.sentAt = Date.now();
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

/** The summary as printed, a wrapped line joined again. */
function shown(summary: CrawlSummary): string {
  return formatSummary(summary).join('\n').replace(/\n {12}/g, ' ');
}

/** A terminal stderr, so that the progress line is drawn. */
function terminal(): Sink {
  return Object.assign(new Sink(), { isTTY: true, columns: 400 });
}

const FLAGS = ['--allow-private', '--no-sitemap', '--json', '--concurrency', '4', '--per-host-concurrency', '3'];

describe('a 429 with Retry-After, twice', () => {
  it('pauses the whole host, halves its rate, and every figure shown is what the server sent', async () => {
    // `/` first, then three pages at once: none is answered before all three came (so that
    // none is sent after a 429 was), then the first two get 429 with Retry-After: 2.
    let release: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (release = resolve));
    setTimeout(release, 10_000).unref();
    const logged = await site(['/p1', '/p2', '/p3', '/p4'], async (n) => {
      if (n === 4) release();
      if (n >= 2 && n <= 4) await together;
      return n === 2 || n === 3 ? [429, { 'retry-after': '2' }] : undefined;
    });
    const stderr = terminal();
    const result = await run(['crawl', `${logged.origin}/`, '--db', path.join(dir, 'too-many.db'), ...FLAGS], { stderr });
    expect(result.code).toBe(0);
    const arrivals = logged.arrivals;
    const refusals = arrivals.filter((a) => a.status === 429);
    expect(refusals).toHaveLength(2);
    // Every request that came after the three (sent after the 429s were) came 2 s after them or later.
    const last429 = Math.min(...refusals.map((a) => a.sentAt!));
    const third = Math.max(...refusals.map((a) => a.seq!), arrivals.find((a) => a.status === 200 && a.path.startsWith('/p'))!.seq!);
    const after = arrivals.filter((a) => a.seq! > third).sort((a, b) => a.at - b.at);
    const firstThree = arrivals.filter((a) => a.seq! <= third).map((a) => a.path);
    const fourth = ['/p1', '/p2', '/p3', '/p4'].filter((p) => !firstThree.includes(p));
    expect(after.map((a) => a.path).sort()).toEqual([...refusals.map((r) => r.path), ...fourth].sort());
    // Timers may fire a millisecond or two early against Date.now().
    for (const a of after) expect(a.at - last429, a.path).toBeGreaterThanOrEqual(2000 - 10);
    // Two 429s: one request every 2 s from then on, not three at once.
    for (let i = 1; i < after.length; i++) expect(after[i]!.at - after[i - 1]!.at, after[i]!.path).toBeGreaterThanOrEqual(2000 - 10);
    const summary = jsonLines(result).at(-1) as CrawlSummary;
    expect(summary.requests).toBe(arrivals.length);
    expect(summary.politeness).toEqual([
      { host: '127.0.0.1', pauses: refusals.length, longestPauseMs: 2000, tooManyRequests: refusals.length, slowestDelayMs: 2000, delayMs: 2000 },
    ]);
    expect(shown(summary)).toMatch(/^politeness {2}127\.0\.0\.1 paused 2× by Retry-After \(longest 2 s\); 2 × 429: rate lowered to 1 request \/ 2 s \(now 1 \/ 2 s\)$/m);
    // The progress line showed the pause with its seconds left, and the lowered rate.
    expect(stderr.text).toMatch(/; paused 127\.0\.0\.1 [12] s/);
    expect(stderr.text).toContain('; 127.0.0.1 at 1 request / 2 s');
  }, 60_000);
});

describe('external links', () => {
  it('a 429 to a link check pauses that host for the other checks too', async () => {
    const arrivals: Arrival[] = [];
    const external = createServer((request, response) => {
      const isRobots = request.url === '/robots.txt';
      const first = !isRobots && !arrivals.some((a) => a.status === 429);
      const status = isRobots ? 404 : first ? 429 : 200;
      arrivals.push({ path: `${request.method} ${request.url}`, at: Date.now(), status, retryAfter: first ? '2' : undefined });
      response.writeHead(status, first ? { 'retry-after': '2' } : {}).end();
    });
    servers.push(external);
    await new Promise<void>((resolve) => external.listen(0, '127.0.0.2', resolve));
    const other = `http://127.0.0.2:${(external.address() as AddressInfo).port}`;
    const logged = await site([1, 2, 3, 4].map((i) => `${other}/e${i}`), () => undefined);
    const result = await run(['crawl', `${logged.origin}/`, '--db', path.join(dir, 'external.db'), ...FLAGS, '--per-host-concurrency', '1', '--retries', '0']);
    expect(result.code).toBe(0);
    // Its robots.txt (404), the first HEAD (429, Retry-After: 2), then nothing for 2 s: three HEADs after it.
    expect(arrivals.map((a) => a.status)).toEqual([404, 429, 200, 200, 200]);
    const refusal = arrivals[1]!;
    for (const a of arrivals.slice(2)) expect(a.at - refusal.at, a.path).toBeGreaterThanOrEqual(2000 - 10);
    expect((jsonLines(result).at(-1) as CrawlSummary).politeness).toEqual([
      { host: '127.0.0.2', pauses: 1, longestPauseMs: 2000, tooManyRequests: 1, slowestDelayMs: 1000, delayMs: 1000 },
    ]);
    const summary = jsonLines(result).at(-1) as CrawlSummary;
    expect(summary.requests).toBe(arrivals.length + logged.arrivals.length);
  }, 60_000);
});

describe('a Retry-After on the last attempt', () => {
  it('still pauses the host: the URL is recorded as answered, the others wait', async () => {
    const logged = await site(['/p1', '/p2', '/p3'], (n) => (n === 2 ? [503, { 'retry-after': '2' }] : undefined));
    const result = await run(['crawl', `${logged.origin}/`, '--db', path.join(dir, 'last-attempt.db'), ...FLAGS, '--retries', '0', '--per-host-concurrency', '1']);
    expect(result.code).toBe(0);
    const arrivals = logged.arrivals;
    const refusal = arrivals.find((a) => a.status === 503)!;
    const after = arrivals.filter((a) => a.at > refusal.at);
    expect(after).toHaveLength(2);
    for (const a of after) expect(a.at - refusal.at, a.path).toBeGreaterThanOrEqual(2000 - 10);
    const summary = jsonLines(result).at(-1) as CrawlSummary;
    expect(summary.errorsByCode).toEqual({ HTTP_503: 1 });
    expect(summary.politeness).toEqual([{ host: '127.0.0.1', pauses: 1, longestPauseMs: 2000, tooManyRequests: 0, slowestDelayMs: 0, delayMs: 0 }]);
  }, 60_000);
});

describe('a 503 with Retry-After as an HTTP-date', () => {
  it('pauses the host until that date, and lowers no rate', async () => {
    let until = 0;
    // Both pages are answered once both came: none is sent after the 503 was.
    let release: () => void = () => undefined;
    const together = new Promise<void>((resolve) => (release = resolve));
    setTimeout(release, 10_000).unref();
    const logged = await site(['/p1', '/p2'], async (n) => {
      if (n === 3) release();
      if (n === 2 || n === 3) await together;
      if (n !== 2) return undefined;
      // RFC 9110 §10.2.3: an HTTP-date, to the second: 2 to 3 s from now.
      until = (Math.floor(Date.now() / 1000) + 3) * 1000;
      return [503, { 'retry-after': new Date(until).toUTCString() }];
    });
    const result = await run(['crawl', `${logged.origin}/`, '--db', path.join(dir, 'unavailable.db'), ...FLAGS]);
    expect(result.code).toBe(0);
    const arrivals = logged.arrivals;
    const refusal = arrivals.find((a) => a.status === 503)!;
    const after = arrivals.filter((a) => a.seq! > Math.max(...arrivals.filter((b) => b.path.startsWith('/p')).slice(0, 2).map((b) => b.seq!)));
    expect(after.map((a) => a.path)).toEqual([refusal.path]);
    for (const a of after) expect(a.at, a.path).toBeGreaterThanOrEqual(until - 10);
    const summary = jsonLines(result).at(-1) as CrawlSummary;
    expect(summary.requests).toBe(arrivals.length);
    expect(summary.politeness).toHaveLength(1);
    expect(summary.politeness![0]).toMatchObject({ host: '127.0.0.1', pauses: 1, tooManyRequests: 0, slowestDelayMs: 0, delayMs: 0 });
    expect(summary.politeness![0]!.longestPauseMs).toBeGreaterThan(1000);
    expect(summary.politeness![0]!.longestPauseMs).toBeLessThanOrEqual(3000);
    expect(shown(summary)).toMatch(/^politeness {2}127\.0\.0\.1 paused 1× by Retry-After \(longest [\d.]+ s\)$/m);
  }, 60_000);

  it('a crawl that no host paused says nothing of politeness', async () => {
    const logged = await site(['/p1'], () => undefined);
    const result = await run(['crawl', `${logged.origin}/`, '--db', path.join(dir, 'calm.db'), ...FLAGS]);
    const summary = jsonLines(result).at(-1) as CrawlSummary;
    expect(summary.politeness).toEqual([]);
    expect(formatSummary(summary).join('\n')).not.toContain('politeness');
  }, 60_000);
});
