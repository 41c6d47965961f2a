// Every file written here is read back with warcio's WARCParser, the reader pywb's
// stack uses, and every digest is recomputed from the bytes read.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  REVISIT_IDENTICAL_PAYLOAD,
  REVISIT_SERVER_NOT_MODIFIED,
  WarcWriter,
  readPayloadCaptures,
  sha256Digest,
  trimTornTail,
  warcFileName,
  type WarcExchange,
} from '../../src/archive/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-warc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DATE = new Date('2026-11-27T10:20:30.456Z');

function exchange(uri: string, body: string | Uint8Array, extra: Partial<WarcExchange> = {}): WarcExchange {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return {
    method: 'GET',
    uri,
    requestHeaderLines: [`Host: ${new URL(uri).host}`, 'User-Agent: linkladder-test', 'Accept-Encoding: gzip'],
    httpVersion: '1.1',
    status: 200,
    reason: 'OK',
    responseHeaderLines: ['Content-Type: text/html; charset=utf-8', `Content-Length: ${bytes.length}`, 'Set-Cookie: a=1', 'Set-Cookie: b=2'],
    body: bytes,
    remoteIp: '127.0.0.1',
    date: DATE,
    ...extra,
  };
}

interface ReadRecord {
  readonly record: WARCRecord;
  readonly raw: Uint8Array;
  readonly offset: number;
  readonly length: number;
}

/** Every record of a file, with its raw block, as warcio reads them; throws if the file does not parse to its end. */
async function readWarc(file: string): Promise<ReadRecord[]> {
  const bytes = await readFile(file);
  const parser = new WARCParser([bytes], { parseHttp: false });
  const records: ReadRecord[] = [];
  for await (const record of parser) {
    const raw = await record.readFully(false);
    records.push({ record, raw, offset: parser.offset, length: parser.recordLength });
  }
  // The last record ends at the file's last byte: nothing trails, nothing is torn.
  const last = records[records.length - 1]!;
  expect(last.offset + last.length).toBe(bytes.length);
  return records;
}

/** `length` incompressible bytes, the same for the same seed. */
function noise(seed: string, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 32) out.set(createHash('sha256').update(`${seed}/${i}`).digest().subarray(0, Math.min(32, length - i)), i);
  return out;
}

function split(raw: Uint8Array): { head: string; body: Uint8Array } {
  const text = Buffer.from(raw).toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  return { head: text.slice(0, end + 4), body: raw.subarray(end + 4) };
}


