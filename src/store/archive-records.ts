// The WARC records a crawl wrote, as the index keeps them (migration 014
// `archive_record`): which record stands for which URL, and where it lies.

/** A record of a WARC file the crawl wrote (ISO 28500, WARC/1.1). */
export interface ArchivedRecord {
  /** Its WARC-Target-URI: the URL as requested. */
  readonly uri: string;
  /** The WARC file's base name (`crawl.warc.gz`, `crawl-00001.warc.gz`), not its path. */
  readonly file: string;
  /** The byte offset of the record (its gzip member) in the file. */
  readonly offset: number;
  /** The record's length in the file, in bytes (its gzip member, compressed). */
  readonly length: number;
  readonly type: 'response' | 'revisit' | 'request';
  /** Its WARC-Payload-Digest as written (`sha256:BASE32…`); `undefined` for a record without one. */
  readonly payloadDigest: string | undefined;
  /** Its WARC-Date. */
  readonly date: Date;
  /** The HTTP status of a response or revisit; `undefined` for a request. */
  readonly status: number | undefined;
  /** The crawl run that wrote it. @default the run this writer started last (none: not recorded) */
  readonly runId?: number | undefined;
}

/** The WARC record types the index keeps. */
export const ARCHIVED_RECORD_TYPES: readonly ArchivedRecord['type'][] = ['response', 'revisit', 'request'];

/** The columns of `archive_record` the stores read, in this order (`ArchivedColumns`). */
export const ARCHIVED_COLUMNS = 'run_id, uri, file, file_offset, record_length, type, payload_digest, warc_date, status';

/** A row of `archive_record` as the stores read it. */
export interface ArchivedColumns {
  readonly run_id: number | string | null;
  readonly uri: string;
  readonly file: string;
  readonly file_offset: number | string;
  readonly record_length: number | string;
  readonly type: string;
  readonly payload_digest: string | null;
  readonly warc_date: number | string;
  readonly status: number | null;
}

/** A row of `archive_record` as a record (PostgreSQL's bigint columns arrive as text). */
export function toArchivedRecord(row: ArchivedColumns): ArchivedRecord {
  return {
    uri: row.uri,
    file: row.file,
    offset: Number(row.file_offset),
    length: Number(row.record_length),
    type: (ARCHIVED_RECORD_TYPES as readonly string[]).includes(row.type) ? (row.type as ArchivedRecord['type']) : 'response',
    payloadDigest: row.payload_digest ?? undefined,
    date: new Date(Number(row.warc_date)),
    status: row.status ?? undefined,
    runId: row.run_id === null ? undefined : Number(row.run_id),
  };
}
