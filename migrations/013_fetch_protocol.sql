-- The protocol the response of each fetch came over, as ALPN names it: 'h2' when the
-- server chose HTTP/2 (RFC 9113 §3.2), 'http/1.1' otherwise. NULL when no response came,
-- for a file read from disk, and in rows written before it.

ALTER TABLE fetch ADD COLUMN protocol TEXT CHECK (protocol IN ('http/1.1', 'h2'));
