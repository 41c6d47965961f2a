// The run's archive fed by hand-made exchanges: HTTP/2 written in its HTTP/1.1 form,
// a request with no response, a request never sent, credentials left out, onArchived,
// and a failure that is recorded once while the archive goes on. Every file is read
// back with warcio's WARCParser.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlArchive, secretHeaderNamesOf, type ArchivedRecordData } from '../../src/crawl/index.js';
import type { WireExchange } from '../../src/fetch/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-crawl-archive-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function exchange(extra: Partial<WireExchange> = {}): WireExchange {
  return {
    method: 'GET',
    url: 'https://example.com/page',
    httpVersion: '1.1',
    requestHeaders: [
      ['host', 'example.com'],
      ['user-agent', 'linkladder'],
      ['authorization', 'Bearer s3cret'],
      ['cookie', 'sid=c00kie'],
      ['X-Api-Key', 'k3y'],
    ],
    status: 200,
    statusText: 'OK',
    responseHeaders: [
      ['content-type', 'text/html'],
      ['set-cookie', 'session=setc00kie'],
    ],
    body: new TextEncoder().encode('<p>hello</p>'),
    isCut: false,
    remoteAddress: '192.0.2.1',
    startedAt: Date.parse('2026-11-27T12:00:00.000Z'),
    errorCode: undefined,
    ...extra,
  };
}

async function open(path: string, onArchived?: (record: ArchivedRecordData) => void, maxBytes = 1_000_000): Promise<CrawlArchive> {
  return CrawlArchive.open({
    path,
    maxBytes,
    version: 'test',
    settings: { headerNames: ['X-Api-Key'] },
    secretHeaderNames: secretHeaderNamesOf({ header: ['X-Api-Key: k3y'], headerFor: [] }),
    onArchived,
  });
}

interface Read {
  readonly type: string;
  readonly warc: Map<string, string>;
  readonly http: string;
  readonly statusCode: number | undefined;
}

async function read(file: string): Promise<Read[]> {
  const bytes = await readFile(file);
  const records: Read[] = [];
  const parser = new WARCParser([bytes], { parseHttp: true });
  let end = 0;
  for await (const record of parser) {
    const warc = new Map<string, string>();
    for (const [name, value] of record.warcHeaders.headers as unknown as Iterable<[string, string]>) warc.set(name.toLowerCase(), value);
    const http = record.httpHeaders === null || record.httpHeaders === undefined ? '' : record.httpHeaders.toString();
    records.push({ type: record.warcType ?? '', warc, http, statusCode: record.httpHeaders?.statusCode === undefined ? undefined : Number(record.httpHeaders.statusCode) });
    await record.readFully(false);
    end = parser.offset + parser.recordLength;
  }
  expect(end).toBe(bytes.length);
  return records;
}

