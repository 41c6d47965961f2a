// What makes a file a linkladder index: SQLite's header, linkladder's
// application_id in it, and a file as long as the header says.
// https://www.sqlite.org/fileformat2.html#the_database_header

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { Database as Db } from 'better-sqlite3';
import { StoreError } from '../../errors.js';

/**
 * `PRAGMA application_id` of every index: "LnkL" in ASCII (0x4C6E6B4C). Set when
 * crawl or `db migrate` creates an index, and on the next write-open of an index
 * made before the id existed (id 0 with a `schema_migrations` table).
 */
export const LINKLADDER_APPLICATION_ID = 0x4c6e6b4c;

const HEADER_BYTES = 100;
const MAGIC = 'SQLite format 3\0';

/** What opening a file found: an index, one from before the application id, or an empty database. */
export type IndexKind = 'index' | 'unmarked-index' | 'empty';

/**
 * Check the file's header before SQLite reads it: an empty file, one that is not
 * SQLite, and one shorter than its header says (truncated) are refused. The size
 * check is skipped while a write-ahead log holds pages (the header is then only
 * as current as the last checkpoint).
 */
export function checkIndexHeader(file: string): void {
  const size = statSync(file).size;
  if (size === 0) throw notIndex(file, 'the file is empty');
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read < HEADER_BYTES || header.toString('latin1', 0, MAGIC.length) !== MAGIC) throw notIndex(file, 'not a SQLite database');
  if (hasWalFrames(file)) return;
  const pageSizeField = header.readUInt16BE(16);
  const pageSize = pageSizeField === 1 ? 65_536 : pageSizeField;
  const pageCount = header.readUInt32BE(28);
  // The in-header size is valid only when the change counter matches version-valid-for.
  const isPageCountValid = pageCount > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  if (isPageCountValid && pageCount * pageSize > size) {
    throw new StoreError(
      'ERR_STORE_CORRUPT',
      `the index ${file} is corrupt (ERR_STORE_CORRUPT): it is truncated: its header says ${pageCount * pageSize} bytes, the file holds ${size}`,
    );
  }
}

/** Whether a write-ahead log beside `file` is not empty. */
export function hasWalFrames(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}

/**
 * Which kind of file `db` is, from its application id and tables; refuse another
 * program's database (ERR_STORE_NOT_INDEX) before anything is written to it.
 */
export function identifyIndex(db: Db, file: string): IndexKind {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId === LINKLADDER_APPLICATION_ID) return 'index';
  if (applicationId !== 0) {
    const hex = `0x${(applicationId >>> 0).toString(16).padStart(8, '0')}`;
    throw notIndex(file, `a SQLite database of another program (application_id ${hex})`);
  }
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[];
  if (tables.length === 0) return 'empty';
  if (tables.includes('schema_migrations')) return 'unmarked-index';
  throw notIndex(file, 'a SQLite database of another program (it has no schema_migrations table)');
}

/** Mark a database as an index (inside the caller's transaction, if any). */
export function markIndex(db: Db): void {
  db.pragma(`application_id = ${LINKLADDER_APPLICATION_ID}`);
}

export function notIndex(file: string, why: string): StoreError {
  return new StoreError('ERR_STORE_NOT_INDEX', `${file} is not a linkladder index (ERR_STORE_NOT_INDEX): ${why}`);
}
