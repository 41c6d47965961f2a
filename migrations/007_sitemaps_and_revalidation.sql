-- Sitemaps and re-checks (issue 11, items 3 and 4).
--
-- 1. `sitemap`: each sitemap file a crawl read — `/sitemap.xml` of a seed's origin,
--    a robots.txt `Sitemap:` line, or an entry of a sitemap index — with what its
--    fetch gave and what was wrong with it (the SITEMAP_* findings of its XML, as a
--    JSON array of {code, line, column, detail}). `sitemap_entry`: each `<loc>` it
--    listed, as written, with its `<lastmod>` and the URL of the index it was
--    admitted as (NULL when it named no URL the crawl can key).
-- 2. Validators of each fetch (RFC 9110 §8.8): `etag` and `last_modified` as the
--    response sent them, for the conditional requests of a re-check (an ETag is
--    never an identity key: it is only sent back to the URL that gave it).
--    `not_modified` = 1 marks a row whose request was answered 304 Not Modified
--    (RFC 9110 §15.4.5): the row then carries the status, type, findings and
--    anchors of the representation it revalidated, and the page's links stay as
--    they were recorded.
-- 3. `run_finding`: the identities of the audit's findings as each run left the
--    index (code, page key, target key, href as written), so that `audit --since RUN`
--    can say what is new and what was fixed since then.

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

CREATE INDEX sitemap_entry_url ON sitemap_entry (url_id);

ALTER TABLE fetch ADD COLUMN etag TEXT;
ALTER TABLE fetch ADD COLUMN last_modified TEXT;
ALTER TABLE fetch ADD COLUMN not_modified INTEGER NOT NULL DEFAULT 0 CHECK (not_modified IN (0, 1));

CREATE TABLE run_finding (
  run_id  INTEGER NOT NULL REFERENCES crawl_run (id),
  code    TEXT    NOT NULL,
  page    TEXT    NOT NULL,
  target  TEXT    NOT NULL,
  href    TEXT    NOT NULL,
  PRIMARY KEY (run_id, code, page, target, href)
) STRICT, WITHOUT ROWID;
