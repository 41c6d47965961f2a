// A crawl over a folder with the file fetcher: the base chain, the ladder, the
// index and the audit work on files as on a live site, and each file is read once.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawler } from '../../src/crawl/index.js';
import { createFileFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const S = 'http://site.invalid/';
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'folder-crawl-'));
  const files: Record<string, string> = {
    'index.html': '<a href="guide">guide</a> <a href="./guide/">again</a> <a href="GUIDE/../guide/index.html">third</a> <a href="missing.html">gone</a>',
    'guide/index.html': '<a href="../a%20b.html#x">ok</a> <a href="../a b.html#nope">frag</a> <img src="/img/logo.png"> <a href="/">home</a>',
    'a b.html': '<p id=x>x</p>',
    'img/logo.png': 'png',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a crawl over a folder', () => {
  it('reads each file once however its links spell it, with the directory as the base, and audits it', async () => {
    const store = new MemoryStore();
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    // One at a time: two spellings of one file in flight at once are both read (as two URLs of a server
    // are), and the Content-Location of either settles the other only once it has answered.
    const summary = await runCrawler({ seeds: S, store, fetcher, sitemap: false, retryDelayMs: 0, concurrency: 1, onEvent: () => {}, sleep: async () => {} });
    const findings = await collect(audit(store.reader()));
    await store.close();
    // index, guide (301), guide/, a b.html, missing.html, img/logo.png: one read each, the 301 hop included.
    expect(summary.requests).toBe(fetcher.reads.files);
    expect(fetcher.reads.files).toBe(6);
    expect(findings.filter((f) => f.code === 'LINK_BROKEN').map((f) => f.rawHref)).toEqual(['missing.html']);
    expect(findings.filter((f) => f.code === 'LINK_FRAGMENT_MISSING').map((f) => f.rawHref)).toEqual(['../a b.html#nope']);
    expect(findings.filter((f) => f.code === 'LINK_REDIRECT').map((f) => f.rawHref)).toEqual(['guide']);
  });

  it('a folder has no server to spare: its files are read with the global concurrency, not one at a time, and no delay', async () => {
    const files = createFileFetcher({ roots: [{ prefix: S, dir }] });
    let inFlight = 0;
    let most = 0;
    const fetcher = {
      isLocal: (url: string) => files.isLocal(url),
      fetch: async (...args: Parameters<typeof files.fetch>) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        try {
          return await files.fetch(...args);
        } finally {
          inFlight--;
        }
      },
    };
    const store = new MemoryStore();
    const started = Date.now();
    await runCrawler({ seeds: [S, `${S}a%20b.html`, `${S}missing.html`, `${S}img/logo.png`], store, fetcher, sitemap: false, concurrency: 4, perHostConcurrency: 1, perHostDelayMs: 1000 });
    await store.close();
    expect(most).toBeGreaterThan(1);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a fragment on an external page is not called missing: that page's body is never read for its ids", async () => {
    const ext = mkdtempSync(join(tmpdir(), 'folder-crawl-ext-'));
    writeFileSync(join(ext, 'index.html'), '<p id=here><a href="https://other.example/page.html#section">other</a> <a href="#nope">here</a>');
    const external = { fetch: async (url: string) => ({ requestUrl: url, finalUrl: url, hops: [], status: 200, headers: { 'content-type': 'text/html' }, contentType: 'text/html', charset: undefined, body: undefined, bytes: 0, startedAt: 0, durationMs: 1, errorCode: undefined }) };
    const store = new MemoryStore();
    await runCrawler({ seeds: S, store, fetcher: createFileFetcher({ roots: [{ prefix: S, dir: ext }], fallback: external }), sitemap: false, robots: undefined });
    const findings = await collect(audit(store.reader()));
    await store.close();
    rmSync(ext, { recursive: true, force: true });
    expect(findings.filter((f) => f.code === 'LINK_FRAGMENT_MISSING').map((f) => f.rawHref)).toEqual(['#nope']);
  });
});
