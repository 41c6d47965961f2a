-- A request's start on the database server's clock, beside started_at (the worker's own
-- clock, the stamp users are shown): politeness across workers compares the starts of
-- different workers' requests, which one clock must measure. Written by the worker that
-- recorded the fetch: the statement's time less the time its own clock says passed
-- since the start (a difference of one clock's readings, whatever that clock's skew).

ALTER TABLE "fetch" ADD COLUMN started_db bigint;
