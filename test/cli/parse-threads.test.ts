// `--parse-threads`: the built executable reads long pages in worker threads, and the
// index it writes is the one it writes reading every page in its own thread — every
// URL, link (href, target, rung, findings, base level, line and column) and fetch row
// (page findings, anchors). SIGINT still stops a crawl whose pages are being read by
// workers, promptly, with its summary.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { MAIN, ROOT, ensureBuilt, spawnCli, type CliExit } from './built-cli.js';

const PAGES = 24;
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-parse-threads-'));
const children = new Set<ChildProcess>();
let server: Server;
let origin = '';
let requests = 0;
/** Each page answers this late (ms): a crawl stays busy long enough to be interrupted. */
let latencyMs = 0;

/** Page n: long (past the pool's threshold), with links of every kind the extractor reads and some it must clean. */
function pageHtml(n: number): string {
  const links: string[] = [];
  for (let k = 0; k < 150; k++) {
    const target = (n * 7 + k * 3) % PAGES;
    switch (k % 10) {
      case 0: links.push(`<a href="p${target}.html#s${k}">sec</a>`); break;
      case 1: links.push(`<a href="../docs/./p${target}.html">dots</a>`); break;
      case 2: links.push(`<a href="HTTP://${origin.slice('http://'.length)}/docs/p${target}.html">case</a>`); break;
      case 3: links.push(`<img src="img/i${k % 5}.png" srcset="img/a.png 1x, img/b.png 2x">`); break;
      case 4: links.push(`<a href="#s${k}">self</a> <a href="">empty</a>`); break;
      case 5: links.push(`<a href=" p${target}.html\t">ws</a> <a href="p\\${target}.html">bs</a> <a href="%zz">pct</a>`); break;
      case 6: links.push(`<a href="ünïcode/p${target}.html?q=ä">iri</a> <a href="mailto:x@example.com">mail</a>`); break;
      case 7: links.push(`<a href="http://other.example/x?y=${k}">ext</a> <a hreflang="de" href="de/p${target}.html">de</a>`); break;
      case 8: links.push(`<a href="/docs/p${target}.html?a=1&amp;b=2">query</a>`); break;
      default: links.push(`<div id="s${k}"><a name="n${k}" href="missing${k}.html">404</a></div>`);
    }
  }
  const base = n % 5 === 1 ? '<base href="/docs/sub/../">' : '';
  const canonical = n % 4 === 2 ? `<link rel="canonical" href="p${n}.html">` : '';
  return `<!doctype html>\n<html><head>${base}${canonical}<link rel="stylesheet" href="style.css"><title>p${n}</title></head>\n<body>\n${links.join('\n')}\n<p>${'filler text '.repeat(1500)}</p>\n</body></html>\n`;
}

