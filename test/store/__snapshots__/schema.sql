CREATE VIEW link AS
SELECT p.from_url                                    AS from_url,
       p.first_position + j.key                      AS position,
       j.value ->> 0                                 AS to_url,
       j.value ->> 1                                 AS raw_href,
       j.value ->> 2                                 AS fragment,
       j.value ->> 3                                 AS element,
       j.value ->> 4                                 AS attribute,
       j.value ->> 5                                 AS base_level,
       j.value ->> 6                                 AS rung,
       coalesce(j.value ->> 7, j.value ->> 6)        AS ladder_rung,
       j.value ->> 8                                 AS error,
       j.value -> 9                                  AS findings,
       j.value ->> 10                                AS alternate_target,
       coalesce(j.value ->> 11, j.value ->> 0)       AS met_url
FROM page_link AS p, json_each(p.links) AS j;

CREATE TABLE alias (
  from_id    INTEGER NOT NULL REFERENCES url (id),
  evidence   TEXT    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical')),
  to_id      INTEGER NOT NULL REFERENCES url (id),
  detail     TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (from_id, evidence)
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
, attempts INTEGER NOT NULL DEFAULT 1, findings TEXT, anchors TEXT, represents_url_id INTEGER REFERENCES url (id), method TEXT CHECK (method IN ('GET', 'HEAD'))) STRICT;

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
  links          TEXT    NOT NULL,
  PRIMARY KEY (from_url, first_position)
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

CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
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

CREATE INDEX fetch_url ON fetch (url_id);

CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';
