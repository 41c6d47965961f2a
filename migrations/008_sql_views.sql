-- Views for people who query the index with SQL (README "Querying the index"):
-- `page`, `broken_link` and `external_link`, with ids named *_id and URLs as text;
-- and the `link` view again, now with where each href is written in its page.
--
-- `page_link.links` arrays gain two trailing items, the 1-based `line` and `column`
-- (UTF-16 code units) of the href's value in the page's source. Rows written before
-- have neither: their position is unknown (NULL).

DROP VIEW link;

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
       coalesce(j.value ->> 11, j.value ->> 0)       AS met_url,
       j.value ->> 12                                AS line,
       j.value ->> 13                                AS column
FROM page_link AS p, json_each(p.links) AS j;

-- Every URL the crawl fetched, with its last fetch (the status of the response the
-- request ended at, after any redirects it followed) and its role: `page` (crawled),
-- `resource` (used by a page, checked) or `external` (out of scope, checked).
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

-- Every link whose target's last fetch failed: an HTTP status of 400 or more, or no
-- usable response (ERR_FETCH_*: refused, timed out, a redirect loop …). A refusal of
-- the crawl's own (robots.txt, a private address: ERR_CRAWL_*) proves nothing and is
-- not listed. The audit's LINK_BROKEN also follows aliases learned after a link was
-- written; this view reads the target each link row names.
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

-- Every link whose target is out of the crawl's scope (an http(s) URL of the
-- `external` role, migration 006). `status` and `error_code` are the target's last
-- fetch, NULL when it was not checked (--no-check-external, robots.txt).
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
