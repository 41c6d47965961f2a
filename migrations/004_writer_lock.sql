-- One writer per index (DESIGN.md §5): the process that writes the index holds
-- this one row while it has the index open, taken in an IMMEDIATE transaction.
-- Another writer is refused with the holder's pid, host and since when; a row left
-- by a process that is gone (same host, pid not running, or running a newer
-- process under the same pid) is taken over. Readers open the index read-only
-- and never look at it.

CREATE TABLE writer_lock (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  token         TEXT    NOT NULL,
  pid           INTEGER NOT NULL,
  host          TEXT    NOT NULL,
  process_start TEXT,
  acquired_at   INTEGER NOT NULL
) STRICT;
