// Row conversions shared by the SQLite and PostgreSQL stores and their readers:
// the column lists both dialects accept as written, and the converters from a
// database row (snake_case, NULLs) to the store's records (camelCase, undefined).

import { currentFindingCodes } from '../findings.js';
import { isArrayOfArrays, isStringList, parseStoredJson } from './index-corruption.js';
import type { AliasEvidence } from '../ladder/index.js';
import type { AliasRow, FetchMethod, FetchProtocol, FetchRow, FirstLink, RedirectHop, SitemapEntryRow, SitemapFindingRecord, SitemapRow, UrlRecord, UrlRole, UrlRow, UrlState, Verdict } from './types.js';

export interface FetchColumns {
  id: number;
  url_id: number;
  started_at: number;
  duration_ms: number | null;
  status: number | null;
  content_type: string | null;
  bytes: number | null;
  error_code: string | null;
  final_url: string | null;
  attempts: number;
  findings: string | null;
  anchors: string | null;
  represents_url_id: number | null;
  etag: string | null;
  last_modified: string | null;
  not_modified: number;
  method: FetchMethod | null;
  digest: string | null;
  verdict: string | null;
  protocol: string | null;
  redirects: string;
}

export function toFetchRow(row: FetchColumns): FetchRow {
  const hops = parseStoredJson(row.redirects, 'redirect', isArrayOfArrays) as [string, string | null, number][];
  return {
    id: row.id,
    urlId: row.url_id,
    startedAt: row.started_at,
    durationMs: row.duration_ms ?? undefined,
    status: row.status ?? undefined,
    contentType: row.content_type ?? undefined,
    bytes: row.bytes ?? undefined,
    errorCode: row.error_code ?? undefined,
    finalUrl: row.final_url ?? undefined,
    attempts: row.attempts,
    redirects: hops.map(([from, to, status]): RedirectHop => ({ from, to: to ?? undefined, status })),
    // An index written before a code was retired holds it: read as the code that replaced it.
    findings: row.findings === null ? [] : currentFindingCodes(parseStoredJson(row.findings, 'fetch.findings', isStringList)),
    anchors: row.anchors === null ? [] : parseStoredJson(row.anchors, 'fetch.anchors', isStringList),
    representsUrlId: row.represents_url_id ?? undefined,
    etag: row.etag ?? undefined,
    lastModified: row.last_modified ?? undefined,
    isNotModified: row.not_modified === 1,
    method: row.method ?? undefined,
    digest: row.digest ?? undefined,
    // The column's CHECK admits only the three; NULL in rows written before migration 012.
    verdict: (row.verdict ?? undefined) as Verdict | undefined,
    // The column's CHECK admits only the two; NULL in rows written before migration 013.
    protocol: (row.protocol ?? undefined) as FetchProtocol | undefined,
  };
}

/** A JSON array of strings, or NULL for none. */
export function jsonList(values: readonly string[] | undefined): string | null {
  return values === undefined || values.length === 0 ? null : JSON.stringify(values);
}

/** Columns of an alias row (alias `a`) with both keys. */
export const ALIAS_COLUMNS = `a.from_id, (SELECT key FROM url WHERE id = a.from_id) AS from_key, a.to_id,
  (SELECT key FROM url WHERE id = a.to_id) AS to_key, a.evidence, a.detail, a.created_at`;

export interface AliasColumns {
  from_id: number;
  from_key: string;
  to_id: number;
  to_key: string;
  evidence: AliasEvidence;
  detail: string | null;
  created_at: number;
}

export function toAliasRow(row: AliasColumns): AliasRow {
  return {
    fromId: row.from_id,
    fromKey: row.from_key,
    toId: row.to_id,
    toKey: row.to_key,
    evidence: row.evidence,
    detail: row.detail ?? undefined,
    createdAt: row.created_at,
  };
}

/** Columns of a URL row (alias `u`) with the key of the page that first linked it. */
export const URL_COLUMNS = `u.id, u.key, u.state, u.depth, u.alias_of, u.role, u.first_from, u.first_href,
  (SELECT key FROM url WHERE id = u.first_from) AS first_from_key`;

export interface UrlColumns {
  id: number;
  key: string;
  state: UrlState;
  depth: number;
  alias_of: number | null;
  role: UrlRole | null;
  first_from: number | null;
  first_href: string | null;
  first_from_key: string | null;
}

export function toUrlRecord(row: UrlColumns): UrlRecord {
  return { id: row.id, key: row.key, state: row.state, depth: row.depth, aliasOf: row.alias_of ?? undefined, role: row.role ?? 'page' };
}

export function toFirstLink(row: UrlColumns): FirstLink | undefined {
  if (row.first_href === null) return undefined;
  return { fromUrlId: row.first_from ?? undefined, fromKey: row.first_from_key ?? undefined, rawHref: row.first_href };
}

/** The columns of a `sitemap` row. */
export interface SitemapColumns {
  id: number;
  run_id: number | null;
  url: string;
  source: SitemapRow['source'];
  parent_id: number | null;
  fetched_at: number;
  status: number | null;
  error_code: string | null;
  kind: SitemapRow['kind'] | null;
  findings: string | null;
}

export const SITEMAP_COLUMNS = 'id, run_id, url, source, parent_id, fetched_at, status, error_code, kind, findings';

export function toSitemapRow(row: SitemapColumns): SitemapRow {
  return {
    id: row.id,
    runId: row.run_id ?? undefined,
    url: row.url,
    source: row.source,
    parentId: row.parent_id ?? undefined,
    fetchedAt: row.fetched_at,
    status: row.status ?? undefined,
    errorCode: row.error_code ?? undefined,
    kind: row.kind ?? undefined,
    findings: row.findings === null ? [] : (parseStoredJson(row.findings, 'sitemap.findings', Array.isArray) as SitemapFindingRecord[]),
  };
}

/** A URL row as reports read it, with its last fetch. */
export function toUrlRow(row: UrlColumns, lastFetch: FetchColumns | undefined): UrlRow {
  return {
    id: row.id,
    key: row.key,
    state: row.state,
    depth: row.depth,
    aliasOf: row.alias_of ?? undefined,
    role: row.role ?? 'page',
    firstLink: toFirstLink(row),
    lastFetch: lastFetch === undefined ? undefined : toFetchRow(lastFetch),
  };
}

/** Every sitemap entry with its sitemap's URL, by sitemap then position (both stores' query). */
export const SITEMAP_ENTRIES_QUERY = `SELECT e.sitemap_id, s.url AS sitemap_url, e.position, e.url_id, e.loc, e.lastmod, e.line
  FROM sitemap_entry AS e JOIN sitemap AS s ON s.id = e.sitemap_id ORDER BY e.sitemap_id, e.position`;

/** The columns of SITEMAP_ENTRIES_QUERY. */
export interface SitemapEntryColumns {
  sitemap_id: number;
  sitemap_url: string;
  position: number;
  url_id: number | null;
  loc: string;
  lastmod: string | null;
  line: number | null;
}

export function toSitemapEntryRow(row: SitemapEntryColumns): SitemapEntryRow {
  return {
    sitemapId: row.sitemap_id,
    sitemapUrl: row.sitemap_url,
    position: row.position,
    urlId: row.url_id ?? undefined,
    loc: row.loc,
    lastmod: row.lastmod ?? undefined,
    line: row.line ?? undefined,
  };
}
