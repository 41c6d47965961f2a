// A crawl killed at any instant resumes from the database with nothing lost and
// nothing fetched twice but what was in flight or not yet committed (DESIGN.md §5): the built
// executable, SIGKILLed three times mid-crawl of the demo site, then run to its end.

import type { ChildProcess } from 'node:child_process';
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
    // The last run takes over the writer lock the killed one left (issue 10, item 7).
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

  // SIGTERM (issue 10) is handled as SIGINT is, with its own exit code and words.
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
