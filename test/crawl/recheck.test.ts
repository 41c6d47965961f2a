// crawl --recheck: an index crawled before is revalidated with
// conditional requests (RFC 9110 §13.1): a 304 keeps the page and its links, a
// changed page is parsed again (its links replaced) and its new links followed.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore, SqliteStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

interface Seen {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A site whose pages carry an ETag (the home page) or a Last-Modified (/a.html), and honour both. */
async function site(pages: Map<string, string>): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ path, headers: request.headers });
    const body = pages.get(path);
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<p>missing</p>');
      return;
    }
    const etag = `"v${body.length}"`;
    const lastModified = 'Mon, 01 Jan 2024 00:00:00 GMT';
    const validators: Record<string, string> = path === '/' ? { etag } : { 'last-modified': lastModified };
    if ((path === '/' && request.headers['if-none-match'] === etag) || (path !== '/' && request.headers['if-modified-since'] === lastModified)) {
      response.writeHead(304, validators).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html', ...validators }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('crawl with recheck', () => {
  it('sends the stored validators, keeps a 304 page as recorded, parses a changed page again and follows its new link', async () => {
    const pages = new Map([
      ['/', '<a href="a.html">a</a> <a href="missing.html">m</a>'],
      ['/a.html', '<a href="./">home</a>'],
    ]);
    const { origin, seen } = await site(pages);
    const store = new MemoryStore();
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    const options = { store, fetcher, robots: false as const, allowPrivate: true, retries: 0 };
    await crawl(`${origin}/`, options);
    // /sitemap.xml (read by default) is a 404 here: tried by the first crawl and by a recheck, not by a resumed one.
    expect(seen.map((s) => s.path).sort()).toEqual(['/', '/a.html', '/missing.html', '/sitemap.xml']);
    const codes = async (): Promise<string[]> => (await collect(audit(store.reader()))).map((f) => `${f.code} ${f.rawHref ?? ''}`);
    expect(await codes()).toEqual(['LINK_BROKEN missing.html']);

    // Without recheck, a second crawl resumes: nothing is queued, nothing is requested (not even /sitemap.xml).
    seen.length = 0;
    await crawl(`${origin}/`, options);
    expect(seen).toEqual([]);

    // The home page changes (new link, the broken one gone); /a.html does not.
    pages.set('/', '<a href="a.html">a</a> <a href="new.html">n</a>');
    pages.set('/new.html', '<a href="./">home</a> (new)');
    seen.length = 0;
    const summary = await crawl(`${origin}/`, { ...options, recheck: true });
    const byPath = new Map(seen.map((s) => [s.path, s.headers]));
    expect(byPath.get('/')?.['if-none-match']).toBe('"v51"');
    expect(byPath.get('/a.html')?.['if-modified-since']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(byPath.get('/missing.html')?.['if-none-match']).toBeUndefined();
    expect(seen.map((s) => s.path).sort()).toEqual(['/', '/a.html', '/missing.html', '/new.html', '/sitemap.xml']);
    expect(summary.requests).toBe(5);
    // The removed broken link is fixed; /a.html answered 304 and keeps its link.
    expect(await codes()).toEqual([]);
    const links = await collect(store.reader().links());
    const a = (await store.findUrl(`${origin}/a.html`))!.id;
    expect(links.filter((l) => l.fromUrlId === a).map((l) => l.rawHref)).toEqual(['./']);
    const aFetches = (await store.history(a))!.fetches;
    expect(aFetches.map((f) => [f.status, f.isNotModified])).toEqual([
      [200, false],
      [200, true],
    ]);
    const runs = await store.runs();
    expect(runs.map((run) => run.settings['recheck'])).toEqual([false, false, true]);
    expect(runs.at(-1)?.counts?.['unchanged']).toBe(1);
  });
});

