// A crawl killed at any instant resumes from the database with nothing lost and
// nothing fetched twice but what was in flight or not yet committed: the built
// executable, SIGKILLed three times mid-crawl of the demo site, then run to its end.

import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequestLog, startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { GROUP_COMMIT_DEFAULTS, SqliteStore } from '../../src/store/index.js';
import { ensureBuilt, spawnCli, type CliExit } from './built-cli.js';
import { ROBOTS, untilRequests } from './demo-crawl.js';

/**
 * The longest redirect chain of the demo site (/chain/start → /chain/moved/ →
 * /chain/moved/end.html): one fetch in flight is at most this many requests.
 */
const LONGEST_CHAIN = 3;

/** One host, `--per-host-concurrency` 1 (the default): at most one fetch in flight when a kill comes. */
const IN_FLIGHT_PER_KILL = 1;

/** The `--per-host-delay-ms` of these crawls. */
const DELAY_MS = 20;

/**
 * The index commits its units in groups open 50 ms at most (GROUP_COMMIT_DEFAULTS):
 * a kill loses the records of the pages settled in the open group — one every
 * DELAY_MS at most — and those are fetched again on resume.
 */
const UNCOMMITTED_PER_KILL = Math.ceil(GROUP_COMMIT_DEFAULTS.maxMs / DELAY_MS);

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-kill-'));
const children = new Set<ChildProcess>();
let server: DemoServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startDemoServer();
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function startCrawl(db: string, extra: readonly string[] = []): { child: ChildProcess; exit: Promise<CliExit> } {
  // Sitemaps on (the default): they are read again until a run has recorded them all, so a kill before
  // the entries of /sitemap.xml are committed loses none of them.
  return spawnCli(['crawl', `${server.origin}/`, '--db', db, '--allow-private', ...extra], children);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function integrityOf(db: string): Promise<{ integrity: string; fetching: number; queued: number }> {
  const store = new SqliteStore({ path: db, mustExist: true });
  try {
    const { fetching, queued } = (await store.stats()).urlsByState;
    return { integrity: store.integrityCheck(), fetching, queued };
  } finally {
    await store.close();
  }
}

describe('a crawl killed with SIGKILL', () => {
  it('resumes three times and finishes: nothing missing, nothing forbidden, repeats only of what was in flight or uncommitted', async () => {
    const db = path.join(dir, 'killed.db');
    const start = server.requests.length;
    // Three points: as a request arrives (likely in flight), 15 ms after one (likely
    // between the response and its records, or waiting for --per-host-delay-ms), and 40 ms after.
    const kills = [
      { afterRequests: 3, thenMs: 0 },
      { afterRequests: 6, thenMs: 15 },
      { afterRequests: 5, thenMs: 40 },
    ];
    for (const kill of kills) {
      const { child, exit } = startCrawl(db, ['--per-host-delay-ms', String(DELAY_MS)]);
      await untilRequests(server, server.requests.length + kill.afterRequests);
      await sleep(kill.thenMs);
      child.kill('SIGKILL');
      const ended = await exit;
      expect(ended, 'the crawl ended before it was killed: kill sooner').toMatchObject({ signal: 'SIGKILL' });
    }
    const { exit } = startCrawl(db, ['--per-host-delay-ms', String(DELAY_MS)]);
    const last = await exit;
    // The last run takes over the writer lock the killed one left (its process is gone).
    expect(last.stderr).toMatch(/^linkladder: notice: took over the writer lock of .* from pid \d+ on host .*, which is no longer running\n$/);
    expect(last.code).toBe(0);
    expect(last.stdout).toMatch(/^crawl {7}finished: the frontier is empty$/m);

    const log = server.requests.slice(start);
    const check = checkRequestLog(log);
    expect({ ...check, log: check.missing.length + check.forbidden.length + check.unexpected.length > 0 ? log : [] }).toMatchObject({
      missing: [],
      forbidden: [],
      unexpected: [],
    });
    const runs = kills.length + 1;
    const robots = check.repeated.find(({ target }) => target === ROBOTS)?.count ?? 1;
    expect(robots).toBeLessThanOrEqual(runs); // read once per process, when it got that far
    const repeats = check.repeated.filter(({ target }) => target !== ROBOTS);
    for (const { count } of repeats) expect(count).toBeLessThanOrEqual(1 + kills.length);
    const extra = repeats.reduce((n, { count }) => n + count - 1, 0);
    expect(extra, JSON.stringify(repeats)).toBeLessThanOrEqual(kills.length * (IN_FLIGHT_PER_KILL + UNCOMMITTED_PER_KILL) * LONGEST_CHAIN);

    expect(await integrityOf(db)).toEqual({ integrity: 'ok', fetching: 0, queued: 0 });
  }, 60_000);

  // SIGTERM (what a service manager sends) is handled as SIGINT is, with its own exit code and words.
  it.each([
    ['SIGINT', 130, 'interrupted \\(Ctrl-C\\)'],
    ['SIGTERM', 143, 'terminated \\(SIGTERM\\)'],
  ] as const)('%s at the process level: exit %i after the summary, nothing left claimed', async (signal, code, words) => {
    const db = path.join(dir, `${signal}.db`);
    const { child, exit } = startCrawl(db, ['--per-host-delay-ms', '50']);
    await untilRequests(server, server.requests.length + 4);
    child.kill(signal);
    const ended = await exit;
    expect(ended).toMatchObject({ code, signal: null, stderr: '' });
    expect(ended.stdout).toMatch(new RegExp(`^crawl {7}${words}: claimed URLs requeued; run it again to resume$`, 'm'));
    expect(ended.stdout).toMatch(/^duration {4}/m);
    const state = await integrityOf(db);
    expect(state).toMatchObject({ integrity: 'ok', fetching: 0 });
    expect(state.queued).toBeGreaterThan(0);
  }, 30_000);
});

/** A site of `count` sitemaps named by the index /sitemap.xml, /maps/N.xml, each listing one page /p/N.html that no page links to. */
async function sitemapsSite(count: number): Promise<{ origin: string; log: string[]; close(): Promise<void> }> {
  const log: string[] = [];
  let origin = '';
  const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
  const server = createServer((request, response) => {
    const target = request.url ?? '/';
    log.push(target);
    const number = /^\/maps\/(\d+)\.xml$/.exec(target)?.[1];
    if (target === '/sitemap.xml') {
      const entries = Array.from({ length: count }, (_, i) => `<sitemap><loc>${origin}/maps/${i}.xml</loc></sitemap>\n`).join('');
      response.writeHead(200, { 'content-type': 'application/xml' }).end(`<sitemapindex xmlns="${ns}">\n${entries}</sitemapindex>\n`);
    } else if (number !== undefined) {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset xmlns="${ns}"><url><loc>${origin}/p/${number}.html</loc></url></urlset>\n`);
    } else if (target === '/robots.txt') {
      response.writeHead(404).end();
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>no links</p>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, log, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a crawl killed with SIGKILL while it reads its sitemaps', () => {
  it('reads on each restart only the sitemaps not read yet: each one once, but what was in flight or not yet committed', async () => {
    // 40 sitemaps and their index: within --max-sitemaps (50 by default).
    const count = 40;
    const site = await sitemapsSite(count);
    try {
      const db = path.join(dir, 'sitemaps-killed.db');
      const run = () => spawnCli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--per-host-delay-ms', String(DELAY_MS)], children);
      const maps = (): number => site.log.filter((target) => target.startsWith('/maps/')).length;
      const kills = 3;
      for (let kill = 0; kill < kills; kill++) {
        const { child, exit } = run();
        const until = maps() + 8;
        const deadline = Date.now() + 20_000;
        while (maps() < until && Date.now() < deadline) await sleep(2);
        child.kill('SIGKILL');
        expect(await exit, 'the crawl ended before it was killed: kill sooner').toMatchObject({ signal: 'SIGKILL' });
      }
      const last = await run().exit;
      expect(last.code).toBe(0);
      for (let i = 0; i < count; i++) {
        expect(site.log, `/maps/${i}.xml`).toContain(`/maps/${i}.xml`);
        expect(site.log, `/p/${i}.html`).toContain(`/p/${i}.html`);
      }
      const counts = new Map<string, number>();
      for (const target of site.log) if (target.endsWith('.xml')) counts.set(target, (counts.get(target) ?? 0) + 1);
      const extra = [...counts.values()].reduce((n, c) => n + c - 1, 0);
      // Before the sitemaps were kept on the frontier, each restart read them all again.
      expect(extra, JSON.stringify(Object.fromEntries([...counts].filter(([, c]) => c > 1)))).toBeLessThanOrEqual(kills * (IN_FLIGHT_PER_KILL + UNCOMMITTED_PER_KILL));
      // And a run after the end reads none.
      site.log.length = 0;
      expect((await run().exit).code).toBe(0);
      expect(site.log.filter((target) => target.endsWith('.xml'))).toEqual([]);
    } finally {
      await site.close();
    }
  }, 90_000);

  it('SIGTERM among the sitemaps: exit 143, and the next run reads the rest, none twice but the one in flight', async () => {
    const count = 40;
    const site = await sitemapsSite(count);
    try {
      const db = path.join(dir, 'sitemaps-term.db');
      const run = () => spawnCli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--per-host-delay-ms', String(DELAY_MS)], children);
      const { child, exit } = run();
      const deadline = Date.now() + 20_000;
      while (site.log.filter((target) => target.startsWith('/maps/')).length < 10 && Date.now() < deadline) await sleep(2);
      child.kill('SIGTERM');
      const stopped = await exit;
      expect(stopped).toMatchObject({ code: 143, signal: null });
      const readFirst = site.log.filter((target) => target.startsWith('/maps/')).length;
      expect(readFirst).toBeLessThan(count);
      expect((await run().exit).code).toBe(0);
      const counts = new Map<string, number>();
      for (const target of site.log) if (target.endsWith('.xml')) counts.set(target, (counts.get(target) ?? 0) + 1);
      for (let i = 0; i < count; i++) expect(counts.get(`/maps/${i}.xml`), `/maps/${i}.xml`).toBeGreaterThanOrEqual(1);
      const extra = [...counts.values()].reduce((n, c) => n + c - 1, 0);
      expect(extra, JSON.stringify(Object.fromEntries(counts))).toBeLessThanOrEqual(IN_FLIGHT_PER_KILL);
    } finally {
      await site.close();
    }
  }, 60_000);
});