beforeAll(async () => {
  await ensureBuilt();
  server = createServer((request, response) => {
    requests++;
    const target = request.url ?? '/';
    const page = /^\/docs\/p(\d+)\.html(\?.*)?$/.exec(target);
    const answer = (): void => {
      if (page !== null && Number(page[1]) < PAGES) {
        const n = Number(page[1]);
        const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
        if (n % 6 === 3) headers['content-location'] = `p${n}.html`;
        if (n % 7 === 4) headers['link'] = `<p${(n + 1) % PAGES}.html>; rel="next", <p${n}.html>; rel="canonical"`;
        response.writeHead(200, headers).end(pageHtml(n));
      } else if (target === '/docs/style.css') response.writeHead(200, { 'content-type': 'text/css' }).end('body { background: url(img/bg.png) }');
      else if (target.startsWith('/docs/img/i')) response.writeHead(200, { 'content-type': 'image/png' }).end('png');
      else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    };
    if (latencyMs > 0 && page !== null) setTimeout(answer, latencyMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The built executable under `--cpu-prof`: each thread of it (main and workers) writes its profile into `profiles`. */
function crawlProfiled(db: string, profiles: string, extra: readonly string[]): Promise<CliExit> {
  const loopbackOnly = path.join(ROOT, 'test/support/loopback-only.mjs');
  const args = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--import', loopbackOnly, MAIN, 'crawl', `${origin}/docs/p0.html`, '--db', db, '--allow-private', '--scope', 'prefix', '--no-check-external', ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code, signal) => {
    children.delete(child);
    resolve({ code, signal, stdout, stderr });
  }));
}

/** The index without ids, times or run rows: URLs by key, links and fetches by their page's key. */
async function contentsOf(db: string): Promise<unknown> {
  const store = new SqliteStore({ path: db, mustExist: true });
  try {
    const reader = store.reader();
    const keys = new Map<number, string>();
    const urls: unknown[] = [];
    for await (const url of reader.urls()) {
      keys.set(url.id, url.key);
      urls.push({ key: url.key, state: url.state, depth: url.depth, role: url.role, aliasOf: url.aliasOf, firstHref: url.firstLink?.rawHref });
    }
    const key = (id: number | undefined): string | undefined => (id === undefined ? undefined : keys.get(id));
    const links: unknown[] = [];
    for await (const link of reader.links()) links.push({ ...link, fromUrlId: key(link.fromUrlId), toUrlId: key(link.toUrlId), metUrlId: key(link.metUrlId) });
    const fetches: unknown[] = [];
    for await (const fetch of reader.fetches()) {
      fetches.push({ url: key(fetch.urlId), status: fetch.status, errorCode: fetch.errorCode, findings: fetch.findings, anchors: fetch.anchors, represents: key(fetch.representsUrlId), digest: fetch.digest });
    }
    const sort = (rows: unknown[]): unknown[] => rows.map((row) => JSON.stringify(row)).sort();
    return { urls: sort(urls), links: sort(links), fetches: sort(fetches) };
  } finally {
    await store.close();
  }
}

describe('crawl --parse-threads', () => {
  it('writes the same index with the pages read by worker threads as read in the main thread', async () => {
    const runs: { contents: unknown; profiles: number }[] = [];
    for (const threads of ['0', '2']) {
      const profiles = path.join(dir, `profiles-${threads}`);
      // Four pages in flight: pages wait in the pool while the main thread admits others.
      const ended = await crawlProfiled(path.join(dir, `threads-${threads}.db`), profiles, ['--parse-threads', threads, '--per-host-concurrency', '4', '--concurrency', '4']);
      expect(ended, ended.stderr).toMatchObject({ code: 0, stderr: '' });
      runs.push({ contents: await contentsOf(path.join(dir, `threads-${threads}.db`)), profiles: readdirSync(profiles).length });
    }
    // The main thread's profile, and each worker's: none with 0, at least one with 2.
    expect(runs[0]!.profiles).toBe(1);
    expect(runs[1]!.profiles).toBeGreaterThanOrEqual(2);
    const [inThread, pooled] = runs.map((run) => run.contents) as [{ links: unknown[] }, { links: unknown[] }];
    expect(inThread.links.length).toBeGreaterThan(PAGES * 150);
    // Targets are new or known as the pages happen to be admitted: compared where the
    // order of the pages cannot matter, and whole with one page at a time below.
    const orderFree = (contents: { links: unknown[] }): unknown[] =>
      contents.links.map((row) => {
        const { rung: _rung, ladderRung: _ladderRung, ...rest } = JSON.parse(row as string) as Record<string, unknown>;
        return JSON.stringify(rest);
      }).sort();
    expect(orderFree(pooled)).toEqual(orderFree(inThread));
  }, 180_000);

  it('one page at a time, the index is the same row for row', async () => {
    const contents: unknown[] = [];
    for (const threads of ['0', '1']) {
      const db = path.join(dir, `sequential-${threads}.db`);
      const { exit } = spawnCli(['crawl', `${origin}/docs/p0.html`, '--db', db, '--allow-private', '--scope', 'prefix', '--no-check-external', '--parse-threads', threads, '--concurrency', '1'], children);
      expect(await exit).toMatchObject({ code: 0, stderr: '' });
      contents.push(await contentsOf(db));
    }
    expect(contents[1]).toEqual(contents[0]);
  }, 180_000);

  it('SIGINT stops a crawl whose pages are read by workers: exit 130 after the summary, nothing left claimed', async () => {
    latencyMs = 40;
    try {
      const db = path.join(dir, 'interrupted.db');
      const start = requests;
      const { child, exit } = spawnCli(['crawl', `${origin}/docs/p0.html`, '--db', db, '--allow-private', '--scope', 'prefix', '--no-check-external', '--parse-threads', '2', '--per-host-concurrency', '4'], children);
      while (requests < start + 6) await new Promise((resolve) => setTimeout(resolve, 10));
      const sent = Date.now();
      child.kill('SIGINT');
      const ended = await exit;
      expect(Date.now() - sent).toBeLessThan(15_000);
      expect(ended).toMatchObject({ code: 130, signal: null, stderr: '' });
      expect(ended.stdout).toMatch(/^crawl {7}interrupted \(Ctrl-C\): claimed URLs requeued; run it again to resume$/m);
      const store = new SqliteStore({ path: db, mustExist: true });
      try {
        expect((await store.stats()).urlsByState.fetching).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      latencyMs = 0;
    }
  }, 60_000);
});
