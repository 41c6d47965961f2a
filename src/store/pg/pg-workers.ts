// The workers of a crawl shared on PostgreSQL, for `stats`: each one's row
// (crawl_worker: what it reported, its heartbeat, whether it ended) and the claims it
// holds now, live or lapsed (a worker that died leaves lapsed claims until another
// worker takes them).

import { isObject, parseStoredJson } from '../index-corruption.js';
import type { WorkerRow } from '../types.js';
import type { Sql } from './pg-database.js';

interface WorkerColumns {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly started_at: number;
  readonly heartbeat_at: number;
  readonly ended_at: number | null;
  readonly is_silent: boolean;
  readonly counts: string | null;
  readonly claims: number;
  readonly lapsed: number;
}

/** Every worker of the index, by id; claims are live or lapsed, workers silent, as of `now`. */
export async function readWorkers(sql: Sql, now: number): Promise<WorkerRow[]> {
  const rows = (await sql`
    SELECT w.id, w.host, w.pid, w.started_at, w.heartbeat_at, w.ended_at, w.counts,
           (w.ended_at IS NULL AND w.heartbeat_at + coalesce(w.lease_ms, 0) < ${now}::bigint) AS is_silent,
           coalesce(c.live, 0)::integer AS claims, coalesce(c.lapsed, 0)::integer AS lapsed
    FROM crawl_worker AS w
    LEFT JOIN (
      SELECT claimed_by,
             count(*) FILTER (WHERE lease_until >= ${now}::bigint) AS live,
             count(*) FILTER (WHERE lease_until IS NULL OR lease_until < ${now}::bigint) AS lapsed
      FROM frontier WHERE state = 'fetching' GROUP BY claimed_by
    ) AS c ON c.claimed_by = w.id
    ORDER BY w.id`) as unknown as WorkerColumns[];
  return rows.map((row) => ({
    id: row.id,
    host: row.host,
    pid: row.pid,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    endedAt: row.ended_at ?? undefined,
    isSilent: row.is_silent,
    counts: row.counts === null ? {} : (parseStoredJson(row.counts, 'crawl_worker.counts', isObject) as Record<string, number>),
    claims: row.claims,
    lapsedClaims: row.lapsed,
  }));
}
