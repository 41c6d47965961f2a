-- The verdict on each fetch as a link's target, as the SQLite index's migration 012:
-- 'ok', 'broken' or 'unverified', judged by the crawl when it records the row; NULL
-- in rows written before it (readers derive those with the default status policy).

ALTER TABLE "fetch" ADD COLUMN verdict text CHECK (verdict IN ('ok', 'broken', 'unverified'));
