// Sitemaps seed the crawl (sitemaps.org protocol 0.9): before the
// loop, each seed's origin is asked for `/sitemap.xml` and the sitemaps its
// robots.txt names (`Sitemap:` lines), sitemap indexes followed, gzip or not. Their
// `<loc>` URLs are admitted as seeds are — the same key function, depth 0 — and scope,
// include and exclude apply: an entry out of scope is recorded, not fetched. Each
// sitemap read is recorded with its entries and what was wrong with it, for the audit.
//
// Bounded: `maxSitemaps` files per origin, `maxSitemapEntries` entries per file, and
// the protocol's 50 MiB per file uncompressed (a gzip bomb is cut there). Bad XML,
// a missing or failing sitemap is a recorded finding, never an error of the crawl.

import { resourceKeyOf } from '../ladder/index.js';
import { SITEMAP_LIMITS, parseSitemap, type FetchedResponse, type ParsedSitemap, type SentRequest } from '../fetch/index.js';
import type { SitemapEntryRecord, SitemapFindingRecord, SitemapQueueEntry, SitemapQueueRow, SitemapRecord, SitemapSettlement } from '../store/index.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import type { CrawlTally } from './crawl-tally.js';
import { originOf, schemeRung } from './origin-key.js';
import { isPrivateUrl } from './private-address.js';
import type { ScopeTest } from './scope.js';

/** The crawl options the sitemap seeding reads (the crawler hands it the whole validated set). */
export type SitemapSeedsSettings = Pick<ValidCrawlerOptions, 'seeds' | 'store' | 'fetcher' | 'robots' | 'now' | 'allowPrivate' | 'maxSitemaps' | 'maxSitemapEntries'>;

export interface SitemapSeedsOptions {
  readonly options: SitemapSeedsSettings;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  readonly runId: number | undefined;
  readonly signal: AbortSignal;
  /** Whether the crawl is stopping (a signal came): no further sitemap is begun. */
  readonly isStopping: () => boolean;
  /** Waits until a request to `host` (the scheme-rung host of `url`) may go, and holds the host's delay. */
  readonly takeTurn: (host: string, url: string) => Promise<void>;
}


/** Entries admitted in one call to the index. */
const ADMIT_CHUNK = 1000;

/** Media types of an HTML answer (RFC 2854, RFC 3236). */
const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/**
 * Read the sitemaps of each seed's origin and admit their URLs. Resolves with how
 * many URLs they put on the frontier. Never rejects for what a server sends; a
 * write to the index that fails rejects (the crawl stops on it).
 *
 * The sitemaps are a frontier kept in the index (queued, read, failed): each run
 * reads those still queued, so a crawl stopped, killed, or kept from an origin by a
 * robots.txt outage reads the rest on its next run, and a sitemap read is not read again.
 */
export async function seedFromSitemaps(p: SitemapSeedsOptions): Promise<number> {
  let queued = 0;
  const origins = [...new Set(p.options.seeds.map(originOf).filter((origin): origin is string => origin !== undefined))];
  for (const origin of origins) {
    if (p.signal.aborted || p.isStopping()) break;
    queued += await readOrigin(p, origin);
  }
  return queued;
}

/** The key of a sitemap on the sitemap frontier: its resource key (a URL's, without aliases). */
function sitemapKey(url: string): string {
  return resourceKeyOf(url) ?? url;
}

async function readOrigin(p: SitemapSeedsOptions, origin: string): Promise<number> {
  const { options, tally } = p;
  const store = options.store;
  const onRequest = (request: SentRequest): void => {
    if (request.kind === 'robots') tally.countRequest(request, 1, origin);
    else tally.countSitemapRequest(origin);
  };
  const guessed = `${origin}/sitemap.xml`;
  const guessedKey = sitemapKey(guessed);
  let rows = await store.sitemapQueue(origin);
  // Its /sitemap.xml on the frontier says the origin's sitemaps were found (they are queued with it).
  if (!rows.some((row) => row.key === guessedKey)) {
    const found = await findSitemaps(p, origin, onRequest);
    if (found === 'stopped') return 0;
    if (found === 'unreachable') {
      // Recorded for this run; queued by the next, which asks robots.txt again.
      const errorCode = 'ERR_CRAWL_ROBOTS_UNREACHABLE';
      await recordSitemap(p, origin, { runId: p.runId, url: guessed, source: 'origin', parentId: undefined, fetchedAt: options.now(), status: undefined, errorCode, kind: undefined, findings: [], entries: [] });
      return 0;
    }
    await store.queueSitemaps(found);
    rows = await store.sitemapQueue(origin);
  }
  let queued = 0;
  let settled = rows.filter((row) => row.state !== 'queued').length;
  const tried = new Set<string>();
  while (settled < options.maxSitemaps && !p.signal.aborted && !p.isStopping()) {
    const next = rows.find((row) => row.state === 'queued' && !tried.has(row.key));
    if (next === undefined) break;
    tried.add(next.key);
    // Workers sharing the index: each sitemap is read by the one that takes it.
    if (await store.takeSitemap(next.key)) {
      const result = await readSitemap(p, next, onRequest);
      queued += result.queued;
      if (result.isSettled) settled++;
      else await store.releaseSitemap(next.key);
      // An index queued the sitemaps it names.
      if (result.isIndex) rows = await store.sitemapQueue(origin);
    }
  }
  return queued;
}

