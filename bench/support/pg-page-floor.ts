// The least PostgreSQL CPU a crawled page can cost on a server: the rows a page of the
// worker bench writes (pg-workers.bench.ts prints them by table: a URL claimed and
// settled, its fetch row, one new URL with its frontier row, the page's link row, the
// run's counts, the link tally and the host's row), written by the plainest statements
// that write them, with no politeness in the claim (the shallowest queued URL), no
// trigger, no re-check or rung logic: what any design of these tables pays. Three shapes:
//   - 2 statements a page, each its own transaction: the claim, and one statement
//     writing the rest;
//   - 6 statements a page, as a worker sends them: BEGIN, SAVEPOINT, the admission, the
//     fetch row, COMMIT, and the claim;
//   - 2 statements a page with a claim that keeps per-host concurrency and turns in the
//     host's row (its count of requests in flight raised by the claim, lowered by the
//     settlement): a claim that schedules by host at its plainest, against the one a
//     worker makes (which chooses hosts too, but counts each one's live claims, checks
//     its delay and its row's version, and keeps its first queued URL in its row).
// The first two differ only in their statements: what a statement costs the server by
// itself. The CPU is the cluster's, as the worker bench reads it (process-cpu.ts),
// background processes included.

import { clusterCpuSeconds } from './process-cpu.js';
import { connect } from '../../src/store/pg/pg-database.js';

const schemaFor = (hosts: number): string => `
CREATE TABLE url (site integer NOT NULL, id bigint NOT NULL, key text NOT NULL, state text NOT NULL,
  claimed_by text, lease_until bigint, depth integer NOT NULL, host text, role text NOT NULL DEFAULT 'page',
  PRIMARY KEY (site, id), UNIQUE (key, site));
CREATE INDEX url_by_id ON url (id);
CREATE TABLE frontier (site integer NOT NULL, id bigint NOT NULL, host text, depth integer NOT NULL,
  state text NOT NULL, lease_until bigint, claimed_by text, PRIMARY KEY (site, id));
CREATE INDEX frontier_queued ON frontier (depth, id) WHERE state = 'queued';
CREATE INDEX frontier_claims ON frontier (host, lease_until) WHERE state = 'fetching';
CREATE TABLE "fetch" (site integer NOT NULL, id bigint NOT NULL, url_id bigint NOT NULL, status integer,
  started_at bigint, duration_ms integer, content_type text, bytes integer, digest text, PRIMARY KEY (site, id));
CREATE INDEX fetch_by_url ON "fetch" (site, url_id);
CREATE TABLE page_link (site integer NOT NULL, id bigint NOT NULL, from_url bigint NOT NULL, links bytea, PRIMARY KEY (site, id));
CREATE TABLE crawl_run (id integer PRIMARY KEY, fetched integer NOT NULL DEFAULT 0, requests integer NOT NULL DEFAULT 0, links integer NOT NULL DEFAULT 0);
CREATE TABLE link_tally (id integer PRIMARY KEY, n integer NOT NULL DEFAULT 0);
CREATE TABLE crawl_host (host text PRIMARY KEY, next_at bigint NOT NULL DEFAULT 0, delay_ms integer NOT NULL DEFAULT 0,
  in_flight integer NOT NULL DEFAULT 0, turn bigint NOT NULL DEFAULT 0);
CREATE INDEX frontier_host_queued ON frontier (host, depth, id) WHERE state = 'queued';
CREATE SEQUENCE ids;
INSERT INTO crawl_run VALUES (1);
INSERT INTO link_tally VALUES (1);
CREATE INDEX crawl_host_turn ON crawl_host (turn);
INSERT INTO crawl_host SELECT 'h' || i FROM generate_series(0, ${hosts - 1}) AS i;
INSERT INTO url (site, id, key, state, depth, host)
  SELECT i % ${hosts}, nextval('ids'), 'http://h' || (i % ${hosts}) || '/p' || i, 'queued', 1 + i / 1000, 'h' || (i % ${hosts}) FROM generate_series(0, 39999) AS i;
INSERT INTO frontier (site, id, host, depth, state) SELECT site, id, host, depth, state FROM url;
`;

/** The shallowest queued URL, taken: its frontier row, its URL row and its host's row. */
const CLAIM = `
WITH c AS (SELECT site, id, host FROM frontier WHERE state = 'queued' ORDER BY depth, id LIMIT 1 FOR UPDATE SKIP LOCKED),
f AS (UPDATE frontier AS f SET state = 'fetching', lease_until = $1, claimed_by = 'w' FROM c WHERE f.site = c.site AND f.id = c.id),
u AS (UPDATE url AS u SET state = 'fetching', claimed_by = 'w', lease_until = $1 FROM c WHERE u.site = c.site AND u.id = c.id RETURNING u.site, u.id, u.depth),
h AS (UPDATE crawl_host AS h SET next_at = $1 FROM c WHERE h.host = c.host)
SELECT site, id, depth FROM u`;

/**
 * A claim that keeps politeness in the host's row: the host whose turn is oldest among
 * those under their concurrency and past their next slot, then its shallowest URL. Its
 * settlement gives the slot back (FETCH_ROW_BY_HOST).
 */
