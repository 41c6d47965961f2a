-- A page's links in a third less space, as the SQLite index's migration 010:
-- `page_link.format` says how the arrays of a row's `links` are laid out
-- (src/store/link-codec.ts). 1: the layout of migration 001, which rows written
-- before this one keep. 2: the fields most links have first, the rare ones last
-- (their trailing nulls left out): [to_url, raw_href, element, attribute, base_level,
-- rung, line, column, fragment, ladder_rung, error, findings, alternate_target,
-- met_url]. The `link` view reads both; its columns are unchanged, so the views
-- built on it stay.

ALTER TABLE page_link ADD COLUMN format integer NOT NULL DEFAULT 1 CHECK (format IN (1, 2));

CREATE OR REPLACE VIEW link AS
SELECT p.from_url                                                                   AS from_url,
       p.first_position + (j.n - 1)::integer                                        AS position,
       (j.v ->> 0)::bigint                                                          AS to_url,
       j.v ->> 1                                                                    AS raw_href,
       CASE p.format WHEN 1 THEN j.v ->> 2 ELSE j.v ->> 8 END                       AS fragment,
       CASE p.format WHEN 1 THEN j.v ->> 3 ELSE j.v ->> 2 END                       AS element,
       CASE p.format WHEN 1 THEN j.v ->> 4 ELSE j.v ->> 3 END                       AS attribute,
       CASE p.format WHEN 1 THEN j.v ->> 5 ELSE j.v ->> 4 END                       AS base_level,
       CASE p.format WHEN 1 THEN j.v ->> 6 ELSE j.v ->> 5 END                       AS rung,
       CASE p.format WHEN 1 THEN coalesce(j.v ->> 7, j.v ->> 6)
                     ELSE coalesce(j.v ->> 9, j.v ->> 5) END                        AS ladder_rung,
       CASE p.format WHEN 1 THEN j.v ->> 8 ELSE j.v ->> 10 END                      AS error,
       CASE p.format WHEN 1 THEN j.v -> 9 ELSE j.v -> 11 END                        AS findings,
       CASE p.format WHEN 1 THEN j.v ->> 10 ELSE j.v ->> 12 END                     AS alternate_target,
       coalesce(CASE p.format WHEN 1 THEN j.v ->> 11 ELSE j.v ->> 13 END,
                j.v ->> 0)::bigint                                                  AS met_url,
       (CASE p.format WHEN 1 THEN j.v ->> 12 ELSE j.v ->> 6 END)::integer           AS line,
       (CASE p.format WHEN 1 THEN j.v ->> 13 ELSE j.v ->> 7 END)::integer           AS "column"
FROM page_link AS p, jsonb_array_elements(p.links::jsonb) WITH ORDINALITY AS j (v, n);
