-- The protocol the response of each fetch came over, as the SQLite index's migration
-- 013: 'h2' (HTTP/2 chosen by ALPN) or 'http/1.1'; NULL when no response came, for a
-- file read from disk, and in rows written before it.

ALTER TABLE "fetch" ADD COLUMN protocol text CHECK (protocol IN ('http/1.1', 'h2'));
