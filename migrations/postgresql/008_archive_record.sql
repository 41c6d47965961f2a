-- Which WARC record stands for which URL, as the SQLite index's migration 014: each
-- record a crawl with --warc wrote (file base name, byte offset and length of its gzip
-- member, type, payload digest, WARC-Date in Unix ms, HTTP status), by the URL as
-- requested and by its resource key, so that `explain` names it and every worker
-- finds a payload any worker archived (a revisit refers to the first response).

CREATE TABLE archive_record (
  id             bigserial PRIMARY KEY,
  run_id         bigint,
  uri            text    COLLATE "C" NOT NULL,
  key            text    COLLATE "C",
  file           text    NOT NULL,
  file_offset    bigint  NOT NULL CHECK (file_offset >= 0),
  record_length  bigint  NOT NULL CHECK (record_length >= 0),
  type           text    NOT NULL CHECK (type IN ('response', 'revisit', 'request')),
  payload_digest text,
  warc_date      bigint  NOT NULL,
  status         integer
);

CREATE INDEX archive_record_key ON archive_record (key, id);
CREATE INDEX archive_record_uri ON archive_record (uri, id);
CREATE INDEX archive_record_payload ON archive_record (payload_digest, id) WHERE type = 'response';
