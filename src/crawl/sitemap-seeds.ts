// Sitemaps seed the crawl (DESIGN.md §8; sitemaps.org protocol 0.9): before the
// loop, each seed's origin is asked for `/sitemap.xml` and the sitemaps its
// robots.txt names (`Sitemap:` lines), sitemap indexes followed, gzip or not. Their
// `<loc>` URLs are admitted as seeds are — the same key function, depth 0 — and scope,
// include and exclude apply: an entry out of scope is recorded, not fetched. Each
// sitemap read is recorded with its entries and what was wrong with it, for the audit.
//
// Bounded: `maxSitemaps` files per origin, `maxSitemapEntries` entries per file, and
// the protocol's 50 MiB per file uncompressed (a gzip bomb is cut there). Bad XML,
// a missing or failing sitemap is a recorded finding, never an error of the crawl.

import { SITEMAP_LIMITS, parseSitemap, type FetchedResponse, type ParsedSitemap, type SentRequest } from '../fetch/index.js';
import type { SitemapEntryRecord, SitemapFindingRecord, SitemapRecord } from '../store/index.js';
import type { ValidCrawlOptions } from './crawl-options.js';
import type { CrawlTally } from './crawl-tally.js';
import { schemeRung } from './origin-key.js';
import { isPrivateUrl } from './private-address.js';
import type { ScopeTest } from './scope.js';
import { serialize } from '../uri/index.js';

export interface SitemapSeedsOptions {
  readonly options: ValidCrawlOptions;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  readonly runId: number | undefined;
  readonly signal: AbortSignal;
  /** Waits until a request to `host` (the scheme-rung host of `url`) may go, and holds the host's delay. */
  readonly takeTurn: (host: string, url: string) => Promise<void>;
}

/** A sitemap to read, and how it was found. */
interface PendingSitemap {
  readonly url: string;
  readonly source: SitemapRecord['source'];
  readonly parentId: number | undefined;
}

/** Entries admitted in one call to the index. */
const ADMIT_CHUNK = 1000;

/**
 * Read the sitemaps of each seed's origin and admit their URLs. Resolves with how
 * many URLs they put on the frontier. Never rejects for what a server sends; a
 * write to the index that fails rejects (the crawl stops on it).
 */
export async function seedFromSitemaps(p: SitemapSeedsOptions): Promise<number> {
  let queued = 0;
  const origins = [...new Set(p.options.seeds.map(originOf).filter((origin): origin is string => origin !== undefined))];
  for (const origin of origins) {
    if (p.signal.aborted) break;
    queued += await readOrigin(p, origin);
  }
  return queued;
}

async function readOrigin(p: SitemapSeedsOptions, origin: string): Promise<number> {
  const { options, tally } = p;
  const onRequest = (request: SentRequest): void => tally.countRequest(request, 1, origin);
  const pending: PendingSitemap[] = [];
  const seen = new Set<string>();
  const add = (url: string, source: SitemapRecord['source'], parentId: number | undefined): void => {
    const ref = schemeRung(url);
    const key = ref === undefined ? url : serialize({ ...ref, fragment: undefined });
    if (seen.has(key)) return;
    seen.add(key);
    pending.push({ url, source, parentId });
  };
  if (options.robots !== undefined) {
    // Reads (or finds cached) the origin's robots.txt: its Sitemap: lines.
    try {
      await options.robots.isAllowed(`${origin}/`, { onRequest });
    } catch {
      // No robots.txt facts: only /sitemap.xml is tried.
    }
    for (const url of options.robots.robotsFile?.(`${origin}/`)?.sitemaps ?? []) add(url, 'robots', undefined);
  }
  add(`${origin}/sitemap.xml`, 'origin', undefined);
  let queued = 0;
  let read = 0;
  while (pending.length > 0 && read < options.maxSitemaps && !p.signal.aborted) {
    const sitemap = pending.shift()!;
    read++;
    const result = await readSitemap(p, sitemap, origin, onRequest);
    queued += result.queued;
    for (const child of result.children) add(child, 'index', result.id);
  }
  return queued;
}

/** One sitemap: fetched, parsed, its entries admitted (a urlset) or returned (an index), and recorded. */
async function readSitemap(
  p: SitemapSeedsOptions,
  sitemap: PendingSitemap,
  origin: string,
  onRequest: (request: SentRequest) => void,
): Promise<{ id: number; queued: number; children: readonly string[] }> {
  const { options } = p;
  const store = options.store;
  // The sitemap's record, in one unit with the requests of the origin's sitemaps so far (crawl-tally.ts `recordRequests`).
  const record = (sitemapRecord: SitemapRecord): Promise<number> =>
    store.transact(async (tx) => {
      const id = await tx.recordSitemap(sitemapRecord);
      await p.tally.recordRequests(tx, origin);
      return id;
    });
  const base = { runId: p.runId, url: sitemap.url, source: sitemap.source, parentId: sitemap.parentId, fetchedAt: options.now() };
  const refusal = await refusalOf(p, sitemap.url, onRequest);
  if (refusal !== undefined) {
    const id = await record({ ...base, status: undefined, errorCode: refusal, kind: undefined, findings: [], entries: [] });
    return { id, queued: 0, children: [] };
  }
  await p.takeTurn(schemeRung(sitemap.url)?.host ?? '', sitemap.url);
  let response: FetchedResponse;
  try {
    response = await options.fetcher.fetch(sitemap.url, p.signal, { onRequest, read: 'bytes' });
  } catch {
    const id = await record({ ...base, status: undefined, errorCode: 'ERR_CRAWL_FETCHER_THREW', kind: undefined, findings: [], entries: [] });
    return { id, queued: 0, children: [] };
  }
  const status = response.status;
  const isUsable = status !== undefined && status >= 200 && status < 300 && response.data !== undefined;
  const fetched = { ...base, status, errorCode: response.errorCode };
  if (!isUsable) {
    const id = await record({ ...fetched, kind: undefined, findings: [], entries: [] });
    return { id, queued: 0, children: [] };
  }
  const parsed = await parseSitemap(response.data!, { maxEntries: options.maxSitemapEntries, maxBytes: SITEMAP_LIMITS.maxBytes });
  const findings = findingRecords(parsed, response);
  if (parsed.kind === 'sitemapindex') {
    const entries: SitemapEntryRecord[] = parsed.entries.map((entry) => ({ loc: entry.loc, lastmod: entry.lastmod, line: entry.line, urlId: undefined }));
    const id = await record({ ...fetched, kind: parsed.kind, findings, entries });
    // A sitemap index names sitemaps of the site: those out of the crawl's scope are not read.
    const children = parsed.entries.map((entry) => entry.loc).filter((loc) => p.scope.check(loc) === undefined);
    return { id, queued: 0, children };
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
  const id = await record({ ...fetched, kind: parsed.kind, findings, entries });
  return { id, queued, children: [] };
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

/** `scheme://host[:port]` of an absolute http(s) URL, at the scheme rung. */
function originOf(url: string): string | undefined {
  const uri = schemeRung(url);
  if (uri?.scheme === undefined || uri.host === undefined) return undefined;
  return `${uri.scheme}://${uri.host}${uri.port === undefined || uri.port === '' ? '' : `:${uri.port}`}`;
}
