-- Content evidence (issue 13, DESIGN.md §9), as SQLite's migration 009:
-- `fetch.digest`, the SHA-256 (base64url) of a 2xx body the crawl read, and the two
-- heuristic kinds of alias evidence written only with `--content-evidence`:
-- `digest` (byte-identical body) and `rule` (predicted by a learned rewrite rule).

ALTER TABLE "fetch" ADD COLUMN digest text;

CREATE INDEX fetch_by_digest ON "fetch" (digest) WHERE digest IS NOT NULL;

ALTER TABLE alias DROP CONSTRAINT alias_evidence_check;

ALTER TABLE alias ADD CONSTRAINT alias_evidence_check
  CHECK (evidence IN ('redirect', 'content-location', 'canonical', 'digest', 'rule'));