describe('WarcWriter', () => {
  it('writes warcinfo, then request and response records that warcio reads back with the digests recomputed', async () => {
    const path = join(dir, 'crawl.warc.gz');
    const writer = await WarcWriter.open(path, { version: '9.9.9', settings: { seeds: ['https://example.com/'], maxDepth: 3, label: 'x\r\nforged: yes', 'a:b': 1 } });
    const body = gzipSync('<html>hello</html>');
    const location = await writer.write(exchange('https://example.com/a?b=1', body, { responseHeaderLines: ['Content-Type: text/html', 'Content-Encoding: gzip', `Content-Length: ${body.length}`] }));
    await writer.close();

    expect(location.file).toBe(path);
    expect(writer.files).toEqual([path]);
    const records = await readWarc(path);
    expect(records.map((r) => r.record.warcType)).toEqual(['warcinfo', 'response', 'request']);
    for (const { record } of records) expect(record.warcHeaders.statusline).toBe('WARC/1.1');

    const info = new TextDecoder().decode(records[0]!.raw);
    expect(info).toContain('software: linkladder/9.9.9\r\n');
    expect(info).toContain('seeds: ["https://example.com/"]\r\n');
    expect(info).toContain('maxDepth: 3\r\n');
    expect(info).toContain('label: x forged: yes\r\n');
    expect(info).toContain('a_b: 1\r\n');
    expect(info).not.toMatch(/^forged:/m);
    expect(records[0]!.record.warcHeader('WARC-Filename')).toBe('crawl.warc.gz');
    expect(records[0]!.record.warcContentType).toBe('application/warc-fields');

    const response = records[1]!;
    const request = records[2]!;
    expect(response.record.warcTargetURI).toBe('https://example.com/a?b=1');
    expect(response.record.warcDate).toBe('2026-11-27T10:20:30.456Z');
    expect(response.record.warcHeader('WARC-IP-Address')).toBe('127.0.0.1');
    expect(response.record.warcContentType).toBe('application/http; msgtype=response');
    expect(request.record.warcConcurrentTo).toEqual([response.record.warcHeader('WARC-Record-ID')]);
    expect(request.record.warcContentType).toBe('application/http; msgtype=request');
    expect(request.record.warcHeader('WARC-IP-Address')).toBe('127.0.0.1');

    // The HTTP message exactly as given: status line, header lines in order, body still gzip.
    const { head, body: payload } = split(response.raw);
    expect(head).toBe(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n`);
    expect(Buffer.from(payload).equals(body)).toBe(true);
    expect(new TextDecoder().decode(request.raw)).toBe('GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: linkladder-test\r\nAccept-Encoding: gzip\r\n\r\n');

    expect(response.record.warcPayloadDigest).toBe(sha256Digest(body));
    expect(response.record.warcPayloadDigest).toMatch(/^sha256:[A-Z2-7]{52}=*$/);
    expect(response.record.warcBlockDigest).toBe(sha256Digest(response.raw));
    expect(request.record.warcBlockDigest).toBe(sha256Digest(request.raw));
    expect(response.record.warcContentLength).toBe(response.raw.length);

    // The location returned is the response record's gzip member: it reads alone.
    expect(location).toMatchObject({ offset: response.offset, length: response.length, type: 'response' });
    const member = (await readFile(path)).subarray(location.offset, location.offset + location.length);
    const alone = await WARCParser.parse([member]);
    expect(alone?.warcType).toBe('response');
  });

  it('keeps repeated header lines (Set-Cookie) in order and omits WARC-IP-Address when unknown', async () => {
    const path = join(dir, 'h.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const { remoteIp: _ignored, ...withoutIp } = exchange('http://example.com/', 'x');
    await writer.write(withoutIp);
    await writer.close();
    const [, response] = await readWarc(path);
    expect(split(response!.raw).head).toContain('Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n');
    expect(response!.record.warcHeader('WARC-IP-Address')).toBeNull();
  });

  it('writes a payload seen before as an identical-payload-digest revisit referring to the first capture', async () => {
    const path = join(dir, 'dedup.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const first = await writer.write(exchange('https://example.com/one', 'same body'));
    const later = new Date('2026-11-27T11:00:00.000Z');
    const second = await writer.write(exchange('https://example.com/two', 'same body', { date: later }));
    const other = await writer.write(exchange('https://example.com/three', 'another body'));
    await writer.close();
    expect([first.type, second.type, other.type]).toEqual(['response', 'revisit', 'response']);

    const records = await readWarc(path);
    expect(records.map((r) => r.record.warcType)).toEqual(['warcinfo', 'response', 'request', 'revisit', 'request', 'response', 'request']);
    const revisit = records[3]!;
    expect(revisit.offset).toBe(second.offset);
    expect(revisit.record.warcHeader('WARC-Profile')).toBe(REVISIT_IDENTICAL_PAYLOAD);
    expect(revisit.record.warcRefersToTargetURI).toBe('https://example.com/one');
    expect(revisit.record.warcRefersToDate).toBe(DATE.toISOString());
    expect(revisit.record.warcTargetURI).toBe('https://example.com/two');
    expect(revisit.record.warcPayloadDigest).toBe(sha256Digest(new TextEncoder().encode('same body')));
    expect(revisit.record.warcPayloadDigest).toBe(records[1]!.record.warcPayloadDigest);
    // The revisit's block is the HTTP head only; its block digest covers that.
    expect(split(revisit.raw).body.length).toBe(0);
    expect(new TextDecoder().decode(revisit.raw)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(revisit.record.warcBlockDigest).toBe(sha256Digest(revisit.raw));
    expect(records[4]!.record.warcConcurrentTo).toEqual([revisit.record.warcHeader('WARC-Record-ID')]);
  });

  it('does not turn empty payloads into revisits', async () => {
    const path = join(dir, 'empty.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const redirect = { status: 301, reason: 'Moved Permanently', responseHeaderLines: ['Location: /b', 'Content-Length: 0'] };
    const a = await writer.write(exchange('https://example.com/a', '', redirect));
    const b = await writer.write(exchange('https://example.com/c', '', redirect));
    await writer.close();
    expect([a.type, b.type]).toEqual(['response', 'response']);
    const records = await readWarc(path);
    expect(records[3]!.record.warcType).toBe('response');
    expect(records[3]!.record.warcPayloadDigest).toBe(sha256Digest(new Uint8Array()));
  });

  it('writes a 304 as a server-not-modified revisit, with the earlier capture when known', async () => {
    const path = join(dir, 'nm.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const earlier = new Date('2026-01-02T03:04:05.000Z');
    const location = await writer.write(
      exchange('https://example.com/page', '', { status: 304, reason: 'Not Modified', responseHeaderLines: ['ETag: "v1"'], notModified: true, refersTo: { uri: 'https://example.com/page', date: earlier } }),
    );
    const bare = await writer.write(exchange('https://example.com/other', '', { status: 304, reason: 'Not Modified', responseHeaderLines: [], notModified: true }));
    await writer.close();
    expect(location.type).toBe('revisit');
    const records = await readWarc(path);
    const revisit = records[1]!.record;
    expect(revisit.warcType).toBe('revisit');
    expect(revisit.warcHeader('WARC-Profile')).toBe(REVISIT_SERVER_NOT_MODIFIED);
    expect(revisit.warcRefersToTargetURI).toBe('https://example.com/page');
    expect(revisit.warcRefersToDate).toBe(earlier.toISOString());
    expect(revisit.warcPayloadDigest).toBeNull();
    expect(new TextDecoder().decode(records[1]!.raw)).toBe('HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n');
    expect(revisit.warcBlockDigest).toBe(sha256Digest(records[1]!.raw));
    const second = records.find((r) => r.offset === bare.offset)!.record;
    expect(second.warcHeader('WARC-Profile')).toBe(REVISIT_SERVER_NOT_MODIFIED);
    expect(second.warcRefersToTargetURI).toBeNull();
  });

  it('rotates before a file would pass maxBytes: crawl.warc.gz, crawl-00001.warc.gz…, each opening with warcinfo and parsing to its end', async () => {
    const path = join(dir, 'crawl.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1', maxBytes: 5000 });
    const locations = [];
    for (let i = 0; i < 6; i += 1) {
      // Incompressible bodies, distinct so none is a revisit: each pair takes ~2.1 KB, two fit in 5000 bytes beside the warcinfo.
      locations.push(await writer.write(exchange(`https://example.com/${i}`, noise(String(i), 1200))));
    }
    await writer.close();
    const expected = [path, join(dir, 'crawl-00001.warc.gz'), join(dir, 'crawl-00002.warc.gz')];
    expect(writer.files).toEqual(expected);
    expect(new Set(locations.map((l) => l.file))).toEqual(new Set(expected));
    for (const file of expected) {
      expect((await stat(file)).size).toBeLessThanOrEqual(5000);
      const records = await readWarc(file);
      expect(records[0]!.record.warcType).toBe('warcinfo');
      expect(records[0]!.record.warcHeader('WARC-Filename')).toBe(basename(file));
      // A request never lands in another file than its response.
      expect(records.slice(1).map((r) => r.record.warcType)).toEqual(Array.from({ length: records.length - 1 }, (_, i) => (i % 2 === 0 ? 'response' : 'request')));
    }
    for (const location of locations) {
      const member = (await readFile(location.file)).subarray(location.offset, location.offset + location.length);
      expect((await WARCParser.parse([member]))?.warcType).toBe('response');
    }
  });

  it('gives a pair larger than maxBytes a file of its own', async () => {
    const path = join(dir, 'big.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1', maxBytes: 500 });
    await writer.write(exchange('https://example.com/1', 'a'.repeat(10)));
    await writer.write(exchange('https://example.com/2', noise('x', 1000)));
    await writer.write(exchange('https://example.com/3', 'b'.repeat(10)));
    await writer.close();
    expect(writer.files.map((file) => basename(file))).toEqual(['big.warc.gz', 'big-00001.warc.gz', 'big-00002.warc.gz']);
    for (const file of writer.files) expect((await readWarc(file)).length).toBe(3);
  });

  it('starts a new run at the next free serial, never appending to an earlier run’s file', async () => {
    const path = join(dir, 'run.warc.gz');
    const first = await WarcWriter.open(path, { version: '1' });
    await first.write(exchange('https://example.com/', 'one'));
    await first.close();
    const before = await readFile(path);
    const second = await WarcWriter.open(path, { version: '1' });
    const location = await second.write(exchange('https://example.com/', 'two'));
    await second.close();
    expect(location.file).toBe(join(dir, 'run-00001.warc.gz'));
    expect((await readFile(path)).equals(before)).toBe(true);
    expect(warcFileName(join(dir, 'run'), 12)).toBe(join(dir, 'run-00012.warc.gz'));
  });

  it('a resumed run seeded with the earlier files’ payloads writes revisits of their captures', async () => {
    const path = join(dir, 'resume.warc.gz');
    const first = await WarcWriter.open(path, { version: '1' });
    await first.write(exchange('https://example.com/old', 'kept body'));
    await first.write(exchange('https://example.com/empty', ''));
    await first.close();
    const captures = await readPayloadCaptures(first.files);
    expect(captures).toEqual([{ digest: sha256Digest(new TextEncoder().encode('kept body')), uri: 'https://example.com/old', date: DATE }]);

    const second = await WarcWriter.open(path, { version: '1', knownPayloads: captures });
    const location = await second.write(exchange('https://example.com/new', 'kept body', { date: new Date('2026-11-28T00:00:00Z') }));
    await second.close();
    expect(location).toMatchObject({ file: join(dir, 'resume-00001.warc.gz'), type: 'revisit' });
    const revisit = (await readWarc(location.file))[1]!.record;
    expect(revisit.warcRefersToTargetURI).toBe('https://example.com/old');
    expect(revisit.warcRefersToDate).toBe(DATE.toISOString());
  });

  it('queues concurrent writes so records never interleave', async () => {
    const path = join(dir, 'queue.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const locations = await Promise.all(Array.from({ length: 20 }, (_, i) => writer.write(exchange(`https://example.com/${i}`, `body ${i}`))));
    await writer.close();
    const records = await readWarc(path);
    expect(records.length).toBe(41);
    expect(locations.map((l) => l.offset)).toEqual(records.filter((r) => r.record.warcType === 'response').map((r) => r.offset));
    await expect(writer.write(exchange('https://example.com/late', 'x'))).rejects.toMatchObject({ code: 'ERR_ARCHIVE_CLOSED', name: 'ArchiveError' });
  });
});

