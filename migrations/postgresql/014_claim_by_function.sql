-- On an index partitioned by site (db migrate --partitions N) a claim takes the URLs it
-- chose in the frontier (unpartitioned) and marks each in url through this function, one
-- URL at a time by (site, id), rather than by a join of url with the rows chosen: the
-- join's plan, made once, holds a scan of every partition of url, and PostgreSQL set up
-- each of them at every claim; the function's statements name one site as a parameter,
-- so only its partition is set up. (Unpartitioned, the join costs less than a call a
-- URL.) It takes the URL only when it is still claimable and its row is not locked (a
-- unit of another worker settling it): SKIP LOCKED, as before. db migrate --partitions
-- makes it again with a branch for each partition, naming it (pg-partitions.ts).
CREATE FUNCTION claim_url(p_site integer, p_id bigint, p_worker text, p_lease_until bigint, p_now bigint)
RETURNS TABLE (id bigint, key text, depth integer, host text, role text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM 1 FROM url AS u
  WHERE u.site = p_site AND u.id = p_id
    AND (u.state = 'queued' OR (u.state = 'fetching' AND (u.lease_until IS NULL OR u.lease_until < p_now)))
  FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  RETURN QUERY
    UPDATE url AS u SET state = 'fetching', claimed_by = p_worker, lease_until = p_lease_until
    WHERE u.site = p_site AND u.id = p_id
    RETURNING u.id, u.key, u.depth, u.host, u.role;
END
$$;

-- The start of the last request to a site, for a host's delay between starts: read by
-- (site) in one partition of fetch, as claim_url reads url.
CREATE FUNCTION last_fetch_start(p_site integer) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(f.started_db, f.started_at) FROM "fetch" AS f WHERE f.site = p_site ORDER BY f.id DESC LIMIT 1);
END
$$;
