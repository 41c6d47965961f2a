CREATE TABLE alias (
  from_id    INTEGER NOT NULL REFERENCES url (id),
  evidence   TEXT    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical')),
  to_id      INTEGER NOT NULL REFERENCES url (id),
  detail     TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (from_id, evidence)
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
) STRICT;

CREATE TABLE form (
  text   TEXT    PRIMARY KEY,
  url_id INTEGER NOT NULL REFERENCES url (id),
  rung   TEXT    NOT NULL CHECK (rung IN ('string', 'syntax'))
) STRICT, WITHOUT ROWID;

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

CREATE TABLE redirect (
  fetch_id INTEGER NOT NULL REFERENCES fetch (id),
  hop      INTEGER NOT NULL,
  from_url TEXT    NOT NULL,
  to_url   TEXT,
  status   INTEGER NOT NULL,
  PRIMARY KEY (fetch_id, hop)
) STRICT, WITHOUT ROWID;

CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  sha256     TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT;

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

CREATE INDEX fetch_url ON fetch (url_id);

CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';
