// crawl(seed, options): one call, the defaults of `linkladder crawl` — the SQLite
// index, the HTTP fetcher, robots.txt — and what it opens it closes.

import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { OptionError, crawl, openIndex, type CrawlOptions, type CrawlSummary } from '../src/index.js';
import { CRAWL_SETTINGS_DEFAULTS } from '../src/config/index.js';
import { MemoryStore, SqliteStore } from '../src/store/index.js';
import { FakeSite } from './crawl/fake-site.js';

const PAGES: Readonly<Record<string, string>> = {
  '/': '<a href="a">a</a> <a href="./b">b</a> <a href="/private/x">x</a>',
  '/a': '<a href="/">home</a> <a href="b#top">b</a>',
  '/b': 'no links',
  '/private/x': 'never fetched',
};

let server: Server;
let origin: string;
const requests: { readonly url: string; readonly userAgent: string | undefined; readonly authorization?: string | undefined; readonly token?: string | undefined }[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-api-crawl-'));

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', userAgent: request.headers['user-agent'], authorization: request.headers.authorization, token: request.headers['x-token'] as string | undefined });
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    const body = PAGES[request.url ?? ''];
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('crawl(seed, options)', () => {
  it("records each request's start on the clock it is given as `now`, the one it paces hosts by", async () => {
    const db = path.join(dir, 'own-clock.db');
    const epoch = Date.UTC(2001, 0, 1);
    const start = Date.now();
    await crawl(`${origin}/`, { db, allowPrivate: true, now: () => epoch + (Date.now() - start) });
    const index = new Database(db, { readonly: true });
    const started = index.prepare('SELECT started_at FROM fetch').pluck().all() as number[];
    index.close();
    expect(started.length).toBeGreaterThan(0);
    for (const at of started) expect(at - epoch).toSatisfy((ms: number) => ms >= 0 && ms < 60_000);
  });

  it('crawls in one call with the CLI defaults: the SQLite index at `db`, the HTTP fetcher, robots.txt', async () => {
    const db = path.join(dir, 'one-call.db');
    requests.length = 0;
    const summary = await crawl(`${origin}/`, { db, allowPrivate: true });
    expect(summary).toMatchObject({ pagesFetched: 3, stoppedBy: 'frontier-empty' });
    // robots.txt was asked for and obeyed, /sitemap.xml tried (on by default, as in the CLI; none here),
    // with the default user-agent on every request.
    expect(requests.map((request) => request.url).sort()).toEqual(['/', '/a', '/b', '/robots.txt', '/sitemap.xml']);
    expect(new Set(requests.map((request) => request.userAgent))).toEqual(new Set([CRAWL_SETTINGS_DEFAULTS.userAgent]));
    // The index was closed (it opens again) and keeps the crawl and robots.txt (RFC 9309 §2.4), as the CLI's does.
    const index = new SqliteStore({ path: db });
    expect((await index.stats()).urlsByState.done).toBe(3);
    expect(await index.robotsCache.get(origin)).toBeDefined();
    await index.close();
  });

  it('resumes on the same index: nothing is fetched twice, and robots.txt comes from the index', async () => {
    const db = path.join(dir, 'resume.db');
    await crawl([`${origin}/`], { db, allowPrivate: true, maxPages: 1, userAgent: 'api-test/1.0' });
    requests.length = 0;
    const summary = await crawl(`${origin}/`, { db, allowPrivate: true, userAgent: 'api-test/1.0' });
    expect(summary.pagesFetched).toBe(2);
    expect(requests.map((request) => request.url).sort()).toEqual(['/a', '/b']);
    expect(requests.every((request) => request.userAgent === 'api-test/1.0')).toBe(true);
  });

  it('leaves open what it was given: store, fetcher, robots (false: not consulted)', async () => {
    const store = new MemoryStore();
    const fetcher = new FakeSite({ 'http://example.com/': { body: '<a href="/p">p</a>' }, 'http://example.com/p': { body: '' } });
    const summary = await crawl('http://example.com/', { store, fetcher, robots: false, concurrency: 2, perHostConcurrency: 2 });
    expect(summary.pagesFetched).toBe(2);
    expect((await store.stats()).urlsByState.done).toBe(2);
    await store.close();
  });

  it('crawls into an index from openIndex()', async () => {
    const store = await openIndex(':memory:');
    const fetcher = new FakeSite({ 'http://example.com/': { body: '' } });
    await crawl('http://example.com/', { store, fetcher, robots: false });
    expect((await store.stats()).urlsByState.done).toBe(1);
    await store.close();
  });

  it.each<[string, unknown, string | RegExp]>([
    ['a bad value', { concurrency: 0 }, 'Expected `concurrency` to be an integer from 1 to 1000, got `0` (number)'],
    ['a bad pattern', { exclude: ['('] }, 'Expected `exclude[0]` to be valid, got `(` (string): Invalid regular expression: /(/: Unterminated group'],
    ['a former name', { perHost: 2 }, 'Option `perHost` is not supported; use `perHostConcurrency`'],
    ['an unknown option', { seeds: ['http://example.com/'] }, /^Unknown option `seeds`; the options are `store`, `fetcher`, `robots`/],
    ['both store and db', { store: new MemoryStore() }, 'Expected one of `store` and `db`, got both'],
    ['a bad robots', { robots: true }, 'Expected `robots` to be a RobotsPolicy or false, got `true` (boolean)'],
    ['a CLI-only setting', { json: true }, /^Unknown option `json`/],
  ])('%s: OptionError before anything is opened', async (_, extra, message) => {
    const db = path.join(dir, 'never.db');
    const options = { db, ...(extra as object) } as CrawlOptions;
    await expect(crawl('http://example.com/', options)).rejects.toThrow(OptionError);
    await expect(crawl('http://example.com/', options)).rejects.toThrow(message);
    expect(existsSync(db)).toBe(false);
  });

  it('a bad seed, or a private one without allowPrivate: OptionError, no index file', async () => {
    const db = path.join(dir, 'never-seed.db');
    await expect(crawl('/relative', { db })).rejects.toMatchObject({ code: 'ERR_API_BAD_OPTION' });
    await expect(crawl(`${origin}/`, { db })).rejects.toThrow(/to name public hosts unless `allowPrivate` is true/);
    expect(existsSync(db)).toBe(false);
  });

  it('has the documented signature; its options are the settings of `linkladder crawl` by name', () => {
    expectTypeOf(crawl).parameters.toEqualTypeOf<[seed: string | readonly string[], options?: CrawlOptions]>();
    expectTypeOf(crawl).returns.toEqualTypeOf<Promise<CrawlSummary>>();
    expectTypeOf<CrawlOptions['concurrency']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CrawlOptions['perHostDelayMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CrawlOptions['maxDepth']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<CrawlOptions['include']>().toEqualTypeOf<readonly (string | RegExp)[] | undefined>();
    expectTypeOf<CrawlOptions['scope']>().toEqualTypeOf<'origin' | 'host' | 'domain' | 'prefix' | undefined>();
    expectTypeOf<CrawlOptions['db']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CrawlOptions['robots']>().toEqualTypeOf<import('../src/index.js').RobotsPolicy | false | undefined>();
    expectTypeOf<CrawlOptions>().not.toHaveProperty('json');
    expectTypeOf<CrawlOptions>().not.toHaveProperty('seeds');
  });
});

describe('crawl(seed, options): credentials', () => {
  it('a seed\'s userinfo is Basic auth for its origin, `header` goes to it with ${VAR} read from process.env; the seed is kept without userinfo', async () => {
    const db = path.join(dir, 'credentials.db');
    requests.length = 0;
    process.env.LINKLADDER_TEST_API_TOKEN = 'api-s3cret';
    try {
      const summary = await crawl(origin.replace('http://', 'http://me:pa%40ss@') + '/', { db, allowPrivate: true, header: ['X-Token: ${LINKLADDER_TEST_API_TOKEN}'] });
      expect(summary.seeds.map((seed) => seed.url)).toEqual([`${origin}/`]);
    } finally {
      delete process.env.LINKLADDER_TEST_API_TOKEN;
    }
    expect(requests.length).toBeGreaterThan(2);
    for (const request of requests) {
      expect(request.authorization, request.url).toBe(`Basic ${Buffer.from('me:pa@ss').toString('base64')}`);
      expect(request.token, request.url).toBe('api-s3cret');
    }
    const index = await openIndex(db);
    try {
      const [run] = await index.runs();
      expect(run?.seeds).toEqual([`${origin}/`]);
      expect(run?.settings.headerNames).toEqual(['X-Token']);
      expect(JSON.stringify(run?.settings)).not.toContain('LINKLADDER_TEST_API_TOKEN');
    } finally {
      await index.close();
    }
  });

  it('refuses credentials with a fetcher of the caller\'s, and an unset ${VAR}', async () => {
    await expect(crawl(`${origin}/`, { store: new MemoryStore(), allowPrivate: true, header: ['X-Token: 1'], fetcher: { fetch: () => Promise.reject(new Error('unused')) } })).rejects.toThrow(
      /give yours `credentials` instead/,
    );
    await expect(crawl(`${origin}/`, { store: new MemoryStore(), allowPrivate: true, header: ['X-Token: ${LINKLADDER_TEST_UNSET}'] })).rejects.toThrow(
      /LINKLADDER_TEST_UNSET, which is not set/,
    );
  });
});
