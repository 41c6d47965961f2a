CREATE VIEW broken_link AS
SELECT l.from_url          AS from_url_id,
       src.key             AS from_url,
       l.position          AS position,
       l.raw_href          AS raw_href,
       l.line              AS line,
       l.column            AS column,
       l.element           AS element,
       l.attribute         AS attribute,
       t.url_id            AS to_url_id,
       t.url               AS to_url,
       l.fragment          AS fragment,
       t.status            AS status,
       t.error_code        AS error_code,
       t.fetch_id          AS fetch_id
FROM link AS l
JOIN page AS t ON t.url_id = l.to_url
JOIN url AS src ON src.id = l.from_url
WHERE t.status >= 400
   OR (t.error_code LIKE 'ERR_FETCH_%' AND (t.status IS NULL OR t.status BETWEEN 300 AND 399));

CREATE VIEW external_link AS
SELECT l.from_url          AS from_url_id,
       src.key             AS from_url,
       l.position          AS position,
       l.raw_href          AS raw_href,
       l.line              AS line,
       l.column            AS column,
       l.element           AS element,
       l.attribute         AS attribute,
       t.id                AS to_url_id,
       t.key               AS to_url,
       t.host              AS host,
       t.state             AS state,
       f.status            AS status,
       f.error_code        AS error_code
FROM link AS l
JOIN url AS t ON t.id = l.to_url
JOIN url AS src ON src.id = l.from_url
LEFT JOIN page AS f ON f.url_id = t.id
WHERE t.role = 'external';

CREATE VIEW link AS
SELECT p.from_url                                                                  AS from_url,
       p.first_position + j.key                                                    AS position,
       j.value ->> 0                                                               AS to_url,
       j.value ->> 1                                                               AS raw_href,
       iif(p.format = 1, j.value ->> 2, j.value ->> 8)                             AS fragment,
       iif(p.format = 1, j.value ->> 3, j.value ->> 2)                             AS element,
       iif(p.format = 1, j.value ->> 4, j.value ->> 3)                             AS attribute,
       iif(p.format = 1, j.value ->> 5, j.value ->> 4)                             AS base_level,
       iif(p.format = 1, j.value ->> 6, j.value ->> 5)                             AS rung,
       iif(p.format = 1, coalesce(j.value ->> 7, j.value ->> 6),
                         coalesce(j.value ->> 9, j.value ->> 5))                   AS ladder_rung,
       iif(p.format = 1, j.value ->> 8, j.value ->> 10)                            AS error,
       iif(p.format = 1, j.value -> 9, j.value -> 11)                              AS findings,
       iif(p.format = 1, j.value ->> 10, j.value ->> 12)                           AS alternate_target,
       coalesce(iif(p.format = 1, j.value ->> 11, j.value ->> 13), j.value ->> 0)  AS met_url,
       iif(p.format = 1, j.value ->> 12, j.value ->> 6)                            AS line,
       iif(p.format = 1, j.value ->> 13, j.value ->> 7)                            AS column
FROM page_link AS p, json_each(p.links) AS j;

CREATE VIEW page AS
SELECT u.id                AS url_id,
       u.key               AS url,
       u.host              AS host,
       coalesce(u.role, 'page') AS role,
       u.state             AS state,
       u.depth             AS depth,
       f.id                AS fetch_id,
       f.started_at        AS fetched_at,
       f.status            AS status,
       f.content_type      AS content_type,
       f.bytes             AS bytes,
       f.duration_ms       AS duration_ms,
       f.error_code        AS error_code,
       f.final_url         AS final_url,
       (SELECT count(*) FROM redirect AS r WHERE r.fetch_id = f.id) AS redirects
FROM url AS u
JOIN fetch AS f ON f.id = (SELECT max(l.id) FROM fetch AS l WHERE l.url_id = u.id);

CREATE TABLE "alias" (
  from_id    INTEGER NOT NULL REFERENCES url (id),
  evidence   TEXT    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical', 'digest', 'rule')),
  to_id      INTEGER NOT NULL REFERENCES url (id),
  detail     TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (from_id, evidence)
) STRICT;

CREATE TABLE archive_record (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER REFERENCES crawl_run (id),
  uri            TEXT    NOT NULL,
  key            TEXT,
  file           TEXT    NOT NULL,
  file_offset    INTEGER NOT NULL CHECK (file_offset >= 0),
  record_length  INTEGER NOT NULL CHECK (record_length >= 0),
  type           TEXT    NOT NULL CHECK (type IN ('response', 'revisit', 'request')),
  payload_digest TEXT,
  warc_date      INTEGER NOT NULL,
  status         INTEGER
) STRICT;

CREATE TABLE crawl_run (
  id         INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  -- JSON array of the seeds, at the scheme rung.
  seeds      TEXT    NOT NULL,
  -- JSON object: scope, include, exclude, maxDepth, maxPages, follow, allowPrivate, baseMode, robots, …
  settings   TEXT    NOT NULL,
  ended_at   INTEGER,
  -- Why it ended: frontier-empty, max-pages, signal, fatal, no-seed.
  stopped_by TEXT,
  -- One line on how it ended (the reason of a non-zero exit).
  outcome    TEXT,
  -- JSON object: the run's counts (requests by kind, fetches saved, …).
  counts     TEXT
) STRICT;

