-- The frontier's own table: a copy of the rows of url a claim chooses from (queued, and
-- fetching with their leases), unpartitioned. On an index partitioned by site (db migrate
-- --partitions N) the claim's reads by depth, by host and by lease over url ran in every
-- partition (its indexes are partitioned by site: an ORDER BY … LIMIT merged N index
-- scans, each claim); here they read one index, and the claim touches url only in the
-- sites of the rows it takes. Kept by triggers on url, in the transaction that changes
-- the row, so the copy is what url says at every snapshot, however the row was written.

CREATE TABLE frontier (
  site        integer NOT NULL,
  id          bigint  NOT NULL,
  host        text,
  depth       integer NOT NULL,
  state       text    NOT NULL,
  claimed_by  text,
  lease_until bigint,
  PRIMARY KEY (site, id)
);

CREATE INDEX frontier_queued ON frontier (depth, id) WHERE state = 'queued';
CREATE INDEX frontier_claims ON frontier (host, lease_until) WHERE state = 'fetching';
CREATE INDEX frontier_leases ON frontier (lease_until) WHERE state = 'fetching';

-- url's own indexes for the claim are read by nothing now: each was another partitioned
-- index for every url write to keep (and every plan over url to consider).
DROP INDEX url_frontier;
DROP INDEX url_claims;
DROP INDEX url_leases;

CREATE FUNCTION frontier_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.state IN ('queued', 'fetching') AND (TG_OP = 'DELETE' OR NEW.state NOT IN ('queued', 'fetching')) THEN
    DELETE FROM frontier WHERE site = OLD.site AND id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.state IN ('queued', 'fetching') THEN
    INSERT INTO frontier (site, id, host, depth, state, claimed_by, lease_until)
    VALUES (NEW.site, NEW.id, NEW.host, NEW.depth, NEW.state, NEW.claimed_by, NEW.lease_until)
    ON CONFLICT (site, id) DO UPDATE SET host = EXCLUDED.host, depth = EXCLUDED.depth, state = EXCLUDED.state,
      claimed_by = EXCLUDED.claimed_by, lease_until = EXCLUDED.lease_until;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER frontier_insert AFTER INSERT ON url
  FOR EACH ROW WHEN (NEW.state IN ('queued', 'fetching')) EXECUTE FUNCTION frontier_copy();
CREATE TRIGGER frontier_update AFTER UPDATE OF state, claimed_by, lease_until, depth, host ON url
  FOR EACH ROW WHEN (OLD.state IN ('queued', 'fetching') OR NEW.state IN ('queued', 'fetching')) EXECUTE FUNCTION frontier_copy();
CREATE TRIGGER frontier_delete AFTER DELETE ON url
  FOR EACH ROW WHEN (OLD.state IN ('queued', 'fetching')) EXECUTE FUNCTION frontier_copy();

CREATE FUNCTION frontier_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- DELETE, not TRUNCATE: a TRUNCATE of url and frontier together has frontier in use here.
  DELETE FROM frontier;
  RETURN NULL;
END
$$;

CREATE TRIGGER frontier_truncate AFTER TRUNCATE ON url
  FOR EACH STATEMENT EXECUTE FUNCTION frontier_clear();

-- The rows of an index made before this table.
INSERT INTO frontier (site, id, host, depth, state, claimed_by, lease_until)
SELECT site, id, host, depth, state, claimed_by, lease_until FROM url WHERE state IN ('queued', 'fetching');
