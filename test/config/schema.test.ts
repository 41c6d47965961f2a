import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BaseMode } from '../../src/base/index.js';
import {
  CRAWL_SETTINGS_DEFAULTS,
  SETTINGS,
  crawlSettingsSchema,
  loadCrawlSettings,
  type CrawlSettings,
  type SettingKey,
} from '../../src/config/index.js';
import { CRAWL_DEFAULTS, crawlOptionsSchema, type Scope } from '../../src/crawl/index.js';
import { FETCHER_DEFAULTS } from '../../src/fetch/index.js';
import { DEFAULT_DB_PATH } from '../../src/store/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the settings schema', () => {
  it("has the lower layers' defaults", () => {
    expect(CRAWL_SETTINGS_DEFAULTS).toEqual({
      db: DEFAULT_DB_PATH,
      dbPoolSize: 4,
      dbTransactionPooling: false,
      baseMode: CRAWL_DEFAULTS.baseMode,
      scope: CRAWL_DEFAULTS.scope,
      include: [],
      exclude: [],
      follow: ['navigation', 'frame', 'refresh'],
      checkResources: true,
      checkExternal: true,
      statusPolicy: '',
      maxDepth: Infinity,
      maxPages: Infinity,
      maxLinksPerPage: 50_000,
      maxQueuedPerPage: 10_000,
      concurrency: CRAWL_DEFAULTS.concurrency,
      perHostConcurrency: CRAWL_DEFAULTS.perHostConcurrency,
      perHostDelayMs: CRAWL_DEFAULTS.perHostDelayMs,
      parseThreads: null,
      retries: CRAWL_DEFAULTS.retries,
      retryDelayMs: CRAWL_DEFAULTS.retryDelayMs,
      requestTimeoutMs: CRAWL_DEFAULTS.requestTimeoutMs,
      minBytesPerSecond: CRAWL_DEFAULTS.minBytesPerSecond,
      maxBodyBytes: FETCHER_DEFAULTS.maxBodyBytes,
      contentLocationAlias: CRAWL_DEFAULTS.contentLocationAlias,
      sitemap: true,
      maxSitemaps: 50,
      maxSitemapEntries: 50_000,
      contentEvidence: false,
      recheck: false,
      secondPass: false,
      allowPrivate: CRAWL_DEFAULTS.allowPrivate,
      ignoreRobots: false,
      header: [],
      headerFor: [],
      cookieJar: '',
      keepCookies: false,
      proxy: '',
      caFile: '',
      insecure: false,
      http2: CRAWL_DEFAULTS.http2,
      warc: '',
      warcMaxSize: 1_000_000_000,
      wacz: '',
      userAgent: FETCHER_DEFAULTS.userAgent,
      json: false,
    });
    expect(crawlSettingsSchema.parse({})).toEqual(CRAWL_SETTINGS_DEFAULTS);
  });

  it('names each setting alike everywhere: key = the flag in camelCase, variable = LINKLADDER_ + the key in UPPER_SNAKE', () => {
    expect(SETTINGS.map(({ key, flag, env, kind }) => [key, flag, env, kind])).toEqual([
      ['db', '--db', 'LINKLADDER_DB', 'string'],
      ['dbPoolSize', '--db-pool-size', 'LINKLADDER_DB_POOL_SIZE', 'integer'],
      ['dbTransactionPooling', '--db-transaction-pooling', 'LINKLADDER_DB_TRANSACTION_POOLING', 'switch'],
      ['baseMode', '--base-mode', 'LINKLADDER_BASE_MODE', 'choice'],
      ['scope', '--scope', 'LINKLADDER_SCOPE', 'choice'],
      ['include', '--include', 'LINKLADDER_INCLUDE', 'list'],
      ['exclude', '--exclude', 'LINKLADDER_EXCLUDE', 'list'],
      ['follow', '--follow', 'LINKLADDER_FOLLOW', 'list'],
      ['checkResources', '--check-resources', 'LINKLADDER_CHECK_RESOURCES', 'switch'],
      ['checkExternal', '--check-external', 'LINKLADDER_CHECK_EXTERNAL', 'switch'],
      ['statusPolicy', '--status-policy', 'LINKLADDER_STATUS_POLICY', 'string'],
      ['maxDepth', '--max-depth', 'LINKLADDER_MAX_DEPTH', 'integer'],
      ['maxPages', '--max-pages', 'LINKLADDER_MAX_PAGES', 'integer'],
      ['maxLinksPerPage', '--max-links-per-page', 'LINKLADDER_MAX_LINKS_PER_PAGE', 'integer'],
      ['maxQueuedPerPage', '--max-queued-per-page', 'LINKLADDER_MAX_QUEUED_PER_PAGE', 'integer'],
      ['concurrency', '--concurrency', 'LINKLADDER_CONCURRENCY', 'integer'],
      ['perHostConcurrency', '--per-host-concurrency', 'LINKLADDER_PER_HOST_CONCURRENCY', 'integer'],
      ['perHostDelayMs', '--per-host-delay-ms', 'LINKLADDER_PER_HOST_DELAY_MS', 'integer'],
      ['parseThreads', '--parse-threads', 'LINKLADDER_PARSE_THREADS', 'integer'],
      ['retries', '--retries', 'LINKLADDER_RETRIES', 'integer'],
      ['retryDelayMs', '--retry-delay-ms', 'LINKLADDER_RETRY_DELAY_MS', 'integer'],
      ['requestTimeoutMs', '--request-timeout-ms', 'LINKLADDER_REQUEST_TIMEOUT_MS', 'integer'],
      ['minBytesPerSecond', '--min-bytes-per-second', 'LINKLADDER_MIN_BYTES_PER_SECOND', 'integer'],
      ['maxBodyBytes', '--max-body-bytes', 'LINKLADDER_MAX_BODY_BYTES', 'integer'],
      ['contentLocationAlias', '--content-location-alias', 'LINKLADDER_CONTENT_LOCATION_ALIAS', 'choice'],
      ['sitemap', '--sitemap', 'LINKLADDER_SITEMAP', 'switch'],
      ['maxSitemaps', '--max-sitemaps', 'LINKLADDER_MAX_SITEMAPS', 'integer'],
      ['maxSitemapEntries', '--max-sitemap-entries', 'LINKLADDER_MAX_SITEMAP_ENTRIES', 'integer'],
      ['contentEvidence', '--content-evidence', 'LINKLADDER_CONTENT_EVIDENCE', 'switch'],
      ['recheck', '--recheck', 'LINKLADDER_RECHECK', 'switch'],
      ['secondPass', '--second-pass', 'LINKLADDER_SECOND_PASS', 'switch'],
      ['allowPrivate', '--allow-private', 'LINKLADDER_ALLOW_PRIVATE', 'switch'],
      ['ignoreRobots', '--ignore-robots', 'LINKLADDER_IGNORE_ROBOTS', 'switch'],
      ['header', '--header', 'LINKLADDER_HEADER', 'list'],
      ['headerFor', '--header-for', 'LINKLADDER_HEADER_FOR', 'list'],
      ['cookieJar', '--cookie-jar', 'LINKLADDER_COOKIE_JAR', 'string'],
      ['keepCookies', '--keep-cookies', 'LINKLADDER_KEEP_COOKIES', 'switch'],
      ['proxy', '--proxy', 'LINKLADDER_PROXY', 'string'],
      ['caFile', '--ca-file', 'LINKLADDER_CA_FILE', 'string'],
      ['insecure', '--insecure', 'LINKLADDER_INSECURE', 'switch'],
      ['http2', '--http2', 'LINKLADDER_HTTP2', 'switch'],
      ['warc', '--warc', 'LINKLADDER_WARC', 'string'],
      ['warcMaxSize', '--warc-max-size', 'LINKLADDER_WARC_MAX_SIZE', 'integer'],
      ['wacz', '--wacz', 'LINKLADDER_WACZ', 'string'],
      ['userAgent', '--user-agent', 'LINKLADDER_USER_AGENT', 'string'],
      ['json', '--json', 'LINKLADDER_JSON', 'switch'],
    ]);
    expect(SETTINGS.find((setting) => setting.key === 'scope')?.choices).toEqual(['origin', 'host', 'domain', 'prefix']);
  });

  it("holds crawl()'s options by their names, with crawl()'s defaults: one schema extended, not a copy", () => {
    for (const key of Object.keys(crawlOptionsSchema.shape)) {
      expect(crawlSettingsSchema.shape[key as SettingKey], key).toBe(crawlOptionsSchema.shape[key as keyof typeof crawlOptionsSchema.shape]);
      expect(CRAWL_SETTINGS_DEFAULTS[key as SettingKey], key).toEqual(CRAWL_DEFAULTS[key as keyof typeof CRAWL_DEFAULTS]);
    }
    expect(SETTINGS.map((setting) => setting.key).filter((key) => !(key in crawlOptionsSchema.shape))).toEqual(['db', 'dbPoolSize', 'dbTransactionPooling', 'userAgent', 'json']);
  });

  it('gives every setting a description and, but for switches, a flag argument', () => {
    for (const setting of SETTINGS) {
      expect(setting.meta.description, setting.key).not.toBe('');
      expect(setting.meta.argument === undefined, setting.key).toBe(setting.kind === 'switch');
    }
  });

  it('infers the types of the settings', () => {
    expectTypeOf<SettingKey>().toEqualTypeOf<
      | 'db'
      | 'dbPoolSize'
      | 'dbTransactionPooling'
      | 'baseMode'
      | 'scope'
      | 'include'
      | 'exclude'
      | 'follow'
      | 'checkResources'
      | 'checkExternal'
      | 'statusPolicy'
      | 'maxDepth'
      | 'maxPages'
      | 'maxLinksPerPage'
      | 'maxQueuedPerPage'
      | 'concurrency'
      | 'perHostConcurrency'
      | 'perHostDelayMs'
      | 'parseThreads'
      | 'retries'
      | 'retryDelayMs'
      | 'requestTimeoutMs'
      | 'minBytesPerSecond'
      | 'maxBodyBytes'
      | 'contentLocationAlias'
      | 'sitemap'
      | 'maxSitemaps'
      | 'maxSitemapEntries'
      | 'contentEvidence'
      | 'recheck'
      | 'secondPass'
      | 'allowPrivate'
      | 'ignoreRobots'
      | 'header'
      | 'headerFor'
      | 'cookieJar'
      | 'keepCookies'
      | 'proxy'
      | 'caFile'
      | 'insecure'
      | 'http2'
      | 'warc'
      | 'warcMaxSize'
      | 'wacz'
      | 'userAgent'
      | 'json'
    >();
    expectTypeOf<CrawlSettings['baseMode']>().toEqualTypeOf<BaseMode>();
    expectTypeOf<CrawlSettings['scope']>().toEqualTypeOf<Scope>();
    expectTypeOf<CrawlSettings['include']>().toEqualTypeOf<readonly RegExp[]>();
    expectTypeOf<CrawlSettings['maxDepth']>().toEqualTypeOf<number>();
    expectTypeOf<CrawlSettings['parseThreads']>().toEqualTypeOf<number | null>();
    expectTypeOf<CrawlSettings['concurrency']>().toEqualTypeOf<number>();
    expectTypeOf<CrawlSettings['allowPrivate']>().toEqualTypeOf<boolean>();
    expectTypeOf<CrawlSettings['db']>().toEqualTypeOf<string>();
  });
});

describe('config/linkladder.config.json', () => {
  const text = readFileSync(new URL('../../config/linkladder.config.json', import.meta.url), 'utf8');

  it('writes out every setting, in the schema order', () => {
    expect(Object.keys(JSON.parse(text) as object)).toEqual(SETTINGS.map((setting) => setting.key));
  });

  it("holds the schema's defaults: loaded as the config file, it changes nothing", async () => {
    await expect(loadCrawlSettings({ cwd: ROOT, env: {} })).resolves.toEqual(CRAWL_SETTINGS_DEFAULTS);
    expect(crawlSettingsSchema.parse(JSON.parse(text))).toEqual(CRAWL_SETTINGS_DEFAULTS);
  });
});
