// The SQL of the SQLite store: every statement it runs, named after its query,
// prepared once per connection. The states a statement moves a URL out of come
// from the URL state machine (url-state-machine.ts).

import type { Database as Db, Statement } from 'better-sqlite3';
import { ALIAS_COLUMNS, URL_COLUMNS } from '../row-codec.js';
import { FETCH_COLUMNS } from './sqlite-rows.js';
import { ANY_LEFT_TO_FETCH_SQL, stateIn } from '../url-state-machine.js';
import { ARCHIVED_COLUMNS } from '../archive-records.js';
import { TURN_WINDOW } from '../claim-turns.js';

const SQL = {
  requeueFetching: `UPDATE url SET state = 'queued' WHERE ${stateIn('open', { to: 'queued', backend: 'sqlite' })}`,
  selectAliases: `SELECT id, alias_of FROM url WHERE state = 'alias'`,
  countKeys: 'SELECT (SELECT count(*) FROM url) AS urls, (SELECT count(*) FROM form) AS forms',
  urlKeysAfter: `SELECT id, key, state = 'skipped' OR coalesce(role, 'page') <> 'page' FROM url WHERE id > :id ORDER BY id`,
  formTextsAfter: `SELECT id, text, url_id, rung = 'string' FROM form WHERE id > :id ORDER BY id`,
  insertForm: 'INSERT INTO form (text, url_id, rung) VALUES (?, ?, ?)',
  formSeenAsWritten: `UPDATE form SET rung = 'string' WHERE id = :id`,
  urlState: 'SELECT state FROM url WHERE id = :id',
  urlStanding: 'SELECT state, role FROM url WHERE id = :id',
  insertUrl: 'INSERT INTO url (key, scheme, host, state, depth, first_seen, first_from, first_href, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  followSkipped: `UPDATE url SET state = 'queued', depth = min(depth, :depth), role = :role WHERE id = :id AND ${stateIn('admit', { to: 'queued' })}`,
  raiseRole: `UPDATE url SET role = :role WHERE id = :id AND state = 'queued'`,
  nextQueued: `SELECT id, key, depth, host, role FROM url WHERE ${stateIn('claim', { to: 'fetching', backend: 'sqlite' })} ORDER BY depth, id LIMIT :limit`,
  // Hosts in turn within a depth, among the first TURN_WINDOW (claim-turns.ts).
  nextQueuedInTurns: `SELECT id, key, depth, host, role FROM (
      SELECT id, key, depth, host, role, row_number() OVER (PARTITION BY depth, coalesce(host, '') ORDER BY id) AS turn
      FROM (SELECT id, key, depth, host, role FROM url WHERE ${stateIn('claim', { to: 'fetching', backend: 'sqlite' })} ORDER BY depth, id LIMIT ${TURN_WINDOW}))
    ORDER BY depth, turn, id LIMIT :limit`,
  markFetching: `UPDATE url SET state = 'fetching' WHERE id = :id`,
  requeue: `UPDATE url SET state = 'queued' WHERE id = :id AND ${stateIn('requeue')}`,
  insertFetch: `INSERT INTO fetch (url_id, started_at, duration_ms, status, content_type, bytes, error_code, final_url, attempts, findings, anchors, represents_url_id,
         etag, last_modified, not_modified, method, digest, verdict, protocol)
       VALUES (:urlId, :startedAt, :durationMs, :status, :contentType, :bytes, :errorCode, :finalUrl, :attempts, :findings, :anchors, :representsUrlId,
         :etag, :lastModified, :notModified, :method, :digest, :verdict, :protocol)`,
  insertRedirect: 'INSERT INTO redirect (fetch_id, hop, from_url, to_url, status) VALUES (:fetchId, :hop, :from, :to, :status)',
  setFetched: `UPDATE url SET state = :state WHERE id = :id AND ${stateIn('recordFetch')}`,
  putAlias: `INSERT INTO alias (from_id, evidence, to_id, detail, created_at) VALUES (:fromId, :evidence, :toId, :detail, :createdAt)
       ON CONFLICT (from_id, evidence) DO UPDATE SET to_id = excluded.to_id, detail = excluded.detail, created_at = excluded.created_at`,
  setAlias: `UPDATE url SET state = 'alias', alias_of = :to WHERE id = :id`,
  deleteProvingAliases: `DELETE FROM alias WHERE from_id = :id AND evidence <> 'canonical'`,
  unsetAlias: `UPDATE url SET state = 'queued', alias_of = NULL WHERE id = :id AND ${stateIn('revokeAlias')}`,
  getUrl: `SELECT ${URL_COLUMNS} FROM url AS u WHERE u.id = :id`,
  fetchesOf: `SELECT ${FETCH_COLUMNS} FROM fetch AS f WHERE f.url_id = :id ORDER BY f.id`,
  aliasesFrom: `SELECT ${ALIAS_COLUMNS} FROM alias AS a WHERE a.from_id = :id ORDER BY a.created_at`,
  getRobots: 'SELECT entry FROM robots WHERE origin = :origin',
  putRobots: `INSERT INTO robots (origin, fetched_at, entry) VALUES (:origin, :fetchedAt, :entry)
       ON CONFLICT (origin) DO UPDATE SET fetched_at = excluded.fetched_at, entry = excluded.entry`,
  aliasesTo: `SELECT ${ALIAS_COLUMNS} FROM alias AS a WHERE a.to_id = :id ORDER BY a.created_at`,
  firstLinkElement: 'SELECT element, attribute FROM link WHERE from_url = :from AND (to_url = :id OR met_url = :id) ORDER BY position LIMIT 1',
  insertRun: 'INSERT INTO crawl_run (started_at, seeds, settings) VALUES (:startedAt, :seeds, :settings)',
  endRun: 'UPDATE crawl_run SET ended_at = :endedAt, stopped_by = :stoppedBy, outcome = :outcome, counts = :counts WHERE id = :id',
  recordRunCounts: 'UPDATE crawl_run SET counts = :counts WHERE id = :id AND ended_at IS NULL',
  insertSitemap: `INSERT INTO sitemap (run_id, url, source, parent_id, fetched_at, status, error_code, kind, findings)
       VALUES (:runId, :url, :source, :parentId, :fetchedAt, :status, :errorCode, :kind, :findings)`,
  insertSitemapEntry: `INSERT INTO sitemap_entry (sitemap_id, position, url_id, loc, lastmod, line)
       VALUES (:sitemapId, :position, :urlId, :loc, :lastmod, :line)`,
  // The aliases a re-check asks again are those redirectAliases finds: unsetAlias moves them.
  requeueFetched: `UPDATE url SET state = 'queued' WHERE ${stateIn('requeueFetched', { except: ['alias'] })}`,
  redirectAliases: `SELECT id FROM url WHERE state = 'alias' AND id IN (SELECT from_id FROM alias WHERE evidence = 'redirect')`,
  // Re-check generations (migration 015): the one in progress, if any, and how one begins or is found finished.
  openRecheck: 'SELECT generation FROM recheck_generation WHERE settled_at IS NULL ORDER BY generation DESC LIMIT 1',
  anyLeftToFetch: `SELECT ${ANY_LEFT_TO_FETCH_SQL}`,
  settleRecheck: `UPDATE recheck_generation SET settled_at = :now WHERE settled_at IS NULL AND NOT (${ANY_LEFT_TO_FETCH_SQL})`,
  beginRecheck: 'INSERT INTO recheck_generation (started_at, run_id, queued) VALUES (:now, :runId, :queued)',
  queueSitemap: `INSERT INTO sitemap_queue (key, origin, url, source, parent_id) VALUES (:key, :origin, :url, :source, :parentId)
       ON CONFLICT (key) DO NOTHING`,
  settleSitemap: `UPDATE sitemap_queue SET state = :state, lease_until = NULL WHERE key = :key AND state = 'queued'`,
  sitemapQueueOf: 'SELECT key, origin, url, source, parent_id, state FROM sitemap_queue WHERE origin = :origin ORDER BY id',
  sitemapQueueState: 'SELECT state FROM sitemap_queue WHERE key = :key',
  clearSitemapQueue: 'DELETE FROM sitemap_queue',
  // link_tally counts what is left: the page's links are taken off their (rung, ladder_rung) pairs.
  untallyPageLinks: `UPDATE link_tally SET links = link_tally.links - t.n
       FROM (SELECT coalesce(rung, 'none') AS rung, coalesce(ladder_rung, 'none') AS ladder_rung, count(*) AS n
             FROM link WHERE from_url = :id GROUP BY 1, 2) AS t
       WHERE link_tally.rung = t.rung AND link_tally.ladder_rung = t.ladder_rung`,
  deletePageLinks: 'DELETE FROM page_link WHERE from_url = :id',
  deleteRunFindings: 'DELETE FROM run_finding WHERE run_id = :runId',
  insertRunFinding: 'INSERT OR IGNORE INTO run_finding (run_id, code, page, target, href) VALUES (:runId, :code, :page, :target, :href)',
  insertArchived: `INSERT INTO archive_record (run_id, uri, key, file, file_offset, record_length, type, payload_digest, warc_date, status)
       VALUES (:runId, :uri, :key, :file, :offset, :length, :type, :payloadDigest, :date, :status)`,
  archivedByKey: `SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE key = :key ORDER BY warc_date DESC, id DESC`,
  archivedByUri: `SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE key IS NULL AND uri = :uri ORDER BY warc_date DESC, id DESC`,
  archivedPayload: `SELECT ${ARCHIVED_COLUMNS} FROM archive_record WHERE payload_digest = :digest AND type = 'response' ORDER BY id LIMIT 1`,
} as const;

export type StatementName = keyof typeof SQL;

/** Statements whose rows are arrays of values, not objects. */
const RAW: ReadonlySet<StatementName> = new Set<StatementName>(['urlKeysAfter', 'formTextsAfter']);
/** Statements that return their first column's value. */
const PLUCKED: ReadonlySet<StatementName> = new Set<StatementName>(['urlState', 'getRobots', 'redirectAliases', 'openRecheck', 'anyLeftToFetch']);

export type SqliteStatements = { readonly [Name in StatementName]: Statement };

/** Every statement of the store, prepared on `db`. */
export function prepareStatements(db: Db): SqliteStatements {
  const entries = (Object.keys(SQL) as StatementName[]).map((name) => {
    const statement = db.prepare(SQL[name]);
    return [name, RAW.has(name) ? statement.raw(true) : PLUCKED.has(name) ? statement.pluck() : statement] as const;
  });
  return Object.fromEntries(entries) as SqliteStatements;
}
