// What earlier files of an archive hold, read back with warcio: one entry per response,
// revisit and request record, with where it lies. A resumed run learns from them the
// payloads already archived (revisits instead of copies), the last capture of each URL
// (what a 304 confirms) and the index lines a killed run did not get to write.

import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { CdxjEntry } from './cdxj.js';

/** One record of an archive file, as read back. */
export interface ArchivedCapture {
  readonly type: 'response' | 'revisit' | 'request';
  readonly uri: string;
  readonly date: Date;
  /** The file's base name. */
  readonly file: string;
  readonly offset: number;
  readonly length: number;
  /** The HTTP status of a response or revisit. */
  readonly status: number | undefined;
  /** The payload's media type without parameters (`warc/revisit` for a revisit), as the index gives it. */
  readonly mime: string;
  readonly payloadDigest: string | undefined;
}

/**
 * Every response, revisit and request record of `files`, in file order. A file that
 * does not parse to its end rejects: trim a torn tail first (`trimTornTail`).
 */
export async function readArchivedCaptures(files: readonly string[]): Promise<ArchivedCapture[]> {
  const { WARCParser } = await import('warcio');
  const captures: ArchivedCapture[] = [];
  for (const file of files) {
    const parser = new WARCParser(createReadStream(file) as AsyncIterable<Uint8Array>, { parseHttp: true });
    for await (const record of parser) {
      const type = record.warcType;
      const uri = record.warcTargetURI;
      const date = record.warcDate;
      await record.skipFully();
      if ((type !== 'response' && type !== 'revisit' && type !== 'request') || !uri || !date) continue;
      const status = type === 'request' ? undefined : record.httpHeaders?.statusCode;
      const contentType = record.httpHeaders?.headers.get('content-type') ?? undefined;
      captures.push({
        type,
        uri,
        date: new Date(date),
        file: basename(file),
        offset: parser.offset,
        length: parser.recordLength,
        status: typeof status === 'number' ? status : status === undefined ? undefined : Number(status),
        mime: type === 'revisit' ? 'warc/revisit' : (contentType?.split(';')[0]?.trim().toLowerCase() || 'unk'),
        payloadDigest: record.warcPayloadDigest ?? undefined,
      });
    }
  }
  return captures;
}

/** The index entry of a response or revisit read back (`undefined` for a request). */
export function cdxjEntryOf(capture: ArchivedCapture): CdxjEntry | undefined {
  if (capture.type === 'request' || capture.status === undefined) return undefined;
  return {
    url: capture.uri,
    date: capture.date,
    mime: capture.mime,
    status: capture.status,
    ...(capture.payloadDigest !== undefined ? { digest: capture.payloadDigest } : {}),
    length: capture.length,
    offset: capture.offset,
    filename: capture.file,
  };
}
