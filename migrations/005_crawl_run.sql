-- Each crawl run's settings and end (DESIGN.md §5, §7): the crawler records what it
-- was asked to do when it starts, and how it ended when it ends, so that `explain`
-- states the reason a URL was skipped or refused instead of listing guesses, and
-- `stats` and the report read the run's own counts (requests sent, fetches saved).
-- `ended_at`, `stopped_by` and `counts` stay NULL for a run that was killed.
-- (Numbered 005: 004 is kept for another change; renumber if it never lands.)

CREATE TABLE crawl_run (
  id         INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  -- JSON array of the seeds, at the scheme rung.
  seeds      TEXT    NOT NULL,
  -- JSON object: scope, include, exclude, maxDepth, maxPages, follow, allowPrivate, baseMode, robots, …
  settings   TEXT    NOT NULL,
  ended_at   INTEGER,
  -- Why it ended: frontier-empty, max-pages, signal, fatal, no-seed.
  stopped_by TEXT,
  -- One line on how it ended (the reason of a non-zero exit).
  outcome    TEXT,
  -- JSON object: the run's counts (requests by kind, fetches saved, …).
  counts     TEXT
) STRICT;
