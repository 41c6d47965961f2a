// The settings of a crawl as one zod schema: the single source of crawl()'s option
// names, types, defaults and checks, which the config layer extends with the command
// line's own (db, userAgent, json) for flags, LINKLADDER_* variables, the config file
// and README's options table.
//
// Each check's message is a sentence of its own ("Expected an integer >= 1"): the
// boundary that reports it adds the name and the value it was given.

import * as z from 'zod';
import { BASE_MODES } from '../base/index.js';
import { DEFAULT_FOLLOW, LINK_KINDS } from '../html/index.js';
import { SCOPES } from './scope.js';
import { SETTING_META, integerBetween, isOn, limit, linkKinds, oneOf, patterns, statusPolicyText } from './setting-kinds.js';
import { ARCHIVE_SETTINGS } from './archive-settings.js';
import { TRANSPORT_SETTINGS } from './transport-settings.js';
import { DEFAULT_CACHE_MAX_AGE_MS, parseCacheMaxAge } from './verdict-cache.js';

/**
 * Which `Content-Location` values (RFC 9110 §8.7) make the URL asked for an alias of
 * the one named. Evidence from another origin never counts.
 * - `negotiated`: only the pattern of content negotiation — a variant in the same
 *   directory whose last segment extends the one asked for (`page.html` →
 *   `page.html.en`, `page` → `page.en.html`), or any file in it for a directory
 *   (`/manual/` → `/manual/index.html.en`). A server that sends `Content-Location: /`
 *   on every page then makes nothing an alias.
 * - `same-origin`: any URL of the same origin, checked only by contradiction (two
 *   responses that claim to be one URL with different bodies revoke the aliases).
 * - `off`: Content-Location makes no alias (it still plays its part in the base chain).
 */
export const CONTENT_LOCATION_POLICIES = ['negotiated', 'same-origin', 'off'] as const;

export type ContentLocationPolicy = (typeof CONTENT_LOCATION_POLICIES)[number];

/** The ranges of the numbers: every number has a sane range, so a typo cannot ask for a billion connections or a year's wait. */
export const RANGES = Object.freeze({
  concurrency: [1, 1000],
  perHostConcurrency: [1, 256],
  /** One hour between two requests to one host at most. */
  perHostDelayMs: [0, 3_600_000],
  parseThreads: [0, 64],
  retries: [0, 10],
  /** As a Retry-After is honoured up to 60 s. */
  retryDelayMs: [0, 60_000],
  /** A second at least (connecting alone may take that), an hour at most. */
  requestTimeoutMs: [1000, 3_600_000],
  /** 0: no minimum; 1 GiB/s is past any link. */
  minBytesPerSecond: [0, 1_073_741_824],
  /** A KiB at least (a page's head), a GiB at most (a body is held in memory whole). */
  maxBodyBytes: [1024, 1_073_741_824],
  /** A 10 MiB page (the body cap) holds ~810,000 links at most. */
  maxLinksPerPage: [0, 1_000_000],
  maxQueuedPerPage: [0, 1_000_000],
  /** Sitemap files read per seed origin (indexes and the sitemaps they name, together). */
  maxSitemaps: [0, 10_000],
  /** The sitemaps.org protocol allows 50,000 entries per file. */
  maxSitemapEntries: [1, 50_000],
} as const satisfies Record<string, readonly [number, number]>);

/**
 * The `sitemap` setting with its default (on: crawl() and the `crawl` command keep
 * the same defaults).
 */
export function sitemapSetting(isDefaultOn = true) {
  return isOn.default(isDefaultOn).register(SETTING_META, {
    description: 'read `/sitemap.xml` and robots.txt `Sitemap:` lines of each seed\'s origin: their URLs seed the crawl, the audit checks them',
  });
}

/**
 * `--cache-max-age`: how long an external link's verified answer is reused from the
 * previous run's index (`readVerdictCache`) — a duration as a person writes it (`1d`,
 * `12h`, `30m`, `45s`, `0` = no cache), parsed to ms. Not a setting of crawl(), which is
 * given the cache itself: for a command that keeps an index between runs (`check`).
 * @default 86400000 (1d)
 */
export function cacheMaxAgeSetting() {
  return z
    .string({ error: CACHE_MAX_AGE_ERROR })
    .transform((text, context) => {
      try {
        return parseCacheMaxAge(text);
      } catch {
        context.addIssue({ code: 'custom', message: CACHE_MAX_AGE_ERROR });
        return z.NEVER;
      }
    })
    .default(DEFAULT_CACHE_MAX_AGE_MS)
    .register(SETTING_META, {
      argument: 'DURATION',
      defaultText: '`1d`',
      description: 'reuse an external link\'s verified answer from the previous run for this long (`12h`, `30m`, `0` = ask every link again)',
    });
}

