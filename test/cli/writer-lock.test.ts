// One writer per index (two writers would interleave one crawl's units): a second `crawl` on the
// same --db is refused with one line naming the first (pid, host, since when) while
// the first goes on; a lock left by a crawl killed with SIGKILL is taken over with a
// notice; read commands and the library's crawl() behave accordingly. Real processes
// (the built executable) against a slow server on 127.0.0.1.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { ensureBuilt, spawnCli, type CliExit } from './built-cli.js';
import { run } from './cli-harness.js';

const PAGES = 8;
/** Each answer waits this long: a crawl of the site takes about PAGES × DELAY_MS. */
const DELAY_MS = 250;

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-writer-lock-'));
const children = new Set<ChildProcess>();
let server: Server;
let origin: string;
const requests: string[] = [];
/** Answers wait for this: a test holds the site while a second process starts (which takes seconds on a busy machine). */
let gate: Promise<void> = Promise.resolve();

/** Hold every answer until the returned function is called. */
function holdAnswers(): () => void {
  let release = (): void => {};
  gate = new Promise((resolve) => (release = resolve));
  return () => {
    release();
    gate = Promise.resolve();
  };
}

beforeAll(async () => {
  await ensureBuilt();
  // A home page linking PAGES pages, each answering slowly.
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const answer = (): void => {
      if (request.url === '/robots.txt') {
        response.writeHead(404).end();
        return;
      }
      const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title>${links}`);
    };
    void gate.then(() => setTimeout(answer, DELAY_MS));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function startCrawl(db: string): { child: ChildProcess; exit: Promise<CliExit> } {
  return spawnCli(['crawl', `${origin}/`, '--db', db, '--allow-private', '--per-host-delay-ms', '0'], children);
}

/** Resolve once `target` was requested after the first `since` requests. */
async function untilRequested(target: string, since: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!requests.includes(target, since)) {
    if (Date.now() > deadline) throw new Error(`${target} was not requested within ${timeoutMs} ms: ${JSON.stringify(requests)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const repeated = (log: readonly string[]): string[] => log.filter((target, i) => target !== '/robots.txt' && log.indexOf(target) !== i);

const ISO_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('one writer per index', () => {
  it('a second crawl on the same --db is refused with one line naming the first; the first fetches each page once', async () => {
    const db = path.join(dir, 'two.db');
    const start = requests.length;
    const first = startCrawl(db);
    await untilRequested('/p0', start);
    const release = holdAnswers(); // the first crawl is mid-way until the second has tried
    const second = await startCrawl(db).exit.finally(release);
    expect(second.code).toBe(3);
    expect(second.stdout).toBe('');
    const lines = second.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^linkladder: error: the index ${escape(db)} is being written by another crawl \\(ERR_STORE_LOCKED\\): ` +
          `pid ${first.child.pid} on host ${escape(hostname())}, since ${ISO_TIME}; one writer per index$`,
      ),
    );
    // The first is not disturbed: it finishes, and nothing was requested twice.
    const ended = await first.exit;
    expect(ended).toMatchObject({ code: 0, stderr: '' });
    const log = requests.slice(start);
    expect(log).toContain(`/p${PAGES - 1}`);
    expect(repeated(log)).toEqual([]);
  }, 60_000);

  it('read commands read the index while a crawl writes it; the library crawl() is refused as a second writer', async () => {
    const db = path.join(dir, 'readers.db');
    const start = requests.length;
    const first = startCrawl(db);
    await untilRequested('/p1', start);
    const release = holdAnswers(); // the crawl is mid-way until both have tried
    try {
      const stats = await run(['db', 'stats', '--db', db]);
      expect(stats).toMatchObject({ code: 0, stderr: '' });
      await expect(crawl(`${origin}/`, { db, allowPrivate: true })).rejects.toMatchObject({
        code: 'ERR_STORE_LOCKED',
        message: expect.stringContaining(`pid ${first.child.pid} on host ${hostname()}`),
      });
    } finally {
      release();
    }
    expect(await first.exit).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);

  it('a crawl killed with SIGKILL leaves its lock; the next crawl takes it over with a notice and finishes', async () => {
    const db = path.join(dir, 'killed.db');
    const start = requests.length;
    const killed = startCrawl(db);
    await untilRequested('/p2', start);
    killed.child.kill('SIGKILL');
    expect(await killed.exit).toMatchObject({ signal: 'SIGKILL' });
    const resumed = await startCrawl(db).exit;
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(
      new RegExp(
        `^linkladder: notice: took over the writer lock of ${escape(db)} from pid ${killed.child.pid} on host ${escape(hostname())} ` +
          `\\(since ${ISO_TIME}\\), which is no longer running\\n$`,
      ),
    );
    expect(resumed.stdout).toMatch(/^crawl {7}finished: the frontier is empty$/m);
  }, 60_000);

  it('a crawl that ended cleanly leaves no lock: the next one starts without a notice', async () => {
    const db = path.join(dir, 'clean.db');
    expect(await startCrawl(db).exit).toMatchObject({ code: 0, stderr: '' });
    expect(await startCrawl(db).exit).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);
});
