// The file fetcher: a folder answered as a static web server answers it, from disk.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileFetcher, localRobots, type FetchedResponse, type Fetcher, type SentRequest } from '../../src/fetch/index.js';

const S = 'http://site.invalid/';
let dir: string;

function write(path: string, text: string | Uint8Array): void {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-fetcher-'));
  write('index.html', '<a href="guide/">guide</a>');
  write('guide/index.html', '<a href="../a b.html">a b</a>');
  write('a b.html', '<p id=x>space</p>');
  write('café.html', '<p>utf-8 name</p>');
  write('about.html', '<p>about</p>');
  write('style.css', 'a { background: url(i.png) }');
  write('i.png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47));
  write('docs/readme.md', '# Title\n\n[a](../about.html)\n');
  write('empty-dir/.keep', '');
  write('latin.html', Buffer.from('<meta charset="windows-1252"><p>\x80</p>', 'latin1'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a folder answered from disk', () => {
  it('a directory URL means its index file; the page is decoded as HTML', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const response = await fetcher.fetch(S);
    expect(response).toMatchObject({ status: 200, contentType: 'text/html', body: '<a href="guide/">guide</a>', finalUrl: S, hops: [], errorCode: undefined });
    expect(await fetcher.fileOf(S)).toBe(join(dir, 'index.html'));
    // The crawl learns from it that the directory and its index file are one resource (RFC 3986 §6.2.4).
    expect(response.headers['content-location']).toBe('index.html');
    expect((await fetcher.fetch(`${S}index.html`)).headers['content-location']).toBe('./');
  });

  it('a directory named without its slash answers a 301 to the slash form, followed like an HTTP redirect', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const requests: SentRequest[] = [];
    const response = await fetcher.fetch(`${S}guide?x=1`, undefined, { onRequest: (r) => requests.push(r) });
    expect(response.hops).toEqual([{ from: `${S}guide?x=1`, to: `${S}guide/?x=1`, status: 301 }]);
    expect(response).toMatchObject({ status: 200, finalUrl: `${S}guide/?x=1`, body: '<a href="../a b.html">a b</a>' });
    expect(requests).toEqual([
      { url: `${S}guide?x=1`, kind: 'page' },
      { url: `${S}guide/?x=1`, kind: 'redirect' },
    ]);
    expect(fetcher.reads.files).toBe(2);
  });

  it('beforeRedirect may stop at the 301, as with HTTP', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const response = await fetcher.fetch(`${S}guide`, undefined, { beforeRedirect: () => 'stop' });
    expect(response).toMatchObject({ status: 301, redirectStopped: true, errorCode: undefined, finalUrl: `${S}guide` });
  });

  it('percent-encoded names are the files they spell: spaces and UTF-8', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    expect((await fetcher.fetch(`${S}a%20b.html`)).status).toBe(200);
    expect((await fetcher.fetch(`${S}caf%C3%A9.html`)).status).toBe(200);
    // An encoded "/" or NUL, or a dot segment spelled %2E%2E, names no file.
    for (const path of ['guide%2Findex.html', 'a%00.html', 'guide/%2E%2E/about.html', '%ff.html']) {
      expect((await fetcher.fetch(S + path)).status, path).toBe(404);
    }
  });

  it('a missing file is a 404 without an error code; the query is ignored', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    expect(await fetcher.fetch(`${S}nope.html`)).toMatchObject({ status: 404, errorCode: undefined, body: undefined });
    expect((await fetcher.fetch(`${S}about.html?v=2`)).status).toBe(200);
    expect((await fetcher.fetch(`${S}about.html/x`)).status).toBe(404);
    expect(await fetcher.fileOf(`${S}nope.html`)).toBeUndefined();
  });

  it('a directory without an index file: 404 for a site build, 200 for a repository', async () => {
    expect((await createFileFetcher({ roots: [{ prefix: S, dir }] }).fetch(`${S}empty-dir/`)).status).toBe(404);
    const listing = createFileFetcher({ roots: [{ prefix: S, dir }], directoryListing: true });
    expect(await listing.fetch(`${S}empty-dir/`)).toMatchObject({ status: 200, body: undefined });
  });

  it('clean URLs: /about means about.html when asked for', async () => {
    expect((await createFileFetcher({ roots: [{ prefix: S, dir }] }).fetch(`${S}about`)).status).toBe(404);
    const clean = createFileFetcher({ roots: [{ prefix: S, dir }], cleanUrls: true });
    expect(await clean.fetch(`${S}about`)).toMatchObject({ status: 200, body: '<p>about</p>', finalUrl: `${S}about` });
  });

  it('index file names are configurable, in order', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }], indexFiles: ['readme.md'] });
    expect(await fetcher.fetch(`${S}docs/`)).toMatchObject({ status: 200, contentType: 'text/markdown', body: '# Title\n\n[a](../about.html)\n' });
  });

  it('only pages, Markdown and stylesheets are read; other files are answered from their stat', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    expect(await fetcher.fetch(`${S}i.png`)).toMatchObject({ status: 200, contentType: 'image/png', body: undefined, bytes: 0 });
    expect(await fetcher.fetch(`${S}style.css`)).toMatchObject({ contentType: 'text/css', body: 'a { background: url(i.png) }' });
    expect(fetcher.reads.bytes).toBe('a { background: url(i.png) }'.length);
    const bytes = await fetcher.fetch(`${S}i.png`, undefined, { read: 'bytes' });
    expect([...bytes.data!]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('HEAD is answered from the stat: no body read', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const head = await fetcher.fetch(`${S}about.html`, undefined, { method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, body: undefined, method: 'HEAD', headers: { 'content-length': '12' } });
    expect(fetcher.reads.bytes).toBe(0);
  });

  it('the charset is sniffed as a browser sniffs a page (here <meta> windows-1252)', async () => {
    const response = await createFileFetcher({ roots: [{ prefix: S, dir }] }).fetch(`${S}latin.html`);
    expect(response.charset).toBe('windows-1252');
    expect(response.body).toContain('<p>€</p>');
  });

  it('a file that has not changed answers 304 to its own validator', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const first = await fetcher.fetch(`${S}about.html`);
    const again = await fetcher.fetch(`${S}about.html`, undefined, { validators: { etag: first.headers['etag'] } });
    expect(again).toMatchObject({ status: 304, body: undefined });
  });

  it('the longest prefix wins; URLs under no root go to the fallback, or end with ERR_FETCH_NO_ROOT', async () => {
    const docs = mkdtempSync(join(tmpdir(), 'file-fetcher-docs-'));
    writeFileSync(join(docs, 'index.html'), 'docs root');
    const asked: string[] = [];
    const fallback: Fetcher = { fetch: async (url) => (asked.push(url), { ...notFound(url), status: 418 }) };
    const fetcher = createFileFetcher({
      roots: [
        { prefix: S, dir },
        { prefix: `${S}docs/`, dir: docs },
        { prefix: 'https://prod.example/', dir },
      ],
      fallback,
    });
    expect((await fetcher.fetch(`${S}docs/`)).body).toBe('docs root');
    expect((await fetcher.fetch('https://PROD.example:443/about.html')).body).toBe('<p>about</p>');
    expect((await fetcher.fetch('https://elsewhere.example/')).status).toBe(418);
    expect(asked).toEqual(['https://elsewhere.example/']);
    expect(fetcher.isLocal('https://elsewhere.example/')).toBe(false);
    expect(fetcher.isLocal(`${S}x`)).toBe(true);
    expect((await createFileFetcher({ roots: [{ prefix: S, dir }] }).fetch('https://elsewhere.example/')).errorCode).toBe('ERR_FETCH_NO_ROOT');
    rmSync(docs, { recursive: true, force: true });
  });

  it('robots.txt is not asked for a local URL; others go to the policy given', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir }] });
    const asked: string[] = [];
    const robots = localRobots(fetcher, { isAllowed: async (url) => (asked.push(url), false), crawlDelayMs: () => 1000 })!;
    expect(await robots.isAllowed(`${S}a.html`)).toBe(true);
    expect(robots.crawlDelayMs(`${S}a.html`)).toBeUndefined();
    expect(await robots.isAllowed('https://elsewhere.example/')).toBe(false);
    expect(asked).toEqual(['https://elsewhere.example/']);
  });

  it('rejects roots that are not absolute URL prefixes of folders', () => {
    expect(() => createFileFetcher({ roots: [] })).toThrow(TypeError);
    expect(() => createFileFetcher({ roots: [{ prefix: 'http://site.invalid', dir }] })).toThrow(/ending in/);
    expect(() => createFileFetcher({ roots: [{ prefix: S, dir: 'relative' }] })).toThrow(/absolute path/);
  });
});

