// A crawl SIGKILLed again and again (the built executable, a site on 127.0.0.1):
// after each kill the index is read, and what the server received is checked
// against it. A kill cuts off exactly the requests whose answers were not yet
// committed (in flight, or in the group of units still open): those, and only
// those, are sent again on resume; `stats` counts every other request, the
// killed runs' included, so that it plus what the kills cut off is what the server saw.

import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndexReader } from '../../src/store/index.js';
import { ensureBuilt, spawnCli } from './built-cli.js';

/** Pages of the site: page n links to pages 10n+1 … 10n+10 and to the directory /d(n mod 9), which redirects to /d(n mod 9)/. */
const PAGES = 600;
const KILLS = 6;
/** A tmpfs this small fills up part way through a crawl of the site. */
const FULL_DISK_SIZE = '1m';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-kill-requests-'));
const children = new Set<ChildProcess>();
/** Every request the server received, as its path. */
const log: string[] = [];
let server: Server;
let origin = '';

function page(n: number): string {
  const links = [`/d${n % 9}`];
  for (let c = 10 * n + 1; c <= 10 * n + 10 && c < PAGES; c++) links.push(`/p${c}.html`);
  return `<!doctype html><title>p${n}</title>${links.map((href) => `<a href="${href}">x</a>`).join('')}`;
}