describe('trimTornTail', () => {
  it('cuts a file killed mid-record back to its last whole record, which then parses to its last byte', async () => {
    const path = join(dir, 'torn.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    await writer.write(exchange('https://example.com/1', 'first'));
    const second = await writer.write(exchange('https://example.com/2', 'second body'.repeat(50)));
    await writer.close();
    const whole = await readFile(path);
    // Killed halfway through the second response record.
    const cutAt = second.offset + Math.floor(second.length / 2);
    await truncate(path, cutAt);
    await expect(readWarc(path)).rejects.toThrow();

    expect(await trimTornTail(path)).toBe(cutAt - second.offset);
    expect((await stat(path)).size).toBe(second.offset);
    expect((await readFile(path)).equals(whole.subarray(0, second.offset))).toBe(true);
    const records = await readWarc(path);
    expect(records.map((r) => r.record.warcType)).toEqual(['warcinfo', 'response', 'request']);
  });

  it('cuts a member missing only its trailer, and leaves a whole file alone', async () => {
    const path = join(dir, 'trailer.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    const only = await writer.write(exchange('https://example.com/1', 'first'));
    await writer.close();
    const whole = await readFile(path);
    expect(await trimTornTail(path)).toBe(0);
    expect((await readFile(path)).equals(whole)).toBe(true);

    await writeFile(path, whole.subarray(0, whole.length - 3));
    expect(await trimTornTail(path)).toBe(whole.length - 3 - (only.offset + only.length));
    expect((await readWarc(path)).map((r) => r.record.warcType)).toEqual(['warcinfo', 'response']);
  });

  it('cuts trailing garbage that is no gzip member', async () => {
    const path = join(dir, 'garbage.warc.gz');
    const writer = await WarcWriter.open(path, { version: '1' });
    await writer.write(exchange('https://example.com/1', 'first'));
    await writer.close();
    const whole = await readFile(path);
    await writeFile(path, Buffer.concat([whole, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3])]));
    expect(await trimTornTail(path)).toBe(7);
    expect((await readFile(path)).equals(whole)).toBe(true);
  });
});