describe('a 304 to a request without validators (RFC 9110 §15.4.5)', () => {
  it('is a protocol error: a broken link is not fixed by it, and a URL never fetched is not done', async () => {
    let isLying = false;
    const { origin, seen } = await (async () => {
      const seen: Seen[] = [];
      const server = createServer((request, response) => {
        const path = request.url ?? '/';
        seen.push({ path, headers: request.headers });
        if (path === '/') {
          const body = isLying ? '<a href="missing.html">m</a> <a href="new.html">n</a>' : '<a href="missing.html">m</a>';
          response.writeHead(200, { 'content-type': 'text/html', etag: `"v${body.length}"` }).end(body);
        } else if (isLying) response.writeHead(304).end();
        else response.writeHead(404, { 'content-type': 'text/html' }).end('<p>missing</p>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => server.close(() => resolve())));
      return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
    })();
    const store = new MemoryStore();
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    const options = { store, fetcher, robots: false as const, allowPrivate: true, retries: 0, sitemap: false };
    await crawl(`${origin}/`, options);
    const codes = async (): Promise<string[]> =>
      (await collect(audit(store.reader()))).map((f) => `${f.code} ${f.rawHref ?? ''} ${String(f.detail?.['errorCode'] ?? f.detail?.['status'] ?? '')}`);
    expect(await codes()).toEqual(['LINK_BROKEN missing.html 404']);

    // The server now answers 304 to everything but the home page, asked or not.
    isLying = true;
    seen.length = 0;
    const summary = await crawl(`${origin}/`, { ...options, recheck: true });
    expect(seen.map((s) => s.path).sort()).toEqual(['/', '/missing.html', '/new.html']);
    // /missing.html was a 404: no validators went with its request.
    expect(seen.find((s) => s.path === '/missing.html')?.headers['if-none-match']).toBeUndefined();
    expect((await store.runs()).at(-1)?.counts?.['unchanged']).toBe(0);
    expect(summary.errorsByCode).toEqual({ ERR_FETCH_UNSOLICITED_NOT_MODIFIED: 2 });
    expect(await codes()).toEqual([
      'LINK_BROKEN missing.html ERR_FETCH_UNSOLICITED_NOT_MODIFIED',
      'LINK_BROKEN new.html ERR_FETCH_UNSOLICITED_NOT_MODIFIED',
    ]);
    for (const path of ['/missing.html', '/new.html']) {
      const url = (await store.findUrl(`${origin}${path}`))!;
      expect(url.state).toBe('failed');
      expect((await store.history(url.id))!.fetches.at(-1)).toMatchObject({ status: 304, errorCode: 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED', isNotModified: false });
    }
  });
});

describe('crawl with recheck: URLs that redirected', () => {
  /** `/` links to /old, /moved and /back; each answers as `answers` says now. */
  async function redirectingSite(answers: Map<string, [number, string?]>): Promise<{ origin: string; seen: string[] }> {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push(path);
      if (path === '/') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<a href="old">o</a> <a href="moved">m</a> <a href="back">b</a>');
        return;
      }
      const [status, location] = answers.get(path) ?? [404];
      if (location !== undefined) response.writeHead(status, { location }).end();
      else response.writeHead(status, { 'content-type': 'text/html' }).end(`<p>${path}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it.each([
    ['MemoryStore', () => new MemoryStore()],
    ['SqliteStore', () => new SqliteStore({ path: ':memory:' })],
  ])('%s: asks them again: a redirect that now answers 404 is a broken link, a new redirect target is found and fetched, one that no longer redirects is no finding', async (_name, openStore) => {
    const answers = new Map<string, [number, string?]>([
      ['/old', [301, '/new']],
      ['/new', [200]],
      ['/moved', [302, '/a']],
      ['/a', [200]],
      ['/b', [200]],
      ['/back', [301, '/new']],
    ]);
    const { origin, seen } = await redirectingSite(answers);
    const store = openStore();
    closers.push(() => store.close());
    const fetcher = createFetcher({ refusePrivate: false });
    closers.push(() => fetcher.close());
    const options = { store, fetcher, robots: false as const, allowPrivate: true, retries: 0, sitemap: false };
    await crawl(`${origin}/`, options);
    const codes = async (): Promise<string[]> =>
      (await collect(audit(store.reader()))).map((f) => `${f.code} ${f.rawHref ?? ''} ${String(f.detail?.['status'] ?? f.detail?.['finalUrl'] ?? '')}`);
    expect(await codes()).toEqual([`LINK_REDIRECT old ${origin}/new`, `LINK_REDIRECT moved ${origin}/a`, `LINK_REDIRECT back ${origin}/new`]);
    expect((await store.findUrl(`${origin}/old`))?.state).toBe('alias');

    // /old is gone; /moved now leads to /b; /back answers itself again.
    answers.set('/old', [404]);
    answers.set('/moved', [302, '/b']);
    answers.set('/back', [200]);
    seen.length = 0;
    await crawl(`${origin}/`, { ...options, recheck: true });
    expect(seen.filter((path) => path === '/old' || path === '/moved' || path === '/b' || path === '/back')).toHaveLength(4);
    expect(seen.filter((path) => path === '/new' || path === '/a')).toHaveLength(2);
    expect(await codes()).toEqual([`LINK_BROKEN old 404`, `LINK_REDIRECT moved ${origin}/b`]);
    const old = (await store.findUrl(`${origin}/old`))!;
    expect(old.state).toBe('done');
    expect(old.aliasOf).toBeUndefined();
    const b = (await store.findUrl(`${origin}/b`))!;
    expect(b.state).toBe('done');
    expect((await store.findUrl(`${origin}/moved`))!.aliasOf).toBe(b.id);

    // Asked again once more, what still redirects stays an alias of its target; nothing is asked twice.
    seen.length = 0;
    await crawl(`${origin}/`, { ...options, recheck: true });
    expect([...seen].sort()).toEqual(['/', '/a', '/b', '/back', '/moved', '/new', '/old']);
    expect((await store.findUrl(`${origin}/moved`))!).toMatchObject({ state: 'alias', aliasOf: b.id });
  });
});
