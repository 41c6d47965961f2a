// A crawl from the command line run again: on an index whose crawl is finished it
// says that nothing was left to do and what the index still holds broken; the
// default index (data/linkladder.db) is not silently shared by unrelated sites.

import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from './cli-harness.js';
import { MAIN, ensureBuilt } from './built-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-run-crawl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A site whose home page links to a page, a 404 and a 410; `seen` lists the paths asked. */
async function site(): Promise<{ origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push(path);
    const html = { 'content-type': 'text/html' };
    if (path === '/') response.writeHead(200, html).end('<a href="a.html">a</a> <a href="missing.html">m</a> <a href="gone.html">g</a>');
    else if (path === '/a.html') response.writeHead(200, html).end('<p>a</p>');
    else if (path === '/gone.html') response.writeHead(410, html).end('<p>gone</p>');
    else response.writeHead(404, html).end('<p>missing</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('a finished crawl run again', () => {
  it('says nothing was left to do, and shows the broken URLs the index holds; exit 0, no request', async () => {
    const { origin, seen } = await site();
    const db = path.join(dir, 'finished.db');
    const first = await run(['crawl', `${origin}/`, '--db', db, '--allow-private']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^broken {6}2 URLs: 4xx 2, 5xx 0, no response 0;$/m);
    // A first crawl is the whole index: no second count.
    expect(first.stdout).not.toMatch(/whole index: \d+ URLs/);
    seen.length = 0;
    const again = await run(['crawl', `${origin}/`, '--db', db, '--allow-private']);
    expect(again.code).toBe(0);
    expect(again.err).toEqual([]);
    expect(seen).toEqual([]);
    expect(again.out[0]).toBe('crawl       nothing left to do: earlier runs settled every URL of the index;');
    expect(again.out[1]).toBe('            --recheck asks them again');
    expect(again.out[2]).toBe('broken      0 URLs this run: 4xx 0, 5xx 0, no response 0');
    expect(again.out[3]).toBe('            whole index: 2 URLs: 4xx 2, 5xx 0, no response 0;');
    expect(again.out[4]).toBe('            `linkladder audit` lists the links to them');
    expect(again.stdout).toMatch(/^requests    0: /m);
    // --json: the summary carries the whole index's broken URLs too.
    const json = await run(['crawl', `${origin}/`, '--db', db, '--allow-private', '--json']);
    const summary = JSON.parse(json.out.at(-1)!) as { type: string; requests: number; broken: unknown; indexBroken: unknown };
    expect(summary).toMatchObject({ type: 'summary', requests: 0, broken: { 'client-error': 0 }, indexBroken: { 'client-error': 2, 'server-error': 0, failed: 0 } });
  });
});

/** The built CLI in `cwd`, as a user runs it: `data/linkladder.db` is the folder's. */
function runBuilt(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd, env: { PATH: process.env['PATH'] ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the default index', () => {
  beforeAll(ensureBuilt, 300_000);

  it('refuses the seeds of a site it does not hold, in one line (exit 2, nothing asked); --db names it, or another index', async () => {
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    const a = await site();
    const b = await site();
    const first = await runBuilt(['crawl', `${a.origin}/`, '--allow-private'], cwd);
    expect(first.code).toBe(0);
    expect(existsSync(path.join(cwd, 'data', 'linkladder.db'))).toBe(true);

    const other = await runBuilt(['crawl', `${b.origin}/`, '--allow-private'], cwd);
    expect(other.stdout).toBe('');
    expect(other.stderr).toBe(
      `linkladder: error: the default index ${path.join('data', 'linkladder.db')} holds a crawl of ${a.origin}/; ${b.origin}/ is another site: ` +
        `give it an index of its own with --db FILE, or add it to this one with --db ${path.join('data', 'linkladder.db')}\n`,
    );
    expect(other.code).toBe(2);
    expect(b.seen).toEqual([]);

    // The same site again is the same crawl: resumed (nothing left to do).
    const same = await runBuilt(['crawl', `${a.origin}/a.html`, '--allow-private'], cwd);
    expect(same.code).toBe(0);
    // Named, the default index takes it.
    const named = await runBuilt(['crawl', `${b.origin}/`, '--allow-private', '--db', path.join('data', 'linkladder.db')], cwd);
    expect(named.code).toBe(0);
    expect(b.seen).toContain('/');
  }, 120_000);
});