/**
 * The sitemaps an origin names — its robots.txt `Sitemap:` lines — and its
 * /sitemap.xml, which is only tried. `unreachable` when robots.txt could not be read
 * (RFC 9309 §2.3.1.4: unreachable means complete disallow), `stopped` when the crawl
 * stops: nothing is queued then, and the next run asks again.
 */
async function findSitemaps(
  p: SitemapSeedsOptions,
  origin: string,
  onRequest: (request: SentRequest) => void,
): Promise<SitemapQueueEntry[] | 'unreachable' | 'stopped'> {
  const found: SitemapQueueEntry[] = [];
  const add = (url: string, source: SitemapQueueEntry['source']): void => {
    const key = sitemapKey(url);
    if (!found.some((entry) => entry.key === key)) found.push({ key, origin, url, source, parentId: undefined });
  };
  const robots = p.options.robots;
  if (robots !== undefined) {
    try {
      await robots.isAllowed(`${origin}/`, { onRequest });
    } catch {
      // No robots.txt facts: only /sitemap.xml is tried.
    }
    if (p.signal.aborted) return 'stopped';
    const file = robots.robotsFile?.(`${origin}/`);
    if (file?.verdict === 'unreachable') return 'unreachable';
    for (const url of file?.sitemaps ?? []) add(url, 'robots');
  }
  add(`${origin}/sitemap.xml`, 'origin');
  return found;
}

interface SitemapRead {
  /** URLs it put on the frontier. */
  readonly queued: number;
  /** Whether it left the sitemap frontier (read or failed); not when the crawl stopped during it, or robots.txt was unreachable. */
  readonly isSettled: boolean;
  /** Whether it was a sitemap index (the sitemaps it names are queued). */
  readonly isIndex?: boolean;
}

