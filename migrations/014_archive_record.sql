-- Which WARC record stands for which URL: each record a crawl with --warc wrote,
-- where it is (the file's base name, the byte offset of its gzip member and the
-- member's length), so that `explain` names it and a worker finds a payload another
-- one archived already (a revisit then refers to it).
--
-- `uri`: the WARC-Target-URI, as requested. `key`: its resource key (the scheme rung
-- without fragment, as url.key), NULL when it has none: any spelling of a URL finds
-- its records. `type`: 'response', 'revisit' or 'request'. `payload_digest`: the
-- WARC-Payload-Digest as written ('sha256:BASE32'). `warc_date`: the WARC-Date (Unix
-- ms). `status`: the HTTP status of a response or revisit. `run_id`: the run that
-- wrote it.

CREATE TABLE archive_record (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER REFERENCES crawl_run (id),
  uri            TEXT    NOT NULL,
  key            TEXT,
  file           TEXT    NOT NULL,
  file_offset    INTEGER NOT NULL CHECK (file_offset >= 0),
  record_length  INTEGER NOT NULL CHECK (record_length >= 0),
  type           TEXT    NOT NULL CHECK (type IN ('response', 'revisit', 'request')),
  payload_digest TEXT,
  warc_date      INTEGER NOT NULL,
  status         INTEGER
) STRICT;

CREATE INDEX archive_record_key ON archive_record (key, id);
CREATE INDEX archive_record_uri ON archive_record (uri, id);
-- The first response with a payload: what a revisit refers to.
CREATE INDEX archive_record_payload ON archive_record (payload_digest, id) WHERE type = 'response';
