-- Throughput and history (issues 3, 4 and 5).
--
-- 1. Keys are looked up through an in-memory hash table that the store builds from
--    `url` and `form` when it opens (src/store/key-table.ts). A B-tree on the key
--    text took one random page write per new URL, the dominant cost of admitting
--    (measured, see the closing note of issue 3), so `url.key` loses its UNIQUE
--    index and `form` becomes a plain rowid table. Uniqueness is the store's job:
--    one writer at a time, checked with PRAGMA data_version at each transaction.
-- 2. A page's links are one row per admitted batch (`page_link.links`, a JSON
--    array), and the `link` view gives one row per link as before.
-- 3. Each URL remembers the link that first named it; each fetch its attempts,
--    the page's findings and the anchors its fragments may point to.
-- 4. robots.txt answers are kept per origin, so a resumed crawl does not ask again.
--
-- Rebuilt tables follow SQLite's 12-step procedure; the runner turns foreign keys
-- off while a migration runs and checks them before it commits.

CREATE TABLE url_new (
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
) STRICT;

INSERT INTO url_new (id, key, scheme, host, state, depth, alias_of, first_seen, first_from, first_href)
WITH first_link AS (
  SELECT to_url, from_url, raw_href
  FROM (SELECT to_url, from_url, raw_href, row_number() OVER (PARTITION BY to_url ORDER BY from_url, position) AS n
        FROM link WHERE to_url IS NOT NULL)
  WHERE n = 1
)
SELECT u.id, u.key, u.scheme, u.host, u.state, u.depth, u.alias_of, u.first_seen, f.from_url, f.raw_href
FROM url AS u
LEFT JOIN first_link AS f ON f.to_url = u.id;

DROP TABLE url;
ALTER TABLE url_new RENAME TO url;
CREATE INDEX url_frontier ON url (depth, id) WHERE state = 'queued';

CREATE TABLE form_new (
  id     INTEGER PRIMARY KEY,
  text   TEXT    NOT NULL,
  url_id INTEGER NOT NULL REFERENCES url (id),
  rung   TEXT    NOT NULL CHECK (rung IN ('string', 'syntax'))
) STRICT;

INSERT INTO form_new (text, url_id, rung) SELECT text, url_id, rung FROM form;
DROP TABLE form;
ALTER TABLE form_new RENAME TO form;

-- One row per page and admitted batch: `links` is a JSON array with one array per
-- link, [to_url, raw_href, fragment, element, attribute, base_level, rung,
-- ladder_rung, error, findings, alternate_target, met_url], trailing nulls left
-- out. `ladder_rung` and `met_url` (the URL the target met before aliases were
-- followed) are set only where they differ from `rung` and `to_url`: a `protocol` link.
CREATE TABLE page_link (
  from_url       INTEGER NOT NULL REFERENCES url (id),
  first_position INTEGER NOT NULL,
  count          INTEGER NOT NULL CHECK (count > 0),
  links          TEXT    NOT NULL,
  PRIMARY KEY (from_url, first_position)
) STRICT;

INSERT INTO page_link (from_url, first_position, count, links)
SELECT from_url, min(position), count(*),
       json_group_array(json_array(to_url, raw_href, fragment, element, attribute, base_level, rung, NULL, error))
FROM (SELECT * FROM link ORDER BY from_url, position)
GROUP BY from_url;

DROP TABLE link;

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

-- Links counted by rung as they are written, so that statistics need not read
-- every link. `rung` and `ladder_rung` are 'none' for a link without a target.
CREATE TABLE link_tally (
  rung        TEXT    NOT NULL,
  ladder_rung TEXT    NOT NULL,
  links       INTEGER NOT NULL,
  PRIMARY KEY (rung, ladder_rung)
) STRICT, WITHOUT ROWID;

INSERT INTO link_tally (rung, ladder_rung, links)
SELECT coalesce(rung, 'none'), coalesce(ladder_rung, 'none'), count(*) FROM link GROUP BY 1, 2;

ALTER TABLE fetch ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
-- JSON arrays of codes (`HTML_*`, `BASE_*`) and of the page's ids and anchor names.
ALTER TABLE fetch ADD COLUMN findings TEXT;
ALTER TABLE fetch ADD COLUMN anchors TEXT;

CREATE TABLE robots (
  origin     TEXT    PRIMARY KEY,
  fetched_at INTEGER NOT NULL,
  entry      TEXT    NOT NULL
) STRICT;
