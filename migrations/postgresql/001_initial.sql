-- The index on PostgreSQL (issue 12): the concepts of migrations/001–008 (SQLite)
-- in one schema, shared by any number of cooperating crawl workers.
--
-- Distribution: every large table (url, form, page_link, fetch, redirect, alias)
-- leads its primary key with `site`, a 32-bit hash of the host of the URL the row
-- belongs to (src/store/pg/site-hash.ts), so the schema can be partitioned by it
-- (PARTITION BY HASH (site)) or distributed with Citus (create_distributed_table
-- on site). That is also why these tables declare no foreign keys to each other: a
-- link names URLs of other hosts. Ids come from sequences and are unique on their own.
--
-- Times are Unix milliseconds (bigint), as in the SQLite index.

CREATE SEQUENCE url_id_seq AS bigint;
CREATE SEQUENCE fetch_id_seq AS bigint;

CREATE TABLE url (
  site        integer NOT NULL,
  id          bigint  NOT NULL,
  key         text    NOT NULL,
  scheme      text    NOT NULL,
  host        text,
  state       text    NOT NULL CHECK (state IN ('queued', 'fetching', 'done', 'failed', 'skipped', 'alias')),
  role        text    CHECK (role IN ('page', 'resource', 'external')),
  depth       integer NOT NULL CHECK (depth >= 0),
  alias_of    bigint,
  first_seen  bigint  NOT NULL,
  -- The link that first named the URL: its page (NULL for a seed, or a URL learned
  -- from a response) and the href as written.
  first_from  bigint,
  first_href  text,
  -- A claim (state 'fetching'): the worker that holds it, and until when. A claim
  -- whose lease ran out is another worker's to take.
  claimed_by  text,
  lease_until bigint,
  PRIMARY KEY (site, id),
  UNIQUE (site, key)
);

CREATE INDEX url_by_id ON url (id);
-- The frontier, shallowest first.
CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';
-- Claims: by lease (the ones that ran out) and by host (requests in flight on a host).
CREATE INDEX url_claims ON url (host, lease_until) WHERE state = 'fetching';
CREATE INDEX url_aliases ON url (id, alias_of) WHERE alias_of IS NOT NULL;

-- Spellings of a URL other than its key (DESIGN.md §2): `string` seen as written,
-- `syntax` the §6.2.2 form kept so that a later spelling meeting it says so.
CREATE TABLE form (
  site   integer NOT NULL,
  text   text    NOT NULL,
  url_id bigint  NOT NULL,
  rung   text    NOT NULL CHECK (rung IN ('string', 'syntax')),
  -- The order the spellings were recorded in (reports list a URL's forms so).
  seq    bigserial,
  PRIMARY KEY (site, text)
);

-- A page's links, one row per admitted batch (src/store/link-codec.ts: a JSON array
-- of one array per link), read one row per link through the `link` view.
CREATE TABLE page_link (
  site           integer NOT NULL,
  from_url       bigint  NOT NULL,
  first_position integer NOT NULL,
  count          integer NOT NULL CHECK (count > 0),
  links          text    NOT NULL,
  PRIMARY KEY (site, from_url, first_position)
);

CREATE INDEX page_link_by_page ON page_link (from_url, first_position);

-- Links by (rung, ladder rung), 'none' for a link without a target; one set of rows
-- per writer shard, so that concurrent writers do not wait on one row.
CREATE TABLE link_tally (
  shard       smallint NOT NULL,
  rung        text     NOT NULL,
  ladder_rung text     NOT NULL,
  links       bigint   NOT NULL,
  PRIMARY KEY (shard, rung, ladder_rung)
);

CREATE TABLE "fetch" (
  site              integer NOT NULL,
  id                bigint  NOT NULL,
  url_id            bigint  NOT NULL,
  started_at        bigint  NOT NULL,
  duration_ms       integer,
  status            integer,
  content_type      text,
  bytes             bigint,
  error_code        text,
  final_url         text,
  attempts          integer NOT NULL DEFAULT 1,
  findings          text,
  anchors           text,
  represents_url_id bigint,
  etag              text,
  last_modified     text,
  not_modified      boolean NOT NULL DEFAULT false,
  method            text    CHECK (method IN ('GET', 'HEAD')),
  -- The worker that made the request.
  worker            text,
  PRIMARY KEY (site, id)
);

CREATE INDEX fetch_by_url ON "fetch" (url_id, id);
CREATE INDEX fetch_by_id ON "fetch" (id);

CREATE TABLE redirect (
  site     integer NOT NULL,
  fetch_id bigint  NOT NULL,
  hop      integer NOT NULL,
  from_url text    NOT NULL,
  to_url   text,
  status   integer NOT NULL,
  PRIMARY KEY (site, fetch_id, hop)
);

CREATE INDEX redirect_by_fetch ON redirect (fetch_id, hop);

-- RFC 3986 §6.2.4 evidence: `redirect` and `content-location` make from_id an alias
-- of to_id (url.alias_of); `canonical` is only recorded.
CREATE TABLE alias (
  site       integer NOT NULL,
  from_id    bigint  NOT NULL,
  evidence   text    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical')),
  to_id      bigint  NOT NULL,
  detail     text,
  created_at bigint  NOT NULL,
  seq        bigserial,
  PRIMARY KEY (site, from_id, evidence)
);

CREATE INDEX alias_to ON alias (to_id);

-- RFC 9309 §2.4: robots.txt answers, shared by every worker.
CREATE TABLE robots (
  origin     text   PRIMARY KEY,
  fetched_at bigint NOT NULL,
  entry      text   NOT NULL
);

