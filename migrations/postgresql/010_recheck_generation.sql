-- Re-checks as generations of the index, shared by every worker: a worker started
-- with `--recheck` while one is in progress joins it and queues nothing; only one
-- that finds none in progress begins one (queues every URL fetched, once). A re-check
-- is in progress while its row is not settled and URLs are left to fetch (queued or
-- fetching), so workers started apart never request a URL twice in one re-check,
-- and a killed re-check is resumed, not begun again. The row is locked while a
-- worker decides (one begins, the others wait and join).
--
-- `generation`: 1, 2, … in the order begun. `started_at`: when (Unix ms). `run_id`:
-- the run that began it. `queued`: the URLs it queued. `settled_at`: when a run found
-- it finished (nothing left to fetch); NULL while it is the one in progress.

CREATE TABLE recheck_generation (
  generation integer PRIMARY KEY,
  started_at bigint  NOT NULL,
  run_id     bigint,
  queued     bigint  NOT NULL,
  settled_at bigint
);
