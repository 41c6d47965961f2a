-- Claims by lease alone: the claim looks for the claims whose lease ran out (a dead
-- worker's) on every call, and url_claims (host, lease_until) could find them only by
-- reading every claim in flight. This index reads only the lapsed ones (few, or none).

CREATE INDEX url_leases ON url (lease_until) WHERE state = 'fetching';
