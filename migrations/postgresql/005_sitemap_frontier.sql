-- The sitemap frontier, as the SQLite index's migration 011: each sitemap a crawl
-- means to read, and whether it was read ('queued', 'read', 'failed'), so that a
-- rerun reads exactly the sitemaps not read yet. A worker holds a queued row while
-- it reads it (`lease_until`); a dead worker's hold runs out.

CREATE TABLE sitemap_queue (
  id          bigserial PRIMARY KEY,
  key         text   COLLATE "C" NOT NULL UNIQUE,
  origin      text   NOT NULL,
  url         text   NOT NULL,
  source      text   NOT NULL CHECK (source IN ('origin', 'robots', 'index')),
  parent_id   bigint,
  state       text   NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'read', 'failed')),
  lease_until bigint
);

CREATE INDEX sitemap_queue_origin ON sitemap_queue (origin, id);
