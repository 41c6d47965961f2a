// The parse pool with the built worker script (dist/src/crawl/parse-worker.js): a
// long page comes back as readPage packs it in-thread; a short one, or any page when
// there is no worker script, is left to the caller. A worker that dies or stops
// answering leaves its pages to the caller (`undefined`) and the next page gets a
// new worker; close() leaves pending pages to their callers.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPage, type PageReadRequest } from '../../src/crawl/page-reading.js';
import { ParsePool, defaultParseThreads } from '../../src/crawl/parse-pool.js';
import { ROOT, ensureBuilt } from '../cli/built-cli.js';

const WORKER = pathToFileURL(path.join(ROOT, 'dist/src/crawl/parse-worker.js'));
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-parse-pool-'));
/** A worker that reads as the real one does, but hangs on a page holding HANG and exits on one holding DIE. */
const HOSTILE = pathToFileURL(path.join(dir, 'hostile-worker.mjs'));
const pools: ParsePool[] = [];

beforeAll(async () => {
  await ensureBuilt();
  const readPageModule = pathToFileURL(path.join(ROOT, 'dist/src/crawl/page-reading.js')).href;
  writeFileSync(
    HOSTILE,
    [
      "import { parentPort } from 'node:worker_threads';",
      `import { readPage } from ${JSON.stringify(readPageModule)};`,
      'parentPort.on("message", async (job) => {',
      '  if (job.request.body.includes("HANG")) for (;;);',
      '  if (job.request.body.includes("DIE")) process.exit(3);',
      '  const packed = await readPage(job.request);',
      '  parentPort.postMessage({ id: job.id, strings: packed.strings, ints: packed.ints, digest: packed.digest }, [packed.ints.buffer]);',
      '});',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  rmSync(dir, { recursive: true, force: true });
});

function poolOf(options: ConstructorParameters<typeof ParsePool>[0]): ParsePool {
  const pool = new ParsePool(options);
  pools.push(pool);
  return pool;
}

function requestOf(body: string): PageReadRequest {
  return {
    pageUrl: 'http://example.com/docs/page.html',
    finalUrl: 'http://example.com/docs/page.html',
    headers: { link: '<canon.html>; rel="canonical"' },
    contentType: 'text/html',
    charset: 'utf-8',
    body,
    baseMode: 'rfc3986',
    follow: ['navigation', 'frame', 'refresh'],
    maxLinks: 50_000,
  };
}

/** A page of `links` links, padded past the pool's threshold. */
function pageOf(links: number, extra = ''): string {
  const anchors = Array.from({ length: links }, (_, i) => `<a href="../d${i % 7}/p${i}.html#s${i}" id="a${i}">link ${i}</a>\n`).join('');
  return `<!doctype html><html><head><base href="sub/"></head><body>${extra}\n${anchors}<p>${'text '.repeat(4000)}</p></body></html>`;
}

describe('ParsePool', () => {
  it('reads a long page in a worker as readPage does in-thread; a short page is left to the caller', async () => {
    const pool = poolOf({ threads: 2, workerUrl: WORKER });
    const request = requestOf(pageOf(500));
    expect(pool.takes(request.body.length)).toBe(true);
    const [first, second] = await Promise.all([pool.read(request), pool.read(requestOf(pageOf(20)))]);
    expect(first).toEqual(await readPage(request));
    expect(second).toEqual(await readPage(requestOf(pageOf(20))));
    await expect(pool.read(requestOf('<a href="x">x</a>'.repeat(10)))).resolves.toBeUndefined();
    expect(pool.stats()).toEqual({ sent: 2, fellBack: 0, workersLost: 0 });
  });

  it('is off with 0 threads, or without a worker script (run from the TypeScript sources)', async () => {
    const none = poolOf({ threads: 0, workerUrl: WORKER });
    const missing = poolOf({ threads: 2, workerUrl: pathToFileURL(path.join(dir, 'no-such-worker.js')) });
    const fromSources = poolOf({ threads: 2 });
    for (const pool of [none, missing, fromSources]) {
      expect(pool.takes(1_000_000)).toBe(false);
      await expect(pool.read(requestOf(pageOf(10)))).resolves.toBeUndefined();
    }
  });

  it('a worker that hangs: its pages are left to the caller after hangMs, and the next page gets a new worker', async () => {
    const pool = poolOf({ threads: 1, workerUrl: HOSTILE, hangMs: 1000 });
    const before = Date.now();
    // The page after the hanging one waits in the same worker: it is left to its caller too.
    const [hung, queued] = await Promise.all([pool.read(requestOf(pageOf(10, 'HANG'))), pool.read(requestOf(pageOf(10)))]);
    expect([hung, queued]).toEqual([undefined, undefined]);
    expect(Date.now() - before).toBeLessThan(10_000);
    const request = requestOf(pageOf(30));
    expect(await pool.read(request)).toEqual(await readPage(request));
    expect(pool.stats()).toMatchObject({ fellBack: 2, workersLost: 1 });
  });

  it('a worker that dies: its page is left to the caller, the next gets a new worker; after three that never answered, the pool is off', async () => {
    const pool = poolOf({ threads: 1, workerUrl: HOSTILE });
    await expect(pool.read(requestOf(pageOf(10, 'DIE')))).resolves.toBeUndefined();
    const request = requestOf(pageOf(30));
    expect(await pool.read(request)).toEqual(await readPage(request));
    // That worker answered: its death does not count against starting workers.
    await expect(pool.read(requestOf(pageOf(10, 'DIE')))).resolves.toBeUndefined();
    await expect(pool.read(requestOf(pageOf(10, 'DIE')))).resolves.toBeUndefined();
    expect(pool.takes(100_000)).toBe(true);
    await expect(pool.read(requestOf(pageOf(10, 'DIE')))).resolves.toBeUndefined();
    expect(pool.takes(100_000)).toBe(false);
    await expect(pool.read(request)).resolves.toBeUndefined();
    expect(pool.stats()).toEqual({ sent: 5, fellBack: 4, workersLost: 4 });
  });

  it('close() leaves the pages pending to their callers at once', async () => {
    const pool = poolOf({ threads: 1, workerUrl: HOSTILE, hangMs: 60_000 });
    const hung = pool.read(requestOf(pageOf(10, 'HANG')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = Date.now();
    await pool.close();
    await expect(hung).resolves.toBeUndefined();
    expect(Date.now() - before).toBeLessThan(5000);
    expect(pool.takes(100_000)).toBe(false);
  });

  it('is sized to the cores by default: one beside the main thread per core, at most 4', () => {
    expect([1, 2, 3, 8, 64].map(defaultParseThreads)).toEqual([0, 1, 2, 4, 4]);
  });
});