CREATE TABLE crawl_run (
  id         bigserial PRIMARY KEY,
  started_at bigint NOT NULL,
  -- JSON array of the seeds, at the scheme rung.
  seeds      text   NOT NULL,
  -- JSON object of the run's settings.
  settings   text   NOT NULL,
  ended_at   bigint,
  stopped_by text,
  outcome    text,
  counts     text,
  -- The worker whose run it is (each worker of a crawl records its own).
  worker     text
);

-- Cooperating workers: one row each, its heartbeat renewed with its leases.
CREATE TABLE crawl_worker (
  id           text   PRIMARY KEY,
  host         text   NOT NULL,
  pid          integer NOT NULL,
  started_at   bigint NOT NULL,
  heartbeat_at bigint NOT NULL,
  ended_at     bigint,
  -- How long its claims hold without renewal (it renews every lease_ms / 3): a
  -- worker whose heartbeat is older than that stopped (killed, machine lost).
  lease_ms     integer,
  -- JSON object: what it has done (requests, pages, links admitted …).
  counts       text
);

-- Politeness across workers: the earliest time the next request to a host may start,
-- and the least time between two starts (the crawl's delay, or robots.txt's Crawl-delay).
CREATE TABLE crawl_host (
  host     text    PRIMARY KEY,
  next_at  bigint  NOT NULL DEFAULT 0,
  delay_ms integer NOT NULL DEFAULT 0
);

CREATE TABLE sitemap (
  id         bigserial PRIMARY KEY,
  run_id     bigint,
  url        text   NOT NULL,
  source     text   NOT NULL CHECK (source IN ('origin', 'robots', 'index')),
  parent_id  bigint,
  fetched_at bigint NOT NULL,
  status     integer,
  error_code text,
  kind       text,
  findings   text
);

CREATE TABLE sitemap_entry (
  sitemap_id bigint  NOT NULL,
  position   integer NOT NULL,
  url_id     bigint,
  loc        text    NOT NULL,
  lastmod    text,
  line       integer,
  PRIMARY KEY (sitemap_id, position)
);

CREATE INDEX sitemap_entry_url ON sitemap_entry (url_id);

CREATE TABLE run_finding (
  run_id bigint NOT NULL,
  code   text   NOT NULL,
  page   text   NOT NULL,
  target text   NOT NULL,
  href   text   NOT NULL,
  PRIMARY KEY (run_id, code, page, target, href)
);

-- One row per link, as the SQLite index's `link` view (migration 008).
CREATE VIEW link AS
SELECT p.from_url                                          AS from_url,
       p.first_position + (j.n - 1)::integer               AS position,
       (j.v ->> 0)::bigint                                 AS to_url,
       j.v ->> 1                                           AS raw_href,
       j.v ->> 2                                           AS fragment,
       j.v ->> 3                                           AS element,
       j.v ->> 4                                           AS attribute,
       j.v ->> 5                                           AS base_level,
       j.v ->> 6                                           AS rung,
       coalesce(j.v ->> 7, j.v ->> 6)                      AS ladder_rung,
       j.v ->> 8                                           AS error,
       j.v -> 9                                            AS findings,
       j.v ->> 10                                          AS alternate_target,
       coalesce(j.v ->> 11, j.v ->> 0)::bigint             AS met_url,
       (j.v ->> 12)::integer                               AS line,
       (j.v ->> 13)::integer                               AS "column"
FROM page_link AS p, jsonb_array_elements(p.links::jsonb) WITH ORDINALITY AS j (v, n);

CREATE VIEW page AS
SELECT u.id                     AS url_id,
       u.key                    AS url,
       u.host                   AS host,
       coalesce(u.role, 'page') AS role,
       u.state                  AS state,
       u.depth                  AS depth,
       f.id                     AS fetch_id,
       f.started_at             AS fetched_at,
       f.status                 AS status,
       f.content_type           AS content_type,
       f.bytes                  AS bytes,
       f.duration_ms            AS duration_ms,
       f.error_code             AS error_code,
       f.final_url              AS final_url,
       (SELECT count(*) FROM redirect AS r WHERE r.fetch_id = f.id) AS redirects
FROM url AS u
JOIN "fetch" AS f ON f.id = (SELECT max(l.id) FROM "fetch" AS l WHERE l.url_id = u.id);

CREATE VIEW broken_link AS
SELECT l.from_url   AS from_url_id,
       src.key      AS from_url,
       l.position   AS position,
       l.raw_href   AS raw_href,
       l.line       AS line,
       l."column"   AS "column",
       l.element    AS element,
       l.attribute  AS attribute,
       t.url_id     AS to_url_id,
       t.url        AS to_url,
       l.fragment   AS fragment,
       t.status     AS status,
       t.error_code AS error_code,
       t.fetch_id   AS fetch_id
FROM link AS l
JOIN page AS t ON t.url_id = l.to_url
JOIN url AS src ON src.id = l.from_url
WHERE t.status >= 400
   OR (t.error_code LIKE 'ERR_FETCH_%' AND (t.status IS NULL OR t.status BETWEEN 300 AND 399));

CREATE VIEW external_link AS
SELECT l.from_url  AS from_url_id,
       src.key     AS from_url,
       l.position  AS position,
       l.raw_href  AS raw_href,
       l.line      AS line,
       l."column"  AS "column",
       l.element   AS element,
       l.attribute AS attribute,
       t.id        AS to_url_id,
       t.key       AS to_url,
       t.host      AS host,
       t.state     AS state,
       f.status    AS status,
       f.error_code AS error_code
FROM link AS l
JOIN url AS t ON t.id = l.to_url
JOIN url AS src ON src.id = l.from_url
LEFT JOIN page AS f ON f.url_id = t.id
WHERE t.role = 'external';
