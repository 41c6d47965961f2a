-- The reads of url, form and page_link by one site that a page makes on a partitioned
-- index, as functions that db migrate --partitions makes again with a branch for each
-- partition, naming it (pg-partitions.ts), as claim_url (migration 014). A statement
-- that names a partitioned table is planned with every partition (some 15 ms at 64
-- partitions, once a connection for each shape of the admission's statement) and locks
-- each partition and its indexes at every execution (322 relation locks for one read of
-- url at 64 partitions); a branch names one partition. A call costs some 30 µs more than
-- the read in it, so they are used only on a partitioned index.

-- A page's admission, written on what its worker remembers: whether a key it took to be
-- new is in url, a spelling in form, whether a URL it remembers became an alias. One
-- call a site, with that site's texts or URLs: a call costs many probes.
CREATE FUNCTION url_keys_taken(p_site integer, p_keys text[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM unnest(p_keys) AS x (key) CROSS JOIN LATERAL (SELECT 1 FROM url AS u WHERE u.site = p_site AND u.key = x.key LIMIT 1) AS y);
END
$$;

CREATE FUNCTION form_texts_taken(p_site integer, p_texts text[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM unnest(p_texts) AS x (text) CROSS JOIN LATERAL (SELECT 1 FROM form AS fo WHERE fo.site = p_site AND fo.text = x.text LIMIT 1) AS y);
END
$$;

CREATE FUNCTION urls_became_alias(p_site integer, p_ids bigint[]) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM unnest(p_ids) AS x (id)
    CROSS JOIN LATERAL (SELECT 1 FROM url AS u WHERE u.site = p_site AND u.id = x.id AND u.state = 'alias' AND u.alias_of IS NOT NULL LIMIT 1) AS y);
END
$$;

-- Where a page's next links go in page_link: after those it has.
CREATE FUNCTION page_link_end(p_site integer, p_from bigint) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN coalesce((SELECT max(p.first_position + p.count) FROM page_link AS p WHERE p.site = p_site AND p.from_url = p_from), 0);
END
$$;

-- The claim a page's unit holds: its URL's row locked until the unit commits, and what
-- says whether it is still this worker's.
CREATE FUNCTION url_held(p_site integer, p_id bigint, p_now bigint)
RETURNS TABLE (held_state text, held_by text, is_live boolean)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT u.state, u.claimed_by, u.lease_until >= p_now FROM url AS u WHERE u.site = p_site AND u.id = p_id FOR UPDATE;
END
$$;
