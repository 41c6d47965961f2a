-- Keys and spellings compare by bytes (COLLATE "C"), whatever the database's own
-- collation: they are only looked up by equality or listed in byte order (as the
-- readers' ORDER BY … COLLATE "C"), and under a linguistic collation (en_US.UTF-8 …)
-- every probe of their indexes would compare with strcoll. Changing the collation
-- rebuilds the indexes on these columns; the views that read them are dropped
-- first and made again as migration 001 made them.

DROP VIEW external_link;
DROP VIEW broken_link;
DROP VIEW page;
DROP VIEW link;

ALTER TABLE url ALTER COLUMN key TYPE text COLLATE "C";

ALTER TABLE form ALTER COLUMN text TYPE text COLLATE "C";

-- One row per link, as the SQLite index's `link` view (migration 008).
CREATE VIEW link AS
SELECT p.from_url                                          AS from_url,
       p.first_position + (j.n - 1)::integer               AS position,
       (j.v ->> 0)::bigint                                 AS to_url,
       j.v ->> 1                                           AS raw_href,
       j.v ->> 2                                           AS fragment,
       j.v ->> 3                                           AS element,
       j.v ->> 4                                           AS attribute,
       j.v ->> 5                                           AS base_level,
       j.v ->> 6                                           AS rung,
       coalesce(j.v ->> 7, j.v ->> 6)                      AS ladder_rung,
       j.v ->> 8                                           AS error,
       j.v -> 9                                            AS findings,
       j.v ->> 10                                          AS alternate_target,
       coalesce(j.v ->> 11, j.v ->> 0)::bigint             AS met_url,
       (j.v ->> 12)::integer                               AS line,
       (j.v ->> 13)::integer                               AS "column"
FROM page_link AS p, jsonb_array_elements(p.links::jsonb) WITH ORDINALITY AS j (v, n);

CREATE VIEW page AS
SELECT u.id                     AS url_id,
       u.key                    AS url,
       u.host                   AS host,
       coalesce(u.role, 'page') AS role,
       u.state                  AS state,
       u.depth                  AS depth,
       f.id                     AS fetch_id,
       f.started_at             AS fetched_at,
       f.status                 AS status,
       f.content_type           AS content_type,
       f.bytes                  AS bytes,
       f.duration_ms            AS duration_ms,
       f.error_code             AS error_code,
       f.final_url              AS final_url,
       (SELECT count(*) FROM redirect AS r WHERE r.fetch_id = f.id) AS redirects
FROM url AS u
JOIN "fetch" AS f ON f.id = (SELECT max(l.id) FROM "fetch" AS l WHERE l.url_id = u.id);

CREATE VIEW broken_link AS
SELECT l.from_url   AS from_url_id,
       src.key      AS from_url,
       l.position   AS position,
       l.raw_href   AS raw_href,
       l.line       AS line,
       l."column"   AS "column",
       l.element    AS element,
       l.attribute  AS attribute,
       t.url_id     AS to_url_id,
       t.url        AS to_url,
       l.fragment   AS fragment,
       t.status     AS status,
       t.error_code AS error_code,
       t.fetch_id   AS fetch_id
FROM link AS l
JOIN page AS t ON t.url_id = l.to_url
JOIN url AS src ON src.id = l.from_url
WHERE t.status >= 400
   OR (t.error_code LIKE 'ERR_FETCH_%' AND (t.status IS NULL OR t.status BETWEEN 300 AND 399));

CREATE VIEW external_link AS
SELECT l.from_url  AS from_url_id,
       src.key     AS from_url,
       l.position  AS position,
       l.raw_href  AS raw_href,
       l.line      AS line,
       l."column"  AS "column",
       l.element   AS element,
       l.attribute AS attribute,
       t.id        AS to_url_id,
       t.key       AS to_url,
       t.host      AS host,
       t.state     AS state,
       f.status    AS status,
       f.error_code AS error_code
FROM link AS l
JOIN url AS t ON t.id = l.to_url
JOIN url AS src ON src.id = l.from_url
LEFT JOIN page AS f ON f.url_id = t.id
WHERE t.role = 'external';
