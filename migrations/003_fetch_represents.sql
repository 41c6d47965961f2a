-- Which URL's representation each fetch stands for (DESIGN.md §7: the crawler
-- records what it knows when it knows it). A request whose redirects end at another
-- URL stands for that URL's representation (RFC 3986 §5.1.3, the last hop); a row
-- made from another URL's response stands for its own URL; a request that got no
-- representation stands for the URL requested. Reports read this column instead of
-- re-deriving it from the final URL and the redirect hops. NULL in rows written
-- before this migration: readers then derive it as they did.

ALTER TABLE fetch ADD COLUMN represents_url_id INTEGER REFERENCES url (id);
