// readArchivedCaptures reads a series back with warcio: the index lines it gives for a
// file are those the writer gave when it wrote it (a killed run's file is indexed by the
// next run from them), and every record is there, a lone request included.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WarcWriter, cdxjEntryOf, cdxjLine, readArchivedCaptures, type CdxjEntry, type WarcExchange } from '../../src/archive/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-warc-captures-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function exchange(uri: string, body: string, extra: Partial<WarcExchange> = {}): WarcExchange {
  return {
    method: 'GET',
    uri,
    requestHeaderLines: [`Host: ${new URL(uri).host}`],
    httpVersion: '1.1',
    status: 200,
    reason: 'OK',
    responseHeaderLines: ['Content-Type: text/html; charset=utf-8'],
    body: new TextEncoder().encode(body),
    date: new Date('2026-11-27T10:00:00.000Z'),
    ...extra,
  };
}

describe('readArchivedCaptures', () => {
  it('gives the index lines the writer gave, across rotated files, and every record', async () => {
    const writer = await WarcWriter.open(join(dir, 'a.warc.gz'), { version: 'test', maxBytes: 1200 });
    await writer.write(exchange('https://example.com/', '<p>home</p>'.repeat(20)));
    await writer.write(exchange('https://example.com/same', '<p>home</p>'.repeat(20)));
    await writer.write(exchange('https://example.com/missing', 'not here', { status: 404, reason: 'Not Found', responseHeaderLines: ['Content-Type: text/plain'] }));
    await writer.writeRequest({ method: 'GET', uri: 'https://example.com/slow', requestHeaderLines: ['Host: example.com'], httpVersion: '1.1', date: new Date('2026-11-27T10:00:01.000Z') });
    await writer.write(exchange('https://example.com/304', '', { status: 304, reason: 'Not Modified', notModified: true, refersTo: { uri: 'https://example.com/', date: new Date('2026-11-27T10:00:00.000Z') } }));
    await writer.close();
    expect(writer.files.length).toBeGreaterThan(1);

    const captures = await readArchivedCaptures(writer.files);
    expect(captures.map((capture) => [capture.type, capture.uri.slice('https://example.com'.length), capture.status])).toEqual([
      ['response', '/', 200],
      ['request', '/', undefined],
      ['revisit', '/same', 200],
      ['request', '/same', undefined],
      ['response', '/missing', 404],
      ['request', '/missing', undefined],
      ['request', '/slow', undefined],
      ['revisit', '/304', 304],
      ['request', '/304', undefined],
    ]);
    const read = captures.map(cdxjEntryOf).filter((entry): entry is CdxjEntry => entry !== undefined).map(cdxjLine);
    expect(read).toEqual(writer.cdxjEntries.map(cdxjLine));
    expect(new Set(captures.map((capture) => capture.file))).toEqual(new Set(writer.files.map((file) => basename(file))));
  });
});
