// Export a graph into a string, for tests that read the output back.

import { Writable } from 'node:stream';
import { exportGraph, type GraphFormat } from '../../../src/report/index.js';
import type { IndexReader } from '../../../src/store/index.js';

export async function exportText(reader: IndexReader, format: GraphFormat, collapseAliases = false): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await exportGraph(reader, sink, { format, collapseAliases });
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 4180 records, read strictly: every record ends with CRLF, quotes only around whole fields. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  while (index < text.length) {
    let field = '';
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        const quote = text.indexOf('"', index);
        if (quote < 0) throw new Error('unterminated quoted field');
        field += text.slice(index, quote);
        index = quote + 1;
        if (text[index] !== '"') break;
        field += '"';
        index += 1;
      }
    } else {
      const end = text.slice(index).search(/[,\r\n"]/);
      const stop = end < 0 ? text.length : index + end;
      field = text.slice(index, stop);
      index = stop;
      if (text[index] === '"') throw new Error(`a quote inside an unquoted field at ${index}`);
    }
    record.push(field);
    if (text[index] === ',') {
      index += 1;
    } else if (text.startsWith('\r\n', index)) {
      index += 2;
      records.push(record);
      record = [];
    } else {
      throw new Error(`expected "," or CRLF at ${index}, got ${JSON.stringify(text.slice(index, index + 10))}`);
    }
  }
  if (record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}