CREATE TABLE fetch (
  id           INTEGER PRIMARY KEY,
  url_id       INTEGER NOT NULL REFERENCES url (id),
  started_at   INTEGER NOT NULL,
  duration_ms  INTEGER,
  status       INTEGER,
  content_type TEXT,
  bytes        INTEGER,
  error_code   TEXT,
  final_url    TEXT
, attempts INTEGER NOT NULL DEFAULT 1, findings TEXT, anchors TEXT, represents_url_id INTEGER REFERENCES url (id), method TEXT CHECK (method IN ('GET', 'HEAD')), etag TEXT, last_modified TEXT, not_modified INTEGER NOT NULL DEFAULT 0 CHECK (not_modified IN (0, 1)), digest TEXT, verdict TEXT CHECK (verdict IN ('ok', 'broken', 'unverified')), protocol TEXT CHECK (protocol IN ('http/1.1', 'h2'))) STRICT;

CREATE TABLE "form" (
  id     INTEGER PRIMARY KEY,
  text   TEXT    NOT NULL,
  url_id INTEGER NOT NULL REFERENCES url (id),
  rung   TEXT    NOT NULL CHECK (rung IN ('string', 'syntax'))
) STRICT;

CREATE TABLE link_tally (
  rung        TEXT    NOT NULL,
  ladder_rung TEXT    NOT NULL,
  links       INTEGER NOT NULL,
  PRIMARY KEY (rung, ladder_rung)
) STRICT, WITHOUT ROWID;

CREATE TABLE page_link (
  from_url       INTEGER NOT NULL REFERENCES url (id),
  first_position INTEGER NOT NULL,
  count          INTEGER NOT NULL CHECK (count > 0),
  links          TEXT    NOT NULL, format INTEGER NOT NULL DEFAULT 1 CHECK (format IN (1, 2)),
  PRIMARY KEY (from_url, first_position)
) STRICT;

CREATE TABLE recheck_generation (
  generation INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  run_id     INTEGER REFERENCES crawl_run (id),
  queued     INTEGER NOT NULL,
  settled_at INTEGER
) STRICT;

CREATE TABLE redirect (
  fetch_id INTEGER NOT NULL REFERENCES fetch (id),
  hop      INTEGER NOT NULL,
  from_url TEXT    NOT NULL,
  to_url   TEXT,
  status   INTEGER NOT NULL,
  PRIMARY KEY (fetch_id, hop)
) STRICT, WITHOUT ROWID;

CREATE TABLE robots (
  origin     TEXT    PRIMARY KEY,
  fetched_at INTEGER NOT NULL,
  entry      TEXT    NOT NULL
) STRICT;

CREATE TABLE run_finding (
  run_id  INTEGER NOT NULL REFERENCES crawl_run (id),
  code    TEXT    NOT NULL,
  page    TEXT    NOT NULL,
  target  TEXT    NOT NULL,
  href    TEXT    NOT NULL,
  PRIMARY KEY (run_id, code, page, target, href)
) STRICT, WITHOUT ROWID;

CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT;

CREATE TABLE sitemap (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER REFERENCES crawl_run (id),
  -- The sitemap's URL as it was named (the seed's origin + /sitemap.xml, the
  -- Sitemap: line, the index's <loc>).
  url        TEXT    NOT NULL,
  -- How it was found: 'origin' (/sitemap.xml), 'robots', or 'index' (parent_id names it).
  source     TEXT    NOT NULL CHECK (source IN ('origin', 'robots', 'index')),
  parent_id  INTEGER REFERENCES sitemap (id),
  fetched_at INTEGER NOT NULL,
  status     INTEGER,
  error_code TEXT,
  -- 'urlset' or 'sitemapindex'; NULL when nothing was read.
  kind       TEXT,
  findings   TEXT
) STRICT;

CREATE TABLE sitemap_entry (
  sitemap_id INTEGER NOT NULL REFERENCES sitemap (id),
  position   INTEGER NOT NULL,
  url_id     INTEGER REFERENCES url (id),
  loc        TEXT    NOT NULL,
  lastmod    TEXT,
  line       INTEGER,
  PRIMARY KEY (sitemap_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE sitemap_queue (
  id          INTEGER PRIMARY KEY,
  key         TEXT    NOT NULL UNIQUE,
  origin      TEXT    NOT NULL,
  url         TEXT    NOT NULL,
  source      TEXT    NOT NULL CHECK (source IN ('origin', 'robots', 'index')),
  parent_id   INTEGER REFERENCES sitemap (id),
  state       TEXT    NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'read', 'failed')),
  lease_until INTEGER
) STRICT;

CREATE TABLE "url" (
  id         INTEGER PRIMARY KEY,
  key        TEXT    NOT NULL,
  scheme     TEXT    NOT NULL,
  host       TEXT,
  state      TEXT    NOT NULL CHECK (state IN ('queued', 'fetching', 'done', 'failed', 'skipped', 'alias')),
  depth      INTEGER NOT NULL CHECK (depth >= 0),
  alias_of   INTEGER REFERENCES url (id),
  first_seen INTEGER NOT NULL,
  -- The link that first named the URL: its page (NULL for a seed, or a URL learned
  -- from a response) and the href as written.
  first_from INTEGER REFERENCES url (id),
  first_href TEXT
, role TEXT CHECK (role IN ('page', 'resource', 'external'))) STRICT;

CREATE TABLE writer_lock (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  token         TEXT    NOT NULL,
  pid           INTEGER NOT NULL,
  host          TEXT    NOT NULL,
  process_start TEXT,
  acquired_at   INTEGER NOT NULL
) STRICT;

CREATE INDEX archive_record_key ON archive_record (key, id);

CREATE INDEX archive_record_payload ON archive_record (payload_digest, id) WHERE type = 'response';

CREATE INDEX archive_record_uri ON archive_record (uri, id);

CREATE INDEX fetch_digest ON fetch (digest) WHERE digest IS NOT NULL;

CREATE INDEX fetch_url ON fetch (url_id);

CREATE INDEX sitemap_entry_url ON sitemap_entry (url_id);

CREATE INDEX sitemap_queue_origin ON sitemap_queue (origin, id);

CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';
