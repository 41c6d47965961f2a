-- Content evidence (issue 13, DESIGN.md §9), beyond RFC 3986.
--
-- 1. `fetch.digest`: the SHA-256 (base64url) of a 2xx body the crawl read, so that
--    URLs the ladder did not join whose bodies are byte-identical can be reported
--    (DUPLICATE_REPRESENTATION). NULL where no body was read, and in older rows.
-- 2. Two kinds of alias evidence, both heuristic and written only with
--    `--content-evidence`: `digest` (the page's body equals that of a page already
--    fetched) and `rule` (a learned rewrite rule predicted the URL a duplicate of a
--    fetched page, and the page's declared alternates did not name it). SQLite cannot
--    change a CHECK constraint, so the table is rebuilt with its rows.

ALTER TABLE fetch ADD COLUMN digest TEXT;

CREATE INDEX fetch_digest ON fetch (digest) WHERE digest IS NOT NULL;

CREATE TABLE alias_new (
  from_id    INTEGER NOT NULL REFERENCES url (id),
  evidence   TEXT    NOT NULL CHECK (evidence IN ('redirect', 'content-location', 'canonical', 'digest', 'rule')),
  to_id      INTEGER NOT NULL REFERENCES url (id),
  detail     TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (from_id, evidence)
) STRICT;

INSERT INTO alias_new (rowid, from_id, evidence, to_id, detail, created_at)
SELECT rowid, from_id, evidence, to_id, detail, created_at FROM alias;

DROP TABLE alias;

ALTER TABLE alias_new RENAME TO alias;