beforeAll(async () => {
  await ensureBuilt();
  server = createServer((req, res) => {
    const target = req.url ?? '/';
    log.push(target);
    const n = target === '/' ? 0 : Number(/^\/p(\d+)\.html$/.exec(target)?.[1] ?? NaN);
    if (Number.isInteger(n) && n < PAGES) res.writeHead(200, { 'content-type': 'text/html' }).end(page(n));
    else if (/^\/d\d$/.test(target)) res.writeHead(301, { location: `${target}/` }).end();
    else if (/^\/d\d\/$/.test(target)) res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
}, 120_000);

/** A tmpfs of `size` mounted at `at` (root only): the crawl's disk fills up. `undefined` when it cannot be mounted. */
function mountTmpfs(at: string, size: string): string | undefined {
  mkdirSync(at, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { encoding: 'utf8' });
  return mounted.status === 0 ? at : undefined;
}

let mounted: string | undefined;

afterAll(async () => {
  if (mounted !== undefined) spawnSync('umount', [mounted]);
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The paths whose answers the index holds: its settled URLs, and the sitemaps it recorded. */
async function recordedPaths(db: string): Promise<Set<string>> {
  const reader = await openIndexReader(db);
  try {
    const paths = new Set<string>();
    for await (const url of reader.urls()) if (url.state !== 'queued' && url.state !== 'fetching') paths.add(url.key.slice(origin.length));
    for await (const sitemap of reader.sitemaps?.() ?? []) paths.add(sitemap.url.slice(origin.length));
    return paths;
  } finally {
    await reader.close();
  }
}

/** Requests a run cut off: sent by it (`sent`), their answers not in the index after it (robots.txt aside). */
async function addCutOff(cutOff: Map<string, number>, sent: readonly string[], db: string): Promise<number> {
  const recorded = await recordedPaths(db);
  let count = 0;
  for (const target of sent) {
    if (target === '/robots.txt' || recorded.has(target)) continue;
    cutOff.set(target, (cutOff.get(target) ?? 0) + 1);
    count++;
  }
  return count;
}

/**
 * Check the server's requests for one index (`sent`, from its first run to its last,
 * which ended) against it: each path once, and once more for each run that cut its
 * request off — never a request whose answer was committed, /sitemap.xml's included —
 * and `stats` counts every request but those cut off.
 */
async function expectOnlyCutOffRepeated(sent: readonly string[], cutOff: ReadonlyMap<string, number>, db: string, runsNotEnded: number): Promise<void> {
  const counts = new Map<string, number>();
  for (const target of sent) counts.set(target, (counts.get(target) ?? 0) + 1);
  const beyondCutOff = [...counts].filter(([target, count]) => target !== '/robots.txt' && count > 1 + (cutOff.get(target) ?? 0));
  expect(beyondCutOff).toEqual([]);
  expect(counts.size).toBe(PAGES + 9 * 2 + 2); // the pages ("/" is page 0), /dN and /dN/, robots.txt and sitemap.xml

  const stats = JSON.parse((await spawnCli(['stats', '--db', db, '--json'], children).exit).stdout) as {
    requests: { fetches: number; retries: number; redirects: number; robots: number; sitemaps: number };
    runsNotEnded?: number;
  };
  const { fetches, retries, redirects, robots, sitemaps } = stats.requests;
  const sentOtherThanRobots = sent.filter((target) => target !== '/robots.txt').length;
  const cutOffTotal = [...cutOff.values()].reduce((sum, n) => sum + n, 0);
  expect(sitemaps).toBe((counts.get('/sitemap.xml') ?? 0) - (cutOff.get('/sitemap.xml') ?? 0));
  expect({ counted: fetches + retries + redirects + sitemaps, runsNotEnded: stats.runsNotEnded }).toEqual({ counted: sentOtherThanRobots - cutOffTotal, runsNotEnded });
  expect(robots).toBeLessThanOrEqual(counts.get('/robots.txt') ?? 0);
}

function crawlInto(db: string): ReturnType<typeof spawnCli> {
  return spawnCli(['crawl', `${origin}/`, '--db', db, '--allow-private', '--concurrency', '4', '--per-host-concurrency', '4'], children);
}

describe('requests of a crawl killed with SIGKILL', () => {
  it('are sent again only when a kill cut them off, and stats counts all the others, the killed runs\' too', async () => {
    const db = path.join(dir, 'killed.db');
    const first = log.length;
    const cutOff = new Map<string, number>();
    let cutOffTotal = 0;
    for (let k = 0; k < KILLS; k++) {
      const start = log.length;
      const { child, exit } = crawlInto(db);
      // Kills at varied points: as a request arrives, or a few ms after (answers being recorded, a group open).
      while (log.length < start + 15 + 13 * k) await sleep(1);
      await sleep((k * 7) % 25);
      child.kill('SIGKILL');
      expect(await exit, 'the crawl ended before it was killed: kill sooner').toMatchObject({ signal: 'SIGKILL' });
      cutOffTotal += await addCutOff(cutOff, log.slice(start), db);
    }
    const last = await crawlInto(db).exit;
    expect(last.code).toBe(0);
    expect(last.stdout).toMatch(/^crawl {7}finished: the frontier is empty$/m);
    await expectOnlyCutOffRepeated(log.slice(first), cutOff, db, KILLS);
    expect(cutOffTotal, 'the kills cut nothing off: kill at other points').toBeGreaterThan(0);
  }, 120_000);
});

describe('requests of a crawl whose disk fills up', () => {
  it('end with the summary and one line; the next run sends again only what the failed commit lost', async (context) => {
    mounted = mountTmpfs(path.join(dir, 'full'), FULL_DISK_SIZE);
    if (mounted === undefined) return context.skip('a tmpfs cannot be mounted here (not root)');
    const db = path.join(mounted, 'full.db');
    const first = log.length;
    const failed = await crawlInto(db).exit;
    expect(failed.code).toBe(3);
    expect(failed.stdout).toMatch(/^crawl {7}stopped on a fatal error \(on stderr\); run it again to resume$/m);
    expect(failed.stdout).toMatch(/^requests {4}\d+: /m);
    expect(failed.stderr).toMatch(/^linkladder: error: the crawl stopped on a fatal error: ERR_STORE_WRITE_FAILED: .*database or disk is full\n$/);
    const cutOff = new Map<string, number>();
    await addCutOff(cutOff, log.slice(first), db);
    expect(log.length - first, 'the disk filled before the crawl began: give it more room').toBeGreaterThan(20);
    // Room again: the run after resumes.
    expect(spawnSync('mount', ['-o', 'remount,size=256m', mounted]).status).toBe(0);
    const last = await crawlInto(db).exit;
    expect(last.code).toBe(0);
    await expectOnlyCutOffRepeated(log.slice(first), cutOff, db, 1);
  }, 60_000);
});