const CLAIM_BY_HOST = `
WITH h AS (SELECT host FROM crawl_host WHERE in_flight < 4 AND next_at <= $1 ORDER BY turn LIMIT 1 FOR UPDATE SKIP LOCKED),
c AS (SELECT q.site, q.id, h.host FROM h CROSS JOIN LATERAL (
  SELECT site, id FROM frontier WHERE host = h.host AND state = 'queued' ORDER BY depth, id LIMIT 1 FOR UPDATE SKIP LOCKED) AS q),
f AS (UPDATE frontier AS f SET state = 'fetching', lease_until = $1, claimed_by = 'w' FROM c WHERE f.site = c.site AND f.id = c.id),
u AS (UPDATE url AS u SET state = 'fetching', claimed_by = 'w', lease_until = $1 FROM c WHERE u.site = c.site AND u.id = c.id RETURNING u.site, u.id, u.depth),
x AS (UPDATE crawl_host AS x SET in_flight = x.in_flight + 1, turn = $1, next_at = $1 + x.delay_ms FROM c WHERE x.host = c.host)
SELECT site, id, depth FROM u`;

/** The page's links looked up by key (10 known ones), one new URL queued, the link row and the tally. */
const ADMISSION = `
known AS (SELECT id FROM url WHERE site = $1 AND key = ANY ($4::text[])),
nu AS (INSERT INTO url (site, id, key, state, depth, host) VALUES ($1, nextval('ids'), $5, 'queued', $3 + 1, 'h' || $1)
  ON CONFLICT DO NOTHING RETURNING site, id, host, depth, state),
nf AS (INSERT INTO frontier (site, id, host, depth, state) SELECT * FROM nu),
pl AS (INSERT INTO page_link VALUES ($1, nextval('ids'), $2, '\\x0102030405060708090a'::bytea)),
lt AS (UPDATE link_tally SET n = n + 10 WHERE id = 1)`;

/** The fetch row, the URL settled, its frontier row gone, the run's counts. */
const FETCH_ROW = `
fe AS (INSERT INTO "fetch" VALUES ($1, nextval('ids'), $2, 200, 1, 50, 'text/html', 1000, 'd')),
uu AS (UPDATE url SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE site = $1 AND id = $2),
fd AS (DELETE FROM frontier WHERE site = $1 AND id = $2),
cr AS (UPDATE crawl_run SET fetched = fetched + 1, requests = requests + 1, links = links + 10 WHERE id = 1)`;

/** FETCH_ROW, and the host's slot given back. */
const FETCH_ROW_BY_HOST = `${FETCH_ROW},
hs AS (UPDATE crawl_host SET in_flight = in_flight - 1 WHERE host = 'h' || $1)`;

export interface PageFloor {
  /** Server CPU a page (ms), 2 statements a page. */
  readonly twoStatementsMs: number;
  /** Server CPU a page (ms), 6 statements a page. */
  readonly sixStatementsMs: number;
  /** Server CPU a page (ms), 2 statements a page, the claim by host (CLAIM_BY_HOST). */
  readonly byHostMs: number;
}

/**
 * `pages` pages of each shape on a fresh database of the cluster, its 40,000 queued URLs
 * on `hosts` hosts (each always has some queued: a page queues one on its own host);
 * undefined without /proc.
 */
export async function measurePageFloor(db: string, dataDir: string, pages: number, hosts = 8): Promise<PageFloor | undefined> {
  const sql = connect(db, { max: 1 });
  try {
    await sql.unsafe(schemaFor(hosts));
    await sql.unsafe('VACUUM ANALYZE');
    const keysOf = (site: number): string[] => Array.from({ length: 10 }, (_, g) => `http://h${site}/p${site + hosts * (g + 1)}`);
    let n = 0;
    const run = async (page: (site: number, id: number, depth: number) => Promise<unknown>, claim = CLAIM): Promise<number | undefined> => {
      const before = clusterCpuSeconds(dataDir);
      for (let i = 0; i < pages; i++) {
        n++;
        const [row] = await sql.unsafe(claim, [n], { prepare: true });
        const { site, id, depth } = row as unknown as { site: number; id: number; depth: number };
        await page(site, id, depth);
      }
      const after = clusterCpuSeconds(dataDir);
      return before === undefined || after === undefined ? undefined : ((after - before) * 1000) / pages;
    };
    const params = (site: number, id: number, depth: number): unknown[] => [site, id, depth, keysOf(site), `http://h${site}/new${n}`];
    const two = await run((site, id, depth) =>
      sql.unsafe(`WITH ${ADMISSION}, ${FETCH_ROW} SELECT (SELECT count(*) FROM known) AS known`, params(site, id, depth) as never, { prepare: true }),
    );
    const six = await run((site, id, depth) =>
      sql.begin(async (tx) => {
        await tx.unsafe('SAVEPOINT s0');
        await tx.unsafe(`WITH ${ADMISSION} SELECT (SELECT count(*) FROM known) AS known`, params(site, id, depth) as never, { prepare: true });
        await tx.unsafe(`WITH ${FETCH_ROW} SELECT 1`, [site, id] as never, { prepare: true });
      }),
    );
    const byHost = await run(
      (site, id, depth) =>
        sql.unsafe(`WITH ${ADMISSION}, ${FETCH_ROW_BY_HOST} SELECT (SELECT count(*) FROM known) AS known`, params(site, id, depth) as never, { prepare: true }),
      CLAIM_BY_HOST,
    );
    return two === undefined || six === undefined || byHost === undefined ? undefined : { twoStatementsMs: two, sixStatementsMs: six, byHostMs: byHost };
  } finally {
    await sql.end();
  }
}