const CACHE_MAX_AGE_ERROR = 'Expected a duration such as 1d, 12h, 30m, 45s, or 0 (no cache)';

/** The settings of a crawl (every option of crawl() that is data), in the order of --help and README. */
export const crawlOptionsSchema = z.object({
  /**
   * The base URI chain: `rfc3986` uses Content-Location, `browser` does not.
   * @default 'rfc3986'
   */
  baseMode: oneOf(BASE_MODES)
    .default('rfc3986')
    .register(SETTING_META, {
      argument: 'MODE',
      description: 'the base URI chain: `rfc3986` uses `Content-Location` (§5.1.2), `browser` does not',
    }),
  /**
   * How far from the seeds the crawl goes: the same `origin` as a seed, the same
   * `host` (any scheme or port), its `domain` (and subdomains), or a path `prefix`.
   * @default 'origin'
   */
  scope: oneOf(SCOPES)
    .default('origin')
    .register(SETTING_META, {
      argument: 'SCOPE',
      description: 'same origin as a seed, same `host` (any scheme or port), `domain` (and subdomains), or path `prefix`',
    }),
  /**
   * When not empty, a URL is followed only if one of these matches it (tested
   * against its key: the RFC 3986 §6.2.3 scheme-rung form, without fragment).
   * RegExps, or their sources as strings.
   * @default []
   */
  include: patterns.default(() => []).register(SETTING_META, {
    argument: 'REGEX',
    defaultText: 'none',
    description: 'follow only URLs (their keys) that one such pattern matches; repeatable',
  }),
  /**
   * A URL that one of these matches is recorded, not followed.
   * @default []
   */
  exclude: patterns
    .default(() => [])
    .register(SETTING_META, { argument: 'REGEX', defaultText: 'none', description: 'record, never follow, URLs a pattern matches; repeatable' }),
  /**
   * The kinds of reference followed; every reference is recorded anyway. `link`
   * covers `<link href>` and the HTTP `Link` header.
   * @default ['navigation', 'frame', 'refresh']
   */
  follow: linkKinds.default(() => [...DEFAULT_FOLLOW]).register(SETTING_META, {
    argument: 'KIND',
    defaultText: DEFAULT_FOLLOW.map((kind) => `\`${kind}\``).join(', '),
    description: `the kinds of link followed (${LINK_KINDS.map((kind) => `\`${kind}\``).join(', ')}); every link is recorded; repeatable`,
  }),
  /**
   * Check what pages use — images and their srcset candidates, scripts, stylesheets,
   * icons, preloads, manifests, media, embeds, and the `url()` and `@import` of CSS —
   * each URL once, with GET (the `resource` role); stylesheets are read for their own
   * `url()` and `@import`, nothing else is read for links. One on another host is
   * checked as an external link (`checkExternal`).
   * @default true
   */
  checkResources: isOn.default(true).register(SETTING_META, {
    description: 'check what pages use (images, srcset, scripts, stylesheets, icons, media, CSS `url()`) once each; stylesheets are read for `url()` and `@import`',
  }),
  /**
   * Check each link out of the crawl's scope (http and https) once: HEAD, then GET
   * where HEAD is refused (405, 501, or no answer), its body not read; never read for
   * links; robots.txt and the private-address guard apply (the `external` role).
   * `include`/`exclude` patterns still mean "never request".
   * @default true
   */
  checkExternal: isOn.default(true).register(SETTING_META, {
    description: 'check each link out of scope once (HEAD, GET where HEAD fails or answers an error), never crawling it; robots.txt applies',
  }),
  /**
   * Verdicts set for HTTP statuses, overriding the defaults (src/crawl/verdict.ts)
   * whatever the URL's role: `403=broken,999=ok,5xx=broken` — a single status
   * 100–999 or a class `4xx`, a verdict `ok`, `broken` or `unverified`; a single
   * status beats its class. Kept as written, spaces dropped.
   * @default '' (the defaults: 404 and 410 broken, 5xx and 429 unverified, another
   * 4xx broken on the crawl's own hosts and unverified on external ones)
   */
  statusPolicy: statusPolicyText.default('').register(SETTING_META, {
    argument: 'LIST',
    defaultText: 'none',
    description:
      'verdicts for statuses, over the defaults: `403=broken,999=ok,5xx=broken` (a status or a class `4xx`; `ok`, `broken` or `unverified`)',
  }),
  /**
   * Links deeper than this (seeds are depth 0) are recorded, not followed.
   * `Infinity` or `null`: no limit.
   * @default Infinity
   */
  maxDepth: limit()
    .default(Infinity)
    .register(SETTING_META, {
      argument: 'N',
      defaultText: 'no limit',
      description: 'follow links up to depth N (seeds are 0); deeper ones are recorded',
    }),
  /**
   * Stop after this many URLs were requested (retries of one URL count once); the
   * rest stays queued for the next run. `Infinity` or `null`: no limit. On an index
   * shared by cooperating workers (PostgreSQL), each worker counts its own requests.
   * @default Infinity
   */
  maxPages: limit()
    .default(Infinity)
    .register(SETTING_META, {
      argument: 'N',
      defaultText: 'no limit',
      description: 'stop after requesting N URLs; the rest stays queued for the next run',
    }),
  /**
   * Links of one page recorded (HTML and `Link` header, in document order); the
   * rest are not read, and the page gets the finding `PAGE_LINKS_CAPPED`. Large
   * legitimate pages (a documentation's general index, a site map in HTML) hold
   * tens of thousands; a page of 10 MiB (the body cap) can hold 810,000, which
   * would cost ~1 GB to admit at once. Heritrix keeps 6,000 outlinks per URL by
   * default, Nutch 100: a link checker reports every link of a legitimate page.
   * @default 50000
   */
  maxLinksPerPage: integerBetween(...RANGES.maxLinksPerPage)
    .default(50_000)
    .register(SETTING_META, {
      argument: 'N',
      description: 'links of one page recorded; past N the page gets `PAGE_LINKS_CAPPED` and the rest is not read',
    }),
  /**
   * New URLs one page may put on the frontier, with those of the stylesheets it uses
   * (their references are its resources); its other new targets are recorded
   * (`skipped`, queued when another page follows them) and the page (or stylesheet)
   * gets the finding `PAGE_QUEUE_CAPPED`. It bounds how fast generated pages can grow the
   * frontier: 24 pages of 810,000 links made 15.7 million URLs.
   * @default 10000
   */
  maxQueuedPerPage: integerBetween(...RANGES.maxQueuedPerPage)
    .default(10_000)
    .register(SETTING_META, {
      argument: 'N',
      description: 'new URLs one page may queue, with the stylesheets it uses; the others are recorded, not followed (`PAGE_QUEUE_CAPPED`)',
    }),
  /**
   * Fetches in flight at once, over all hosts.
   * @default 4
   */
  concurrency: integerBetween(...RANGES.concurrency).default(4).register(SETTING_META, { argument: 'N', description: 'requests in flight at once' }),
  /**
   * Fetches in flight at once to one host.
   * @default 1
   */
  perHostConcurrency: integerBetween(...RANGES.perHostConcurrency)
    .default(1)
    .register(SETTING_META, { argument: 'N', description: 'requests in flight at once to one host' }),
  /**
   * Least time between the starts of two requests to one host, in ms; a larger
   * robots.txt Crawl-delay wins.
   * @default 0
   */
  perHostDelayMs: integerBetween(...RANGES.perHostDelayMs)
    .default(0)
    .register(SETTING_META, {
      argument: 'MS',
      description: 'least time between two requests to one host (a larger robots.txt `Crawl-delay` wins)',
    }),
  /**
   * Worker threads that read pages (extract their links and resolve them against the
   * base chain) while the main thread writes the index; the index is the same whatever
   * the number. `0`: every page is read in the main thread. `null`: one per core beside
   * the main thread's, at most 4 (none on one core). Short pages are read in the main
   * thread all the same.
   * @default null
   */
  parseThreads: z
    .union([integerBetween(...RANGES.parseThreads), z.null()], { error: `Expected an integer from ${RANGES.parseThreads.join(' to ')}` })
    .default(null)
    .register(SETTING_META, {
      argument: 'N',
      defaultText: 'cores − 1, at most 4',
      description: 'worker threads that read pages (extract and resolve their links) while the main thread writes the index; `0`: in the main thread',
    }),
  /**
   * How many times a transient failure (a timeout, a network error, 429, 503 …) is
   * tried again, within the same claim, before it is recorded.
   * @default 2
   */
  retries: integerBetween(...RANGES.retries)
    .default(2)
    .register(SETTING_META, {
      argument: 'N',
      description: 'times a transient failure (5xx, 429, network error, timeout) is tried again, with backoff',
    }),
  /**
   * The first retry's backoff in ms, doubled for each next one; a longer
   * `Retry-After` wins (at most 60 s). The host waits, other hosts go on.
   * @default 1000
   */
  retryDelayMs: integerBetween(...RANGES.retryDelayMs)
    .default(1000)
    .register(SETTING_META, { argument: 'MS', description: 'the first retry waits this long, each next one twice as long (a longer `Retry-After` wins)' }),
  /**
   * One deadline for each request of the HTTP fetcher crawl() makes: connect,
   * redirect hops and body together (`ERR_FETCH_REQUEST_TIMEOUT`). A failure a slow
   * server caused is retried once at most.
   * @default 60000
   */
  requestTimeoutMs: integerBetween(...RANGES.requestTimeoutMs)
    .default(60_000)
    .register(SETTING_META, {
      argument: 'MS',
      description: 'one deadline for a whole request: connect, redirects and body; a slow failure is retried once at most',
    }),
  /**
   * The least transfer rate of a body, in bytes a second, over each 10 s of it
   * (`ERR_FETCH_TOO_SLOW`): a server that trickles a byte at a time is cut after
   * 10 s, not at a deadline. `0`: no minimum.
   * @default 1024
   */
  minBytesPerSecond: integerBetween(...RANGES.minBytesPerSecond)
    .default(1024)
    .register(SETTING_META, {
      argument: 'N',
      description: 'a body slower than N bytes a second over 10 s is cut (a server that trickles); 0: no minimum',
    }),
  /**
   * The bytes of a body the HTTP fetcher crawl() makes reads at most, on the wire and
   * once decompressed (`FetcherOptions.maxBodyBytes`, `maxDecodedBytes`): past it the
   * body is cut (`ERR_FETCH_BODY_TOO_LARGE`) and what came is kept, so a page's links
   * before the cut are followed and the page gets the finding `PAGE_BODY_CAPPED`.
   * @default 10485760 (10 MiB)
   */
  maxBodyBytes: integerBetween(...RANGES.maxBodyBytes)
    .default(10 * 1024 * 1024)
    .register(SETTING_META, {
      argument: 'N',
      defaultText: '10485760 (10 MiB)',
      description: 'bytes of a body read at most (on the wire and decompressed); a page cut there keeps its links up to the cut (`PAGE_BODY_CAPPED`)',
    }),
  /**
   * Which Content-Location values make an alias (see `CONTENT_LOCATION_POLICIES`).
   * @default 'negotiated'
   */
  contentLocationAlias: oneOf(CONTENT_LOCATION_POLICIES)
    .default('negotiated')
    .register(SETTING_META, {
      argument: 'POLICY',
      description:
        'which `Content-Location` makes an alias: a `negotiated` variant (`page` → `page.en.html`), any `same-origin` URL, or none (`off`)',
    }),
  /**
   * Read the sitemaps of each seed's origin before crawling: `/sitemap.xml` and the
   * `Sitemap:` lines of its robots.txt (gzipped or not, sitemap indexes followed). Their
   * URLs are admitted as seeds are (scope, include and exclude apply: an entry out of
   * scope is recorded, not fetched), and the audit reports orphans and broken,
   * redirected or non-canonical entries. On by default: every crawl asks each seed's
   * origin for `/sitemap.xml` (`--no-sitemap` turns it off).
   * @default true
   */
  sitemap: sitemapSetting(),
  /**
   * Sitemap files read at most per seed origin (the sitemap indexes and the sitemaps
   * they name, together); the rest are not fetched.
   * @default 50
   */
  maxSitemaps: integerBetween(...RANGES.maxSitemaps)
    .default(50)
    .register(SETTING_META, { argument: 'N', description: 'sitemap files read at most per seed origin (indexes included)' }),
  /**
   * Entries read at most from one sitemap file; past it `SITEMAP_TOO_MANY_URLS` and the
   * rest is not read.
   * @default 50000 (the protocol's limit)
   */
  maxSitemapEntries: integerBetween(...RANGES.maxSitemapEntries)
    .default(50_000)
    .register(SETTING_META, { argument: 'N', description: 'entries read at most from one sitemap file (`SITEMAP_TOO_MANY_URLS` past it)' }),
  /**
   * Content evidence, beyond RFC 3986 and heuristic: a page whose body
   * is byte-identical to a page fetched before becomes its alias (evidence `digest`);
   * from those pairs the crawl learns rewrite rules between URL prefixes
   * (`/manual/de/` ↔ `/manual/en/`) and fetches the URLs a rule predicts to be
   * duplicates last. At the end such a URL is joined without a request (evidence
   * `rule`) only when the rule was never contradicted, the URL it maps to was fetched,
   * and no page declared it as an alternate (`hreflang`); otherwise it is fetched.
   * @default false
   */
  contentEvidence: isOn.default(false).register(SETTING_META, {
    description:
      'heuristic, beyond RFC 3986: byte-identical pages become aliases, and learned prefix rules (`/de/` ↔ `/en/`) defer predicted duplicates, joined without a request only when the page they map onto declares its language variants (hreflang) and not them; else fetched',
  }),
  /**
   * Re-check an index crawled before: every URL fetched is requested again, with
   * `If-None-Match` / `If-Modified-Since` from its last response's validators. A 304
   * keeps the page as recorded; a changed page is parsed again (its links replaced)
   * and new links are followed. A re-check in progress (stopped, killed, or another
   * worker's on a shared index) is joined: nothing is queued again. Without it, a crawl
   * on an existing index resumes (only what is still queued is fetched).
   * @default false
   */
  recheck: isOn.default(false).register(SETTING_META, {
    description: 'request every URL of the index again, conditionally (`If-None-Match`, `If-Modified-Since`); changed pages are parsed again; a re-check in progress (stopped, killed, another worker\'s) is continued, not begun again',
  }),
  /**
   * Ask once more, when the frontier is empty, the external links whose answer this
   * run left unverified (a timeout, a network error, 5xx, 429, a bot wall's 401, 403
   * or 999): after waiting the longest `Retry-After` they sent (at most 60 s), else
   * 5 s; with the method that gave the first answer, without retries, once per URL per
   * run. The new answer replaces the first. A host paused for the run is not asked again.
   * @default false
   */
  secondPass: isOn.default(false).register(SETTING_META, {
    description: 'at the end, ask once more the external links left unverified (timeout, network error, 5xx, 429, 401/403/999), after their `Retry-After` (at most 60 s) or 5 s',
  }),
  /**
   * Follow links to loopback, private and link-local addresses and `localhost`
   * (compared numerically: `0x7f.1`, `2130706433`, `[::1]`), and connect to hosts
   * whose names resolve to one (checked per connection by the HTTP clients crawl() makes).
   * @default false
   */
  allowPrivate: isOn.default(false).register(SETTING_META, {
    description: 'allow loopback, private and link-local addresses (`127.0.0.1`, `10.x`, `[::1]`, `localhost` …), named or resolved by DNS',
  }),
  // robots.txt left out, for one's own sites.
  /**
   * Neither fetch nor obey robots.txt (nor its `Crawl-delay`), for a site of one's
   * own: every run says so on stderr, and the run's settings record it. The host's
   * delay, a `Retry-After` pause and the lowered rate still hold.
   * @default false
   */
  ignoreRobots: isOn.default(false).register(SETTING_META, {
    description: 'neither fetch nor obey robots.txt (nor its `Crawl-delay`), for sites of your own; warned on every run, recorded in the run',
  }),
  ...TRANSPORT_SETTINGS,
  ...ARCHIVE_SETTINGS,
});

/** `T` with read-only fields and lists. */
export type CrawlSettingsOf<T> = { readonly [K in keyof T]: ReadonlyList<T[K]> };
type ReadonlyList<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/** The data options of crawl() as a caller writes them: each optional. */
export type CrawlSettingsInput = CrawlSettingsOf<z.input<typeof crawlOptionsSchema>>;

type ParsedSettings = z.output<typeof crawlOptionsSchema>;

/** The data options of one crawl, every one set and checked. */
export type CrawlSettingsData = CrawlSettingsOf<ParsedSettings>;

/** Names people reach for (other crawlers' options, this tool's former flags), and the option that does it. */
export const RENAMED_CRAWL_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  seed: 'seeds',
  urls: 'seeds',
  maxConcurrency: 'concurrency',
  hostConcurrency: 'perHostConcurrency',
  perHost: 'perHostConcurrency',
  delay: 'perHostDelayMs',
  delayMs: 'perHostDelayMs',
  depth: 'maxDepth',
  limit: 'maxPages',
  maxRequests: 'maxPages',
  base: 'baseMode',
  mode: 'baseMode',
  maxRetries: 'retries',
});
