// The proof that a package replays: ReplayWeb.page (Webrecorder's viewer: ui.js and its
// service worker sw.js) opens a WACZ written by writeWacz in Debian's Chromium, served on
// 127.0.0.1, and the archived page's text appears in its replay frame. ReplayWeb.page is
// not an npm dependency (its package pulls electron-updater and a web of browser
// modules); the test takes its two files from REPLAYWEBPAGE_DIR (an unpacked
// `npm pack replaywebpage`) or node_modules/replaywebpage, and is skipped with a notice
// when neither is there or Chromium cannot start.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarcWriter, writeWacz, type WarcExchange } from '../../src/archive/index.js';
import { launchChromium } from '../report/support/browser.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';

const MARKER = 'Replayed from a linkladder WACZ 7f3c';
const ARCHIVED_URL = 'https://archived.example/';

function replayWebPageDir(): string | undefined {
  const candidates = [process.env['REPLAYWEBPAGE_DIR'], fileURLToPath(new URL('../../node_modules/replaywebpage/', import.meta.url))];
  return candidates.find((dir) => dir !== undefined && dir !== '' && existsSync(join(dir, 'ui.js')) && existsSync(join(dir, 'sw.js')));
}

let unavailable: string | undefined;
let browser: Browser | undefined;
let server: Server | undefined;
let dir: string;
let origin = '';

function exchange(uri: string, body: string, type: string): WarcExchange {
  const bytes = new TextEncoder().encode(body);
  return {
    method: 'GET',
    uri,
    requestHeaderLines: [`Host: ${new URL(uri).host}`],
    httpVersion: '1.1',
    status: 200,
    reason: 'OK',
    responseHeaderLines: [`Content-Type: ${type}`, `Content-Length: ${bytes.length}`],
    body: bytes,
    date: new Date('2026-11-27T10:00:00Z'),
  };
}

beforeAll(async () => {
  const rwp = replayWebPageDir();
  if (rwp === undefined) {
    unavailable = 'ReplayWeb.page is not here: set REPLAYWEBPAGE_DIR to an unpacked `npm pack replaywebpage` (ui.js, sw.js)';
    return;
  }
  const launched = await launchChromium();
  if (typeof launched === 'string') {
    unavailable = launched;
    return;
  }
  browser = launched;
  dir = await mkdtemp(join(tmpdir(), 'linkladder-replay-'));
  const warc = join(dir, 'site.warc.gz');
  const writer = await WarcWriter.open(warc, { version: '9.9.9' });
  await writer.write(exchange(ARCHIVED_URL, `<!doctype html><html><head><title>Archived</title><link rel="stylesheet" href="/s.css"></head><body><h1>${MARKER}</h1></body></html>`, 'text/html; charset=utf-8'));
  await writer.write(exchange(`${ARCHIVED_URL}s.css`, 'h1 { color: green }', 'text/css'));
  await writer.close();
  const wacz = join(dir, 'site.wacz');
  await writeWacz({ out: wacz, warcFiles: [warc], software: 'linkladder/test' });

  const files: Record<string, { path: string; type: string }> = {
    '/ui.js': { path: join(rwp, 'ui.js'), type: 'application/javascript' },
    '/replay/sw.js': { path: join(rwp, 'sw.js'), type: 'application/javascript' },
    '/site.wacz': { path: wacz, type: 'application/octet-stream' },
  };
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/' || path === '/index.html') {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(`<!doctype html><html><head><script src="/ui.js"></script></head><body>
<replay-web-page source="/site.wacz" url="${ARCHIVED_URL}" replayBase="/replay/" embed="replayonly" style="width:800px;height:600px;display:block"></replay-web-page></body></html>`);
      return;
    }
    const file = files[path];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    void (async () => {
      const bytes = await readFile(file.path);
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
      const headers = { 'Content-Type': file.type, 'Accept-Ranges': 'bytes', 'Service-Worker-Allowed': '/' };
      if (range !== null) {
        const start = Number(range[1]);
        const end = range[2] === '' ? bytes.length - 1 : Math.min(Number(range[2]), bytes.length - 1);
        response.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes.length}`, 'Content-Length': end - start + 1 });
        response.end(request.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
        return;
      }
      response.writeHead(200, { ...headers, 'Content-Length': bytes.length });
      response.end(request.method === 'HEAD' ? undefined : bytes);
    })();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  expect((await stat(wacz)).size).toBeGreaterThan(0);
}, 2 * INSTALL_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('a WACZ written by writeWacz in ReplayWeb.page', () => {
  it('replays the archived page: its text appears in the replay frame', async (context) => {
    if (unavailable !== undefined || browser === undefined) return context.skip(skipNotice('the ReplayWeb.page replay test', unavailable ?? 'no browser'));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    let found: string | undefined;
    const deadline = Date.now() + 90_000;
    // On a loaded machine the first load can race the service worker's start: load once more.
    let reloadAt: number | undefined = Date.now() + 30_000;
    while (found === undefined && Date.now() < deadline) {
      if (reloadAt !== undefined && Date.now() > reloadAt) {
        reloadAt = undefined;
        await page.reload();
      }
      for (const frame of page.frames()) {
        const text = await frame.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } | null } }).document.body?.innerText ?? '').catch(() => '');
        if (text.includes(MARKER)) found = frame.url();
      }
      if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(found, `no frame showed the archived text; frames: ${page.frames().map((frame) => frame.url()).join(' ')}; page errors: ${errors.join(' | ')}`).toBeDefined();
    // The frame is the replay of the archived URL, served by the service worker from the package.
    expect(found).toContain(ARCHIVED_URL);
  }, 150_000);
});
