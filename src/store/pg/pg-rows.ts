// SQL fragments of the PostgreSQL index that read rows in the shapes the SQLite
// index's converters take (row-codec.ts), so both share one conversion; and the
// reads the PostgreSQL store and its reader share.

import { ALIAS_EVIDENCE, type AliasEvidence } from '../../ladder/index.js';
import { MATCH_RUNGS, URL_STATES, zeroCounts, type CrawlRunRow, type FindingIdentity, type MatchRung, type StoreStats, type UrlState } from '../types.js';
import type { Sql } from './pg-database.js';

/** Columns of a fetch row (alias `f`), its redirect hops as one JSON array (text). */
export const PG_FETCH_COLUMNS = `f.id, f.url_id, f.started_at, f.duration_ms, f.status, f.content_type, f.bytes,
  f.error_code, f.final_url, f.attempts, f.findings, f.anchors, f.represents_url_id, f.etag, f.last_modified,
  f.not_modified::integer AS not_modified, f.method, f.digest, f.verdict, f.protocol,
  (SELECT coalesce(json_agg(json_build_array(r.from_url, r.to_url, r.status) ORDER BY r.hop), '[]'::json)::text
   FROM redirect AS r WHERE r.site = f.site AND r.fetch_id = f.id) AS redirects`;

/**
 * Columns of an alias row (alias `a`), as row-codec.ts's ALIAS_COLUMNS: the alias's own
 * URL found by (site, id), its row's site being that URL's; the target's by id (its site
 * is not stored with the alias).
 */
export const PG_ALIAS_COLUMNS = `a.from_id, (SELECT key FROM url WHERE site = a.site AND id = a.from_id) AS from_key, a.to_id,
  (SELECT key FROM url WHERE id = a.to_id) AS to_key, a.evidence, a.detail, a.created_at`;

/** The index's counts (as readStats gives them for SQLite) in one query, from small tables only (`link_tally`, not the links). */
export async function readPgStats(db: Sql): Promise<StoreStats> {
  const rows = await db`
    SELECT 'state' AS kind, state AS name, count(*) AS n FROM url GROUP BY state
    UNION ALL SELECT 'rung', rung, sum(links)::bigint FROM link_tally GROUP BY rung
    UNION ALL SELECT 'evidence', evidence, count(*) FROM alias GROUP BY evidence
    UNION ALL SELECT 'fetches', '', count(*) FROM "fetch"`;
  const urlsByState = zeroCounts(URL_STATES);
  const linksByRung = zeroCounts(MATCH_RUNGS);
  const aliasesByEvidence = zeroCounts(ALIAS_EVIDENCE);
  let links = 0;
  let linksWithoutTarget = 0;
  let fetches = 0;
  for (const row of rows) {
    const name = row.name as string;
    const n = row.n as number;
    if (row.kind === 'state') urlsByState[name as UrlState] = n;
    else if (row.kind === 'evidence') aliasesByEvidence[name as AliasEvidence] = n;
    else if (row.kind === 'fetches') fetches = n;
    else {
      links += n;
      if (name === 'none') linksWithoutTarget += n;
      else linksByRung[name as MatchRung] = n;
    }
  }
  return { urlsByState, links, linksByRung, linksWithoutTarget, aliasesByEvidence, fetches };
}

/** Every crawl run, oldest first (each worker of a shared crawl records its own). */
export async function readPgRuns(db: Sql): Promise<CrawlRunRow[]> {
  const rows = await db`SELECT id, started_at, seeds, settings, ended_at, stopped_by, outcome, counts FROM crawl_run ORDER BY id`;
  return rows.map((row) => ({
    id: row.id as number,
    startedAt: row.started_at as number,
    seeds: JSON.parse(row.seeds as string) as string[],
    settings: JSON.parse(row.settings as string) as Record<string, unknown>,
    endedAt: (row.ended_at as number | null) ?? undefined,
    stoppedBy: (row.stopped_by as CrawlRunRow['stoppedBy'] | null) ?? undefined,
    outcome: (row.outcome as string | null) ?? undefined,
    counts: row.counts === null ? undefined : (JSON.parse(row.counts as string) as Record<string, unknown>),
  }));
}

/** The finding identities kept for a run, ordered by bytes as SQLite orders them; `undefined` when none were. */
export async function readPgRunFindings(db: Sql, runId: number): Promise<FindingIdentity[] | undefined> {
  const rows = await db`
    SELECT code, page, target, href FROM run_finding WHERE run_id = ${runId}
    ORDER BY code COLLATE "C", page COLLATE "C", target COLLATE "C", href COLLATE "C"`;
  // Every run recorded keeps one row of code '' (RUN_FINDINGS_MARK): a run with no finding is told from one never recorded.
  if (rows[0]?.code !== '') return undefined;
  return rows.slice(1).map((row) => ({ code: row.code as string, page: row.page as string, target: row.target as string, href: row.href as string }));
}
