-- A page's links in a third less space (issue 9): `page_link.format` says how the
-- arrays of a row's `links` are laid out (src/store/link-codec.ts).
--
-- 1: the layout of migrations 002 and 008, which rows written before this one keep:
--    [to_url, raw_href, fragment, element, attribute, base_level, rung, ladder_rung,
--     error, findings, alternate_target, met_url, line, column].
-- 2: the fields most links have first, the rare ones last, so that their trailing
--    nulls are left out:
--    [to_url, raw_href, element, attribute, base_level, rung, line, column, fragment,
--     ladder_rung, error, findings, alternate_target, met_url].
--
-- The `link` view reads both; its columns are unchanged.

ALTER TABLE page_link ADD COLUMN format INTEGER NOT NULL DEFAULT 1 CHECK (format IN (1, 2));

DROP VIEW link;

CREATE VIEW link AS
SELECT p.from_url                                                                  AS from_url,
       p.first_position + j.key                                                    AS position,
       j.value ->> 0                                                               AS to_url,
       j.value ->> 1                                                               AS raw_href,
       iif(p.format = 1, j.value ->> 2, j.value ->> 8)                             AS fragment,
       iif(p.format = 1, j.value ->> 3, j.value ->> 2)                             AS element,
       iif(p.format = 1, j.value ->> 4, j.value ->> 3)                             AS attribute,
       iif(p.format = 1, j.value ->> 5, j.value ->> 4)                             AS base_level,
       iif(p.format = 1, j.value ->> 6, j.value ->> 5)                             AS rung,
       iif(p.format = 1, coalesce(j.value ->> 7, j.value ->> 6),
                         coalesce(j.value ->> 9, j.value ->> 5))                   AS ladder_rung,
       iif(p.format = 1, j.value ->> 8, j.value ->> 10)                            AS error,
       iif(p.format = 1, j.value -> 9, j.value -> 11)                              AS findings,
       iif(p.format = 1, j.value ->> 10, j.value ->> 12)                           AS alternate_target,
       coalesce(iif(p.format = 1, j.value ->> 11, j.value ->> 13), j.value ->> 0)  AS met_url,
       iif(p.format = 1, j.value ->> 12, j.value ->> 6)                            AS line,
       iif(p.format = 1, j.value ->> 13, j.value ->> 7)                            AS column
FROM page_link AS p, json_each(p.links) AS j;
