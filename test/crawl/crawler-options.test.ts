import { describe, expect, expectTypeOf, it } from 'vitest';
import { CRAWL_DEFAULTS, runCrawler, crawlerOptionsOf, validateCrawlerOptions, validateSeeds, type CrawlerOptions, type ValidCrawlerOptions } from '../../src/crawl/index.js';
import type { RobotsPolicy } from '../../src/fetch/index.js';
import { OptionError } from '../../src/errors.js';
import { MemoryStore } from '../../src/store/index.js';
import { FakeSite } from './fake-site.js';

const base = (): CrawlerOptions => ({ seeds: 'http://example.com/', store: new MemoryStore(), fetcher: new FakeSite({}) });

describe('crawl options', () => {
  it('fills in the defaults, documented in one const', () => {
    const valid = validateCrawlerOptions(base());
    expect(valid).toMatchObject({
      seeds: ['http://example.com/'],
      concurrency: 4,
      perHostConcurrency: 1,
      perHostDelayMs: 0,
      maxDepth: Infinity,
      maxPages: Infinity,
      scope: 'origin',
      include: [],
      exclude: [],
      allowPrivate: false,
      baseMode: 'rfc3986',
      follow: ['navigation', 'frame', 'refresh'],
      contentLocationAlias: 'negotiated',
      retries: 2,
      retryDelayMs: 1000,
      robots: undefined,
    });
    expect(Object.isFrozen(valid)).toBe(true);
    expect(CRAWL_DEFAULTS.now).toBe(Date.now);
  });

  it('puts seeds at the scheme rung, without fragment', () => {
    expect(validateCrawlerOptions({ ...base(), seeds: ['HTTP://Example.COM:80#top', 'https://example.com/a/../b'] }).seeds).toEqual([
      'http://example.com/',
      'https://example.com/b',
    ]);
  });

  it.each([
    [{ concurrency: 0 }, 'Expected `concurrency` to be an integer from 1 to 1000, got `0` (number)'],
    [{ concurrency: 1.5 }, 'Expected `concurrency` to be an integer from 1 to 1000, got `1.5` (number)'],
    [{ perHostConcurrency: '2' }, 'Expected `perHostConcurrency` to be an integer from 1 to 256, got `2` (string)'],
    [{ perHostDelayMs: -1 }, 'Expected `perHostDelayMs` to be an integer from 0 to 3600000, got `-1` (number)'],
    [{ parseThreads: -1 }, 'Expected `parseThreads` to be an integer from 0 to 64, got `-1` (number)'],
    [{ parseThreads: 'auto' }, 'Expected `parseThreads` to be an integer from 0 to 64, got `auto` (string)'],
    [{ maxDepth: -1 }, 'Expected `maxDepth` to be an integer >= 0, got `-1` (number)'],
    [{ maxPages: NaN }, 'Expected `maxPages` to be an integer >= 0, got `NaN` (number)'],
    [{ scope: 'site' }, 'Expected `scope` to be one of origin, host, domain, prefix, got `site` (string)'],
    [{ baseMode: 'html' }, 'Expected `baseMode` to be one of rfc3986, browser, got `html` (string)'],
    [{ contentLocationAlias: true }, 'Expected `contentLocationAlias` to be one of negotiated, same-origin, off, got `true` (boolean)'],
    [{ follow: ['anchor'] }, 'Expected `follow[0]` to be one of navigation, frame, refresh, link, resource, form, cite, got `anchor` (string)'],
    [{ follow: 'navigation' }, 'Expected `follow` to be an array of navigation, frame, refresh, link, resource, form, cite, got `navigation` (string)'],
    [{ include: [3] }, 'Expected `include[0]` to be a regular expression (a RegExp or a string), got `3` (number)'],
    [{ exclude: ['ok', '('] }, 'Expected `exclude[1]` to be valid, got `(` (string): Invalid regular expression: /(/: Unterminated group'],
    [{ concurrency: 0, retries: -1 }, 'Expected `concurrency` to be an integer from 1 to 1000, got `0` (number); Expected `retries` to be an integer from 0 to 10, got `-1` (number)'],
    [{ allowPrivate: 1 }, 'Expected `allowPrivate` to be true or false, got `1` (number)'],
    [{ onEvent: 'log' }, 'Expected `onEvent` to be a function, got `log` (string)'],
    [{ signal: {} }, 'Expected `signal` to be an AbortSignal, got an object'],
    [{ store: {} }, 'Expected `store` to be an IndexWriter (with a `admit` method), got an object'],
    [{ fetcher: undefined }, 'Expected `fetcher` to be a Fetcher (with a `fetch` method), got `undefined` (undefined)'],
    [{ robots: { isAllowed: () => true } }, 'Expected `robots` to be a RobotsPolicy (with a `crawlDelayMs` method), got an object'],
    [{ seeds: [] }, 'Expected `seeds` to be an absolute http(s) URL or a non-empty array of them, got an array'],
    [{ seeds: '/relative' }, 'Expected `seeds` to hold absolute http(s) URLs with a host, got `/relative` (string) (ERR_URI_NOT_ABSOLUTE at index 0)'],
    [{ seeds: 'ftp://example.com/' }, 'Expected `seeds` to hold absolute http(s) URLs with a host, got `ftp://example.com/` (string)'],
    [{ seeds: 'http://exa mple.com/' }, 'Expected `seeds` to hold absolute http(s) URLs with a host, got `http://exa mple.com/` (string) (ERR_URI_BAD_HOST at index 10)'],
    [
      { seeds: 'http://0x7f.1/' },
      'Expected `seeds` to name public hosts unless `allowPrivate` is true, got `http://0x7f.1/` (string): names a loopback address (127.0.0.1); set `allowPrivate` to crawl it',
    ],
    [{ depth: 3 }, 'Option `depth` is not supported; use `maxDepth`'],
    [{ delay: 3 }, 'Option `delay` is not supported; use `perHostDelayMs`'],
    [{ perHost: 3 }, 'Option `perHost` is not supported; use `perHostConcurrency`'],
    [{ wat: 3 }, /^Unknown option `wat`; the options are `seeds`, `store`/],
  ])('%o → %s', (extra, message) => {
    const options = { ...base(), ...extra } as unknown as CrawlerOptions;
    expect(() => validateCrawlerOptions(options)).toThrow(OptionError);
    expect(() => validateCrawlerOptions(options)).toThrow(message);
  });

  it('crawl() rejects a bad option before doing anything', async () => {
    const store = new MemoryStore();
    await expect(runCrawler({ ...base(), store, concurrency: 0 })).rejects.toMatchObject({ code: 'ERR_API_BAD_OPTION' });
    expect((await store.stats()).urlsByState.queued).toBe(0);
  });

  it('copies a global or sticky pattern without its state-keeping flag', () => {
    const valid = validateCrawlerOptions({ ...base(), exclude: [/a/gi, /b/y] });
    expect(valid.exclude.map((p) => p.flags)).toEqual(['i', '']);
  });

  it('takes patterns as strings too, and null or Infinity as no limit', () => {
    const valid = validateCrawlerOptions({ ...base(), include: ['^http://example\\.com/a', /b/], maxDepth: null, maxPages: Infinity });
    expect(valid.include.map((p) => p.source)).toEqual(['^http:\\/\\/example\\.com\\/a', 'b']);
    expect(valid).toMatchObject({ maxDepth: Infinity, maxPages: Infinity });
  });

  it('validates once: what it returned passes again as it is', () => {
    const valid = validateCrawlerOptions(base());
    expect(validateCrawlerOptions(valid)).toBe(valid);
    // A copy is not trusted: it is checked again.
    expect(validateCrawlerOptions({ ...valid })).not.toBe(valid);
  });

  it('crawlerOptionsOf takes settings checked elsewhere and checks only the runtime', () => {
    const seeds = validateSeeds('http://example.com/#x', false);
    expect(seeds).toEqual(['http://example.com/']);
    const valid = crawlerOptionsOf({ ...CRAWL_DEFAULTS, concurrency: 2 }, seeds, { store: new MemoryStore(), fetcher: new FakeSite({}) });
    expect(valid).toMatchObject({ concurrency: 2, seeds: ['http://example.com/'], robots: undefined });
    expect(validateCrawlerOptions(valid)).toBe(valid);
    expect(() => crawlerOptionsOf(CRAWL_DEFAULTS, seeds, { store: new MemoryStore(), fetcher: {} as never })).toThrow(
      'Expected `fetcher` to be a Fetcher (with a `fetch` method), got an object',
    );
  });

  it('derives the types from the schema: what callers write, and what the crawler reads', () => {
    expectTypeOf<CrawlerOptions['maxDepth']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<CrawlerOptions['include']>().toEqualTypeOf<readonly (string | RegExp)[] | undefined>();
    expectTypeOf<ValidCrawlerOptions['maxDepth']>().toEqualTypeOf<number>();
    expectTypeOf<ValidCrawlerOptions['include']>().toEqualTypeOf<readonly RegExp[]>();
    expectTypeOf<ValidCrawlerOptions['perHostConcurrency']>().toEqualTypeOf<number>();
    expectTypeOf<ValidCrawlerOptions['robots']>().toEqualTypeOf<RobotsPolicy | undefined>();
    expectTypeOf<ValidCrawlerOptions['now']>().toEqualTypeOf<() => number>();
  });
});