describe('hostile folders', () => {
  let hostile: string;
  beforeAll(() => {
    hostile = mkdtempSync(join(tmpdir(), 'file-fetcher-hostile-'));
    symlinkSync('loop-b', join(hostile, 'loop-a'));
    symlinkSync('loop-a', join(hostile, 'loop-b'));
    symlinkSync('/nonexistent/target.html', join(hostile, 'dangling.html'));
    execFileSync('mkfifo', [join(hostile, 'fifo.html')]);
    writeFileSync(join(hostile, 'big.html'), '');
    truncateSync(join(hostile, 'big.html'), 200 * 1024 * 1024);
  });
  afterAll(() => rmSync(hostile, { recursive: true, force: true }));

  it('a FIFO named like a page is not read (a read would block for ever)', async () => {
    const started = Date.now();
    const response = await createFileFetcher({ roots: [{ prefix: S, dir: hostile }] }).fetch(`${S}fifo.html`);
    expect(response).toMatchObject({ status: undefined, errorCode: 'ERR_FETCH_FILE_NOT_REGULAR' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a symlink loop is an unreadable file; a dangling symlink a missing one', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir: hostile }] });
    expect((await fetcher.fetch(`${S}loop-a`)).errorCode).toBe('ERR_FETCH_FILE_UNREADABLE');
    expect((await fetcher.fetch(`${S}dangling.html`)).status).toBe(404);
  });

  it('a 200 MB page is read up to the cap, and says it was cut', async () => {
    const fetcher = createFileFetcher({ roots: [{ prefix: S, dir: hostile }], maxBodyBytes: 1024 * 1024 });
    const response = await fetcher.fetch(`${S}big.html`);
    expect(response).toMatchObject({ status: 200, bytes: 1024 * 1024, errorCode: 'ERR_FETCH_BODY_TOO_LARGE' });
    expect(fetcher.reads.bytes).toBe(1024 * 1024);
  });

  it('an aborted signal ends the fetch with ERR_FETCH_ABORTED', async () => {
    const response = await createFileFetcher({ roots: [{ prefix: S, dir: hostile }] }).fetch(`${S}big.html`, AbortSignal.abort());
    expect(response.errorCode).toBe('ERR_FETCH_ABORTED');
  });
});

function notFound(url: string): FetchedResponse {
  return { requestUrl: url, finalUrl: url, hops: [], status: 404, headers: {}, contentType: undefined, charset: undefined, body: undefined, bytes: 0, startedAt: 0, durationMs: 0, errorCode: undefined };
}
