-- Re-checks as generations of the index: each `--recheck` that finds none in
-- progress starts one (queues every URL fetched, once), and a crawl started with
-- `--recheck` while one is in progress joins it and queues nothing. A re-check is in
-- progress while its row is not settled and URLs are left to fetch (queued or
-- fetching): a killed re-check is resumed, not begun again.
--
-- `generation`: 1, 2, … in the order begun. `started_at`: when (Unix ms). `run_id`:
-- the run that began it. `queued`: the URLs it queued. `settled_at`: when a run found
-- it finished (nothing left to fetch); NULL while it is the one in progress.

CREATE TABLE recheck_generation (
  generation INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  run_id     INTEGER REFERENCES crawl_run (id),
  queued     INTEGER NOT NULL,
  settled_at INTEGER
) STRICT;
