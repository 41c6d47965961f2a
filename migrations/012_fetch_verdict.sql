-- The verdict on each fetch as a link's target, judged by the crawl when it records
-- the row (src/crawl/verdict.ts): 'ok', 'broken' (not there, or leads nowhere) or
-- 'unverified' (a timeout, 5xx, 429, a bot wall, a refusal: proves neither). NULL in
-- rows written before it: readers derive those with the default status policy.

ALTER TABLE fetch ADD COLUMN verdict TEXT CHECK (verdict IN ('ok', 'broken', 'unverified'));