describe('CrawlArchive', () => {
  it('writes HTTP/2 in its HTTP/1.1 form: `:authority` as host, no pseudo-fields, an empty reason after a space, WARC-Protocol h2 — and warcio reads it', async () => {
    const archive = await open(join(dir, 'h2.warc.gz'));
    archive.onExchange(
      exchange({
        httpVersion: '2',
        requestHeaders: [
          [':method', 'GET'],
          [':authority', 'example.com'],
          [':scheme', 'https'],
          [':path', '/page'],
          ['user-agent', 'linkladder'],
        ],
        statusText: '',
      }),
    );
    await archive.close();
    const bytes = (await import('node:zlib')).gunzipSync(await readFile(join(dir, 'h2.warc.gz'))).toString('latin1');
    expect(bytes).toContain('\r\nHTTP/1.1 200 \r\ncontent-type: text/html\r\n');
    expect(bytes).toContain('\r\nGET /page HTTP/1.1\r\nhost: example.com\r\nuser-agent: linkladder\r\n\r\n');
    expect(bytes).not.toMatch(/^:/m);
    const records = await read(join(dir, 'h2.warc.gz'));
    const response = records.find((record) => record.type === 'response')!;
    const request = records.find((record) => record.type === 'request')!;
    expect(response.statusCode).toBe(200);
    expect(response.warc.get('warc-protocol')).toBe('h2');
    expect(request.warc.get('warc-protocol')).toBe('h2');
  });

  it('a request sent with no response is a request record alone; one never sent is no record', async () => {
    const told: ArchivedRecordData[] = [];
    const archive = await open(join(dir, 'alone.warc.gz'), (record) => told.push(record));
    archive.onExchange(exchange({ url: 'https://example.com/timeout', status: undefined, statusText: undefined, responseHeaders: [], body: new Uint8Array(), errorCode: 'ERR_FETCH_TIMEOUT' }));
    archive.onExchange(exchange({ url: 'https://example.com/refused', httpVersion: undefined, status: undefined, statusText: undefined, responseHeaders: [], body: new Uint8Array(), errorCode: 'ERR_FETCH_NETWORK' }));
    const summary = await archive.close();
    const records = await read(join(dir, 'alone.warc.gz'));
    expect(records.map((record) => [record.type, record.warc.get('warc-target-uri')])).toEqual([
      ['warcinfo', undefined],
      ['request', 'https://example.com/timeout'],
    ]);
    expect(records[1]!.warc.has('warc-concurrent-to')).toBe(false);
    expect(summary).toMatchObject({ responses: 0, revisits: 0, requestsAlone: 1, error: undefined });
    expect(told).toEqual([{ uri: 'https://example.com/timeout', file: 'alone.warc.gz', offset: expect.any(Number), length: expect.any(Number), type: 'request', payloadDigest: undefined, date: new Date('2026-11-27T12:00:00.000Z'), status: undefined }]);
  });

  it('leaves out Authorization, Cookie, Set-Cookie and the header names given, and a URL\'s userinfo; tells onArchived where each record lies', async () => {
    const told: ArchivedRecordData[] = [];
    const archive = await open(join(dir, 'secrets.warc.gz'), (record) => told.push(record));
    archive.onExchange(exchange({ url: 'https://user:pw@example.com/page' }));
    archive.onExchange(exchange({ url: 'https://example.com/again' }));
    await archive.close();
    const text = (await import('node:zlib')).gunzipSync(await readFile(join(dir, 'secrets.warc.gz'))).toString('latin1');
    for (const secret of ['s3cret', 'c00kie', 'k3y', 'setc00kie', 'user:pw']) expect(text).not.toContain(secret);
    expect(told.map((record) => [record.uri, record.type, record.status])).toEqual([
      ['https://example.com/page', 'response', 200],
      ['https://example.com/again', 'revisit', 200],
    ]);
    const bytes = await readFile(join(dir, 'secrets.warc.gz'));
    for (const record of told) {
      const parser = new WARCParser([bytes.subarray(record.offset, record.offset + record.length)]);
      const one = await parser.parse();
      expect(one?.warcTargetURI).toBe(record.uri);
      expect(one?.warcPayloadDigest).toBe(record.payloadDigest);
    }
  });

  it('a failed write is recorded once, and the archive goes on with the next records', async () => {
    const path = join(dir, 'full.warc.gz');
    const archive = await open(path, undefined, 1500);
    // The next file of the series appears behind the writer's back: rotating into it fails.
    await writeFile(join(dir, 'full-00001.warc.gz'), 'not ours');
    const big = new TextEncoder().encode('x'.repeat(2000));
    for (let i = 0; i < 4; i++) archive.onExchange(exchange({ url: `https://example.com/p${i}`, body: big.map((byte) => byte + (i % 2)) }));
    const summary = await archive.close();
    expect(summary.error).toMatch(/EEXIST/);
    expect(summary.responses + summary.revisits).toBeGreaterThanOrEqual(2);
    expect(await readFile(join(dir, 'full-00001.warc.gz'), 'utf8')).toBe('not ours');
    for (const file of summary.files) await read(file);
  });
});
