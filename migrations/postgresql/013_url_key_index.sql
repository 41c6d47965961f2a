-- A URL's key is unique within its site as before, in an index that leads with the key.
-- Led by `site`, it served a lookup by (site, id) as well as the primary key did by the
-- planner's estimate on a table still empty (when a connection's generic plans are made),
-- and was chosen for it: the lookup then read every URL of the site, filtering on id.
-- Led by `key`, a condition on `site` alone cannot use it; (site, key) lookups and the
-- admissions' unique violations are unchanged. It holds `site`, as a unique index of a
-- table partitioned by site must.

ALTER TABLE url DROP CONSTRAINT url_site_key_key;
CREATE UNIQUE INDEX url_key_site ON url (key, site);