/** One sitemap: fetched, parsed, its entries admitted (a urlset) or its sitemaps queued (an index), and recorded. */
async function readSitemap(p: SitemapSeedsOptions, sitemap: SitemapQueueRow, onRequest: (request: SentRequest) => void): Promise<SitemapRead> {
  const { options } = p;
  const store = options.store;
  const base = { runId: p.runId, url: sitemap.url, source: sitemap.source, parentId: sitemap.parentId, fetchedAt: options.now() };
  const failed = { key: sitemap.key, state: 'failed', children: [] } as const;
  const notRead: SitemapRead = { queued: 0, isSettled: false };
  const refusal = await refusalOf(p, sitemap.url, onRequest);
  if (refusal !== undefined) {
    const record = { ...base, status: undefined, errorCode: refusal, kind: undefined, findings: [], entries: [] };
    // A robots.txt outage holds the sitemap for the next run, as it holds pages.
    if (refusal === 'ERR_CRAWL_ROBOTS_UNREACHABLE') {
      await recordSitemap(p, sitemap.origin, record);
      return notRead;
    }
    await recordSitemap(p, sitemap.origin, record, failed);
    return { queued: 0, isSettled: true };
  }
  await p.takeTurn(schemeRung(sitemap.url)?.host ?? '', sitemap.url);
  if (p.signal.aborted) return notRead;
  let response: FetchedResponse;
  try {
    response = await options.fetcher.fetch(sitemap.url, p.signal, { onRequest, read: 'bytes' });
  } catch {
    if (p.signal.aborted) return notRead;
    await recordSitemap(p, sitemap.origin, { ...base, status: undefined, errorCode: 'ERR_CRAWL_FETCHER_THREW', kind: undefined, findings: [], entries: [] }, failed);
    return { queued: 0, isSettled: true };
  }
  // Stopped while it was fetched: read again by the next run.
  if (p.signal.aborted) return notRead;
  const status = response.status;
  const isUsable = status !== undefined && status >= 200 && status < 300 && response.data !== undefined;
  const fetched = { ...base, status, errorCode: response.errorCode };
  if (!isUsable) {
    await recordSitemap(p, sitemap.origin, { ...fetched, kind: undefined, findings: [], entries: [] }, failed);
    return { queued: 0, isSettled: true };
  }
  // Read in turns of the event loop: a signal stops it between two, and nothing is recorded.
  let parsed: ParsedSitemap;
  try {
    parsed = await parseSitemap(response.data!, { maxEntries: options.maxSitemapEntries, maxBytes: SITEMAP_LIMITS.maxBytes, signal: p.signal });
  } catch (error) {
    if (p.signal.aborted) return notRead;
    throw error;
  }
  if (parsed.kind === undefined) {
    // /sitemap.xml is only tried: a site without one that answers every path with a
    // page (HTML, or nothing like XML) has no sitemap there, as a 404 says. A sitemap
    // someone named that is not one is a finding.
    const isAbsent = sitemap.source === 'origin' && (HTML_TYPE.test(response.contentType ?? '') || !parsed.findings.some((f) => f.code === 'SITEMAP_ROOT_INVALID'));
    await recordSitemap(p, sitemap.origin, { ...fetched, kind: undefined, findings: isAbsent ? [] : findingRecords(parsed, response), entries: [] }, failed);
    return { queued: 0, isSettled: true };
  }
  const findings = findingRecords(parsed, response);
  if (parsed.kind === 'sitemapindex') {
    const entries: SitemapEntryRecord[] = parsed.entries.map((entry) => ({ loc: entry.loc, lastmod: entry.lastmod, line: entry.line, urlId: undefined }));
    // A sitemap index names sitemaps of the site: those out of the crawl's scope are not read.
    const children = parsed.entries
      .filter((entry) => p.scope.check(entry.loc) === undefined)
      .map((entry) => ({ key: sitemapKey(entry.loc), origin: sitemap.origin, url: entry.loc, source: 'index' as const }));
    await recordSitemap(p, sitemap.origin, { ...fetched, kind: parsed.kind, findings, entries }, { key: sitemap.key, state: 'read', children });
    return { queued: 0, isSettled: true, isIndex: true };
  }
  const entries: SitemapEntryRecord[] = [];
  let queued = 0;
  for (let start = 0; start < parsed.entries.length; start += ADMIT_CHUNK) {
    const chunk = parsed.entries.slice(start, start + ADMIT_CHUNK);
    const batch = chunk.map((entry) => ({
      rawHref: entry.loc,
      target: entry.loc,
      depth: 0,
      // Admitted like a seed: the same key function; out of scope, recorded and not fetched.
      follow: p.scope.check(entry.loc) === undefined,
    }));
    const results = await store.admit(batch);
    queued += p.tally.addQueued(results);
    chunk.forEach((entry, i) => entries.push({ loc: entry.loc, lastmod: entry.lastmod, line: entry.line, urlId: results[i]?.urlId }));
  }
  p.tally.queued += queued;
  await recordSitemap(p, sitemap.origin, { ...fetched, kind: parsed.kind, findings, entries }, { key: sitemap.key, state: 'read', children: [] });
  return { queued, isSettled: true };
}

/**
 * A sitemap's record (and how its reading ended), in one unit with the requests the
 * origin's sitemaps sent so far: the run's counts hold them once the record is committed.
 */
function recordSitemap(p: SitemapSeedsOptions, origin: string, record: SitemapRecord, settlement?: SitemapSettlement): Promise<number> {
  return p.options.store.transact(async (tx) => {
    const id = await tx.recordSitemap(record, settlement);
    await p.tally.recordRequests(tx, origin);
    return id;
  });
}

/** Why a sitemap is not requested: robots.txt disallows it or is unreachable, or it is a private address the crawl may not reach. */
async function refusalOf(p: SitemapSeedsOptions, url: string, onRequest: (request: SentRequest) => void): Promise<string | undefined> {
  const { options } = p;
  if (!options.allowPrivate && isPrivateUrl(url)) return 'ERR_CRAWL_PRIVATE_ADDRESS';
  if (options.robots === undefined) return undefined;
  // RFC 9309 §2.3.1.4: unreachable means complete disallow. Asked once per origin
  // (readOrigin); asking again for each sitemap would only hammer a host in trouble.
  if (options.robots.robotsFile?.(url)?.verdict === 'unreachable') return 'ERR_CRAWL_ROBOTS_UNREACHABLE';
  try {
    return (await options.robots.isAllowed(url, { onRequest })) ? undefined : 'ERR_CRAWL_ROBOTS_DISALLOWED';
  } catch {
    return 'ERR_CRAWL_ROBOTS_DISALLOWED';
  }
}

/** The parser's findings, and the body cap of the fetch as SITEMAP_TOO_LARGE. */
function findingRecords(parsed: ParsedSitemap, response: FetchedResponse): SitemapFindingRecord[] {
  const findings: SitemapFindingRecord[] = parsed.findings.map((f) => ({ code: f.code, line: f.line, column: f.column, detail: f.detail }));
  if (response.errorCode === 'ERR_FETCH_BODY_TOO_LARGE' && !findings.some((f) => f.code === 'SITEMAP_TOO_LARGE')) {
    findings.push({ code: 'SITEMAP_TOO_LARGE', detail: 'cut at the fetcher\'s body cap' });
  }
  return findings;
}
