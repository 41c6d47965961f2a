// CDXJ, the index format pywb reads: one line per capture, `<SURT> <timestamp> <JSON>`,
// the file sorted as plain bytes so a binary search on the SURT key finds a URL.
// The SURT is warcio's (the same key pywb computes), so a lookup by pywb matches.

import { readFile, rename, writeFile } from 'node:fs/promises';
import { getSurt } from 'warcio/utils';

/** One capture: a response or revisit record, and where its bytes lie. */
export interface CdxjEntry {
  readonly url: string;
  /** The record's WARC-Date. */
  readonly date: Date;
  /** The media type of the payload, without parameters; `warc/revisit` for a revisit. */
  readonly mime: string;
  readonly status: number;
  /** The WARC-Payload-Digest, as written (`sha256:<base32>`); absent for a 304 revisit. */
  readonly digest?: string;
  /** Bytes of the record in the file (its whole gzip member). */
  readonly length: number;
  readonly offset: number;
  /** The WARC file's base name, as pywb resolves it beside the index. */
  readonly filename: string;
}

/** `YYYYMMDDhhmmss` in UTC, the 14-digit timestamp of CDX and Wayback URLs. */
export function cdxTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** The SURT key of a URL, as pywb and warcio compute it. */
export function surtOf(url: string): string {
  return getSurt(url);
}

export function cdxjLine(entry: CdxjEntry): string {
  const fields: Record<string, string> = { url: entry.url, mime: entry.mime, status: String(entry.status) };
  if (entry.digest !== undefined) fields['digest'] = entry.digest;
  fields['length'] = String(entry.length);
  fields['offset'] = String(entry.offset);
  fields['filename'] = entry.filename;
  return `${surtOf(entry.url)} ${cdxTimestamp(entry.date)} ${JSON.stringify(fields)}`;
}

/** Byte order (as `LC_ALL=C sort`), which is the order pywb's binary search assumes. */
export function compareCdxjLines(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Writes the sorted index at `path`, merged with the lines an earlier run left there
 * (a resumed crawl adds files to the same archive). Written beside and renamed, so a
 * kill leaves the old index or the new one, never half of one.
 */
export async function writeCdxjIndex(path: string, entries: readonly CdxjEntry[]): Promise<number> {
  let previous: string[] = [];
  try {
    previous = (await readFile(path, 'utf8')).split('\n').filter((line) => line.length > 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const lines = [...new Set([...previous, ...entries.map(cdxjLine)])].sort(compareCdxjLines);
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  await rename(temporary, path);
  return lines.length;
}
