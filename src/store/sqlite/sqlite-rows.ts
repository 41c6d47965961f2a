// SQLite-only reads shared by the SQLite store and its reader; the row converters
// they use are the shared ones of ../row-codec.ts.

import type { CrawlRunRow, FindingIdentity, SitemapEntryRow, SitemapRow } from '../types.js';
import { SITEMAP_COLUMNS, SITEMAP_ENTRIES_QUERY, toSitemapEntryRow, toSitemapRow, type SitemapColumns, type SitemapEntryColumns } from '../row-codec.js';

/** Every crawl run, oldest first (an index older than migration 005 has no such table: none). */
export function readRuns(db: import('better-sqlite3').Database): CrawlRunRow[] {
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'crawl_run'`).get() !== undefined;
  if (!exists) return [];
  const rows = db.prepare('SELECT id, started_at, seeds, settings, ended_at, stopped_by, outcome, counts FROM crawl_run ORDER BY id').all() as {
    id: number;
    started_at: number;
    seeds: string;
    settings: string;
    ended_at: number | null;
    stopped_by: string | null;
    outcome: string | null;
    counts: string | null;
  }[];
  return rows.map((row) => ({
    id: row.id,
    startedAt: row.started_at,
    seeds: JSON.parse(row.seeds) as string[],
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    endedAt: row.ended_at ?? undefined,
    stoppedBy: row.stopped_by ?? undefined,
    outcome: row.outcome ?? undefined,
    counts: row.counts === null ? undefined : (JSON.parse(row.counts) as Record<string, unknown>),
  }));
}

/** Columns of a fetch row (alias `f`), its redirect hops as one JSON array. */
export const FETCH_COLUMNS = `f.id, f.url_id, f.started_at, f.duration_ms, f.status, f.content_type, f.bytes,
  f.error_code, f.final_url, f.attempts, f.findings, f.anchors, f.represents_url_id, f.etag, f.last_modified, f.not_modified, f.method, f.digest, f.verdict, f.protocol,
  (SELECT json_group_array(json_array(r.from_url, r.to_url, r.status))
   FROM (SELECT from_url, to_url, status FROM redirect WHERE fetch_id = f.id ORDER BY hop) AS r) AS redirects`;

/** The sitemaps read, in the order recorded (migration 007). */
export function* readSitemaps(db: import('better-sqlite3').Database): Generator<SitemapRow> {
  for (const row of db.prepare(`SELECT ${SITEMAP_COLUMNS} FROM sitemap ORDER BY id`).iterate() as Iterable<SitemapColumns>) yield toSitemapRow(row);
}

/** Every sitemap entry, by sitemap then position. */
export function* readSitemapEntries(db: import('better-sqlite3').Database): Generator<SitemapEntryRow> {
  for (const row of db.prepare(SITEMAP_ENTRIES_QUERY).iterate() as Iterable<SitemapEntryColumns>) yield toSitemapEntryRow(row);
}

/** The finding identities kept for a run; `undefined` when none were. */
export function readRunFindings(db: import('better-sqlite3').Database, runId: number): FindingIdentity[] | undefined {
  const rows = db.prepare('SELECT code, page, target, href FROM run_finding WHERE run_id = ? ORDER BY code, page, target, href').all(runId) as FindingIdentity[];
  // Every run recorded keeps one row of code '' (RUN_FINDINGS_MARK): a run with no finding is told from one never recorded.
  if (rows[0]?.code !== '') return undefined;
  return rows.slice(1);
}

