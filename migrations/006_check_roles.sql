-- Link checking (issue 11, items 1 and 2): how each URL relates to the crawl, and
-- which HTTP method each fetch used.
--
-- url.role — what the crawl does with the URL:
--   'page'     in scope, named by a followed link (a, area, frame, refresh, a seed):
--              fetched with GET and read for links;
--   'resource' in scope, used by a page (img, srcset, script, stylesheet, icon, media,
--              embed, CSS url()/@import): fetched once with GET, never read for links,
--              except a stylesheet (text/css), read for url() and @import;
--   'external' out of the crawl's scope: checked once (HEAD, GET where HEAD is
--              refused), never read, its redirect hops not admitted.
-- A URL only recorded (state 'skipped') keeps the role it would have. A queued URL
-- named later by a link of a higher role is raised (external < resource < page)
-- until it is claimed. NULL in rows written before this migration: read as 'page'.
--
-- fetch.method — 'GET' or 'HEAD' (the request that gave the recorded answer: a HEAD
-- refused and tried again with GET records 'GET'). NULL for a URL recorded without a
-- request (robots.txt, the private-address guard) and in rows written before this migration.

ALTER TABLE url ADD COLUMN role TEXT CHECK (role IN ('page', 'resource', 'external'));

ALTER TABLE fetch ADD COLUMN method TEXT CHECK (method IN ('GET', 'HEAD'));
