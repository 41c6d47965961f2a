-- The dedup index (DESIGN.md §5). Keys are RFC 3986 scheme-rung forms without
-- fragment (§6.2.3, §6.1); `form` remembers the spellings seen that differ from
-- their key, and their syntax-rung forms, so that the ladder is climbed
-- cheapest-first and says at which rung a link met a known URL.

CREATE TABLE url (
  id         INTEGER PRIMARY KEY,
  key        TEXT    NOT NULL UNIQUE,
  scheme     TEXT    NOT NULL,
  host       TEXT,
  state      TEXT    NOT NULL CHECK (state IN ('queued', 'fetching', 'done', 'failed', 'skipped', 'alias')),
  depth      INTEGER NOT NULL CHECK (depth >= 0),
  alias_of   INTEGER REFERENCES url (id),
  first_seen INTEGER NOT NULL
) STRICT;

CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';

CREATE TABLE form (
  text   TEXT    PRIMARY KEY,
  url_id INTEGER NOT NULL REFERENCES url (id),
  rung   TEXT    NOT NULL CHECK (rung IN ('string', 'syntax'))
) STRICT, WITHOUT ROWID;

-- Links arrive page by page: clustered on (from_url, position) they are appended
-- at the end of one B-tree (2x the admit rate of a rowid table plus a from_url
-- index, measured). An index on to_url would take a random page for every link
-- (6x slower admits); the reports that need one build it when they run.
CREATE TABLE link (
  from_url   INTEGER NOT NULL REFERENCES url (id),
  position   INTEGER NOT NULL,
  to_url     INTEGER REFERENCES url (id),
  raw_href   TEXT    NOT NULL,
  fragment   TEXT,
  element    TEXT,
  attribute  TEXT,
  base_level TEXT CHECK (base_level IN ('base-element', 'content-location', 'retrieval', 'default')),
  rung       TEXT CHECK (rung IN ('new', 'string', 'syntax', 'scheme', 'protocol')),
  error      TEXT,
  PRIMARY KEY (from_url, position)
) STRICT, WITHOUT ROWID;

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
) STRICT;

CREATE INDEX fetch_url ON fetch (url_id);

CREATE TABLE redirect (
  fetch_id INTEGER NOT NULL REFERENCES fetch (id),
  hop      INTEGER NOT NULL,
  from_url TEXT    NOT NULL,
  to_url   TEXT,
  status   INTEGER NOT NULL,
  PRIMARY KEY (fetch_id, hop)
) STRICT, WITHOUT ROWID;

CREATE TABLE alias (
  from_id    INTEGER NOT NULL REFERENCES url (id),
  evidence   TEXT    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical')),
  to_id      INTEGER NOT NULL REFERENCES url (id),
  detail     TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (from_id, evidence)
) STRICT;
