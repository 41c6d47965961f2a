-- Claims choose hosts, not URLs. A claim read the 64 shallowest queued URLs of the whole
-- crawl, counted and locked every open host among them (a written row lock each, which
-- kept those hosts from the other workers' claims) and ranked the URLs, to take one
-- most often; a first claim on new hosts made their rows and claimed again. It now
-- reads hosts in order from crawl_host, stops at the first `limit` open ones, and takes
-- each one's first queued URLs (pg-frontier.ts).
--
-- queued_depth: the depth of the host's shallowest queued URL (the first by (depth,
-- id)), NULL when it has none. Lowered by the trigger that copies url into frontier, in
-- the transaction that queues the URL (it writes the host's row only when the URL comes
-- before the host's others: a URL queued anew has the highest id yet, so once a host
-- and depth, not once a URL), and set again by the claim that takes the host's URLs.
-- A claim sees only what was committed when it began: a URL queued meanwhile, after
-- the host's first, may be missed by the claim that sets queued_depth again (to NULL,
-- or deeper). Each worker looks for such hosts about once a second (pg-frontier.ts,
-- tidy): the hosts emptied lately (emptied_at, on the database's clock) and the hosts
-- of the crawl's shallowest queued URLs.
--
-- queued_id: the id of that URL. Hosts are taken in the order of (queued_depth,
-- queued_id): every host's first URL before any host's second, each in the order of
-- its id, as the other stores deal turns (claim-turns.ts).
--
-- site: the site of the host's URLs, for the start of its last request (a host has one
-- site).

ALTER TABLE crawl_host ADD COLUMN queued_depth integer;
ALTER TABLE crawl_host ADD COLUMN queued_id bigint;
ALTER TABLE crawl_host ADD COLUMN site integer;
ALTER TABLE crawl_host ADD COLUMN emptied_at bigint;

CREATE INDEX crawl_host_queued ON crawl_host (queued_depth, queued_id) WHERE queued_depth IS NOT NULL;
CREATE INDEX crawl_host_emptied ON crawl_host (emptied_at) WHERE queued_depth IS NULL;

-- frontier names a URL without a host by '' (crawl_host's name for it): one index
-- condition finds a host's rows, whatever the host.
UPDATE frontier SET host = '' WHERE host IS NULL;

-- A host's queued URLs, shallowest first: the claim's take from one host.
CREATE INDEX frontier_host_queued ON frontier (host, depth, id) WHERE state = 'queued';

CREATE OR REPLACE FUNCTION frontier_copy() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  known_depth integer;
  known_id bigint;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.state IN ('queued', 'fetching') AND (TG_OP = 'DELETE' OR NEW.state NOT IN ('queued', 'fetching')) THEN
    DELETE FROM frontier WHERE site = OLD.site AND id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.state IN ('queued', 'fetching') THEN
    INSERT INTO frontier (site, id, host, depth, state, claimed_by, lease_until)
    VALUES (NEW.site, NEW.id, coalesce(NEW.host, ''), NEW.depth, NEW.state, NEW.claimed_by, NEW.lease_until)
    ON CONFLICT (site, id) DO UPDATE SET host = EXCLUDED.host, depth = EXCLUDED.depth, state = EXCLUDED.state,
      claimed_by = EXCLUDED.claimed_by, lease_until = EXCLUDED.lease_until;
    IF NEW.state = 'queued' THEN
      -- Read first, written only when lower: a write a URL would make every page
      -- transaction that queues on a host wait on the others' (and claims skip the host).
      SELECT queued_depth, queued_id INTO known_depth, known_id FROM crawl_host WHERE host = coalesce(NEW.host, '');
      IF NOT FOUND THEN
        INSERT INTO crawl_host (host, queued_depth, queued_id, site) VALUES (coalesce(NEW.host, ''), NEW.depth, NEW.id, NEW.site)
        ON CONFLICT (host) DO UPDATE SET queued_depth = EXCLUDED.queued_depth, queued_id = EXCLUDED.queued_id
        WHERE crawl_host.queued_depth IS NULL OR (EXCLUDED.queued_depth, EXCLUDED.queued_id) < (crawl_host.queued_depth, crawl_host.queued_id);
      ELSIF known_depth IS NULL OR (NEW.depth, NEW.id) < (known_depth, known_id) THEN
        -- Re-read on the latest version once a claim holding the row commits (READ COMMITTED).
        UPDATE crawl_host SET queued_depth = NEW.depth, queued_id = NEW.id, site = NEW.site
        WHERE host = coalesce(NEW.host, '') AND (queued_depth IS NULL OR (NEW.depth, NEW.id) < (queued_depth, queued_id));
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- The hosts of an index made before: their site, and their first queued URL.
INSERT INTO crawl_host (host, site)
SELECT host, min(site) FROM frontier GROUP BY 1
ON CONFLICT (host) DO UPDATE SET site = EXCLUDED.site;
UPDATE crawl_host AS x SET queued_depth = q.depth, queued_id = q.id
FROM (SELECT DISTINCT ON (host) host, depth, id FROM frontier WHERE state = 'queued' ORDER BY host, depth, id) AS q
WHERE x.host = q.host;
