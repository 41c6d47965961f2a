-- The sitemap frontier: each sitemap a crawl means to read, and whether it was read.
-- Sitemap reading is part of the frontier as pages are: a crawl stopped, killed, or
-- refused by a robots.txt outage reads on its next run exactly the sitemaps not read
-- yet, and a sitemap read is never read again by a resume.
--
-- `key`: the sitemap URL at the scheme rung without fragment (as url.key), once.
-- `origin`: the seed origin whose sitemaps it belongs to; the row keyed as that
-- origin's /sitemap.xml says its robots.txt Sitemap: lines were queued too.
-- `state`: 'queued', 'read' (fetched and its entries admitted, or its children
-- queued), 'failed' (an answer that was no sitemap, a failed fetch, a refusal).
-- `lease_until`: when a worker's hold on a queued row ends (PostgreSQL's workers;
-- one writer holds the SQLite index).

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

CREATE INDEX sitemap_queue_origin ON sitemap_queue (origin, id);
