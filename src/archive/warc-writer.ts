// A WARC/1.1 writer (ISO 28500:2017): a `warcinfo` record opening each file, then a
// `request` and a `response` record per exchange, or a `revisit` where the payload is
// already in the archive; one gzip member per record, so any record can be read alone
// from its offset. The warcinfo is built by Webrecorder's warcio (the library pywb and
// browsertrix use), the exchanges' records here (encodeRecord), a large one gzipped
// off the main thread. warcio is imported when the first writer opens: a crawl that archives nothing
// never loads it.

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import { gzip, gzipSync, inflateRawSync } from 'node:zlib';
import { ArchiveError } from '../errors.js';
import type { CdxjEntry } from './cdxj.js';

/** ISO 28500:2017 Annex K revisit profiles. */
export const REVISIT_IDENTICAL_PAYLOAD = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
export const REVISIT_SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/** Rotate before a file passes this many bytes (1 GB, the customary WARC size). */
export const DEFAULT_WARC_MAX_BYTES = 1_000_000_000;

export interface WarcWriterOptions {
  /** A file is closed and the next one opened before a record would take it past this size. */
  readonly maxBytes?: number;
  /** linkladder's version, written as `software: linkladder/<version>` in each warcinfo. */
  readonly version: string;
  /** Plain data describing the run (the crawl's settings), written in each warcinfo. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /**
   * Payloads already in the archive (earlier runs' files, from `readPayloadCaptures`):
   * a body with one of these digests is written as a revisit of that capture.
   */
  readonly knownPayloads?: Iterable<PayloadCapture>;
}

/** The first capture of a payload: its digest, and the response that carried it. */
export interface PayloadCapture {
  readonly digest: string;
  readonly uri: string;
  readonly date: Date;
}

/** One HTTP exchange as it went over the wire. */
export interface WarcExchange {
  readonly method: string;
  readonly uri: string;
  /** The request's header lines as sent, without line ends (`Host: example.com`). */
  readonly requestHeaderLines: readonly string[];
  /** `1.1`, `2`… as it goes in the status line after `HTTP/`. */
  readonly httpVersion: string;
  readonly status: number;
  readonly reason: string;
  /** The response's header lines as received, without line ends. */
  readonly responseHeaderLines: readonly string[];
  /** The body as received: content-encoded, transfer coding removed. Empty for a 304. */
  readonly body: Uint8Array;
  readonly remoteIp?: string;
  readonly date: Date;
  /** A 304 to a conditional request: written as a server-not-modified revisit. */
  readonly notModified?: boolean;
  /** For a 304: the earlier capture it confirms, when known. */
  readonly refersTo?: { readonly uri: string; readonly date: Date };
  /**
   * The body was not read to its end (a cap, a deadline, a reset): the record says so
   * with `WARC-Truncated: length` (ISO 28500 §5.13).
   */
  readonly isTruncated?: boolean;
  /**
   * The response came with `Transfer-Encoding: chunked` and `body` is de-chunked: the
   * block carries the body again as one chunk, so that a reader that honours the header
   * reads the body; the payload digest stays that of the body.
   */
  readonly isChunked?: boolean;
  /** `WARC-Protocol` of the exchange when it was not HTTP/1.x (`h2`: HTTP/2 over TLS). */
  readonly protocol?: string;
}

/** Where the response (or revisit) record of one exchange lies. */
export interface WarcRecordLocation {
  readonly file: string;
  readonly offset: number;
  readonly length: number;
  readonly type: 'response' | 'revisit' | 'request';
  /** The response's or revisit's WARC-Payload-Digest; none for a 304 or a request alone. */
  readonly payloadDigest: string | undefined;
}

type Warcio = typeof import('warcio');

let warcioModule: Promise<Warcio> | undefined;
function loadWarcio(): Promise<Warcio> {
  warcioModule ??= import('warcio');
  return warcioModule;
}

const WARC_SUFFIX = '.warc.gz';

/**
 * File names of one archive: the path given (`crawl.warc.gz`) is the first file, serial 0;
 * rotation and later runs go on at `crawl-00001.warc.gz`, `crawl-00002.warc.gz`…
 */
export function warcFileName(base: string, serial: number): string {
  return serial === 0 ? `${base}${WARC_SUFFIX}` : `${base}-${String(serial).padStart(5, '0')}${WARC_SUFFIX}`;
}

/** The base an archive path names: `x.warc.gz` → `x`; any other name is the base itself. */
export function warcBase(path: string): string {
  return path.endsWith(WARC_SUFFIX) ? path.slice(0, -WARC_SUFFIX.length) : path;
}

/** The serials already on disk for `base`, ascending. */
export async function existingWarcSerials(base: string): Promise<number[]> {
  const name = basename(base);
  let entries: string[];
  try {
    entries = await readdir(dirname(base));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const serials: number[] = [];
  for (const entry of entries) {
    if (entry === `${name}${WARC_SUFFIX}`) serials.push(0);
    else if (entry.startsWith(`${name}-`) && entry.endsWith(WARC_SUFFIX)) {
      const serial = entry.slice(name.length + 1, -WARC_SUFFIX.length);
      if (/^\d{5,}$/.test(serial)) serials.push(Number(serial));
    }
  }
  return serials.sort((a, b) => a - b);
}

// RFC 4648 §6 base32, the form of `sha256:` digests in WARC files written by warcio and pywb.
const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** `sha256:<base32>`, the digest form of every WARC-*-Digest this writer writes. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${base32(createHash('sha256').update(bytes).digest())}`;
}

const CRLF = '\r\n';

function requestTarget(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.pathname}${url.search}`;
  } catch {
    return uri;
  }
}

function headerValue(lines: readonly string[], name: string): string | undefined {
  const prefix = `${name.toLowerCase()}:`;
  const line = lines.find((candidate) => candidate.toLowerCase().startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

interface FirstCapture {
  readonly uri: string;
  readonly date: Date;
}

/**
 * Writes exchanges to a WARC archive. Writes are queued and done one at a time; each
 * record (one gzip member) is written whole with one write, after its request record.
 */
export class WarcWriter {
  private handle: FileHandle | undefined;
  private file = '';
  private size = 0;
  private infoSize = 0;
  private serial: number;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly seen = new Map<string, FirstCapture>();
  private readonly entries: CdxjEntry[] = [];
  private readonly filesWritten: string[] = [];
  private closed = false;

  private constructor(
    private readonly warcio: Warcio,
    readonly base: string,
    firstSerial: number,
    private readonly options: WarcWriterOptions,
  ) {
    this.serial = firstSerial;
    for (const capture of options.knownPayloads ?? []) if (!this.seen.has(capture.digest)) this.seen.set(capture.digest, capture);
  }

  /**
   * Opens an archive at `path` (`crawl.warc.gz`). A run never appends to a file an
   * earlier run wrote: it starts at the first serial after those on disk.
   */
  static async open(path: string, options: WarcWriterOptions): Promise<WarcWriter> {
    const base = warcBase(path);
    const serials = await existingWarcSerials(base);
    const writer = new WarcWriter(await loadWarcio(), base, serials.length === 0 ? 0 : serials[serials.length - 1]! + 1, options);
    await writer.startFile();
    return writer;
  }

  /** The current file. */
  get currentFile(): string {
    return this.file;
  }

  /** Every file this writer has opened, in order. */
  get files(): readonly string[] {
    return this.filesWritten;
  }

  /** One index entry per response and revisit record written, in write order. */
  get cdxjEntries(): readonly CdxjEntry[] {
    return this.entries;
  }

  write(exchange: WarcExchange): Promise<WarcRecordLocation> {
    if (this.closed) return Promise.reject(new ArchiveError('ERR_ARCHIVE_CLOSED'));
    // Decided now, in call order (which payload is first); encoded at once, off the
    // main thread; written to the file in call order.
    let commit: () => Promise<WarcRecordLocation>;
    try {
      commit = this.prepareExchange(exchange);
    } catch (error) {
      return Promise.reject(error);
    }
    const result = this.queue.then(commit);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Writes the request record of an exchange that got no response (the connection
   * failed after the request was sent): the request alone, no response to name.
   */
  writeRequest(exchange: Omit<WarcExchange, 'status' | 'reason' | 'responseHeaderLines' | 'body'>): Promise<WarcRecordLocation> {
    if (this.closed) return Promise.reject(new ArchiveError('ERR_ARCHIVE_CLOSED'));
    const encoded = this.requestRecord(exchange, commonHeaders(exchange), undefined);
    encoded.catch(() => undefined);
    const result = this.queue.then(() => this.writeRequestOnly(encoded));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Waits for the queued writes and closes the current file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.handle?.close();
    this.handle = undefined;
  }

  private get maxBytes(): number {
    return this.options.maxBytes ?? DEFAULT_WARC_MAX_BYTES;
  }

  private async serialize(record: import('warcio').WARCRecord): Promise<Uint8Array> {
    return this.warcio.WARCSerializer.serialize(record, { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:', base32: true } });
  }

  private async startFile(): Promise<void> {
    await this.handle?.close();
    this.file = warcFileName(this.base, this.serial);
    // 'wx': never overwrite a file, even one that appeared since open() looked.
    this.handle = await open(this.file, 'wx');
    this.filesWritten.push(this.file);
    const info: Record<string, string> = { software: `linkladder/${this.options.version}`, format: 'WARC File Format 1.1' };
    for (const [key, value] of Object.entries(this.options.settings ?? {})) {
      // application/warc-fields is one `name: value` line per field: a line end or colon
      // inside a name, or a line end inside a value, would forge another field.
      if (value !== undefined) info[key.replace(/[\r\n:]+/g, '_')] = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/[\r\n]+/g, ' ');
    }
    const record = this.warcio.WARCRecord.createWARCInfo({ filename: basename(this.file), warcVersion: 'WARC/1.1', date: new Date().toISOString() }, info);
    const bytes = await this.serialize(record);
    await this.handle.write(bytes, 0, bytes.length, 0);
    this.size = bytes.length;
    this.infoSize = bytes.length;
  }

  private requestRecord(exchange: Omit<WarcExchange, 'status' | 'reason' | 'responseHeaderLines' | 'body'>, common: readonly [string, string][], concurrentTo: string | undefined): Promise<Uint8Array> {
    const requestBlock = new TextEncoder().encode(`${exchange.method} ${requestTarget(exchange.uri)} HTTP/${exchange.httpVersion}${CRLF}${exchange.requestHeaderLines.map((line) => line + CRLF).join('')}${CRLF}`);
    const headers: [string, string][] = [...common, ['Content-Type', 'application/http; msgtype=request']];
    if (concurrentTo !== undefined) headers.push(['WARC-Concurrent-To', concurrentTo]);
    return encodeRecord('request', exchange.uri, exchange.date, headers, requestBlock, randomUUID());
  }

  private async writeRequestOnly(encoded: Promise<Uint8Array>): Promise<WarcRecordLocation> {
    const bytes = await encoded;
    if (this.size > this.infoSize && this.size + bytes.length > this.maxBytes) {
      this.serial += 1;
      await this.startFile();
    }
    const offset = this.size;
    await this.handle!.write(bytes, 0, bytes.length, offset);
    this.size += bytes.length;
    return { file: this.file, offset, length: bytes.length, type: 'request', payloadDigest: undefined };
  }

  private prepareExchange(exchange: WarcExchange): () => Promise<WarcRecordLocation> {
    const encoder = new TextEncoder();
    // RFC 9112 §4: the space before the reason phrase is there even when the phrase is empty.
    const responseHead = encoder.encode(`HTTP/${exchange.httpVersion} ${exchange.status} ${exchange.reason}${CRLF}${exchange.responseHeaderLines.map((line) => line + CRLF).join('')}${CRLF}`);
    const common = commonHeaders(exchange);

    let type: 'response' | 'revisit' = 'response';
    let block: Uint8Array;
    let profile: string | undefined;
    let refersTo: FirstCapture | undefined;
    const payloadDigest = exchange.notModified === true ? undefined : sha256Digest(exchange.body);
    if (exchange.notModified === true) {
      type = 'revisit';
      profile = REVISIT_SERVER_NOT_MODIFIED;
      refersTo = exchange.refersTo;
      block = responseHead;
    } else {
      // An empty payload is not deduplicated: its revisit would be no smaller, and it
      // would point every redirect at one unrelated capture.
      const first = exchange.body.length > 0 ? this.seen.get(payloadDigest!) : undefined;
      if (first !== undefined) {
        type = 'revisit';
        profile = REVISIT_IDENTICAL_PAYLOAD;
        refersTo = first;
        block = responseHead;
      } else {
        block = concat([responseHead, ...(exchange.isChunked === true ? oneChunk(exchange.body) : [exchange.body])]);
        if (exchange.body.length > 0) this.seen.set(payloadDigest!, { uri: exchange.uri, date: exchange.date });
      }
    }

    const responseHeaders: [string, string][] = [...common, ['Content-Type', 'application/http; msgtype=response']];
    if (payloadDigest !== undefined) responseHeaders.push(['WARC-Payload-Digest', payloadDigest]);
    // ISO 28500 §5.13: the payload is shorter than what the server sent.
    if (exchange.isTruncated === true && type === 'response') responseHeaders.push(['WARC-Truncated', 'length']);
    if (profile !== undefined) responseHeaders.push(['WARC-Profile', profile]);
    if (refersTo !== undefined) responseHeaders.push(['WARC-Refers-To-Target-URI', refersTo.uri], ['WARC-Refers-To-Date', refersTo.date.toISOString()]);
    const responseId = randomUUID();
    const encoded = Promise.all([
      encodeRecord(type, exchange.uri, exchange.date, responseHeaders, block, responseId),
      this.requestRecord(exchange, common, `<urn:uuid:${responseId}>`),
    ]);
    // Awaited when its turn comes; a failure then rejects this write.
    encoded.catch(() => undefined);
    return () => this.writePair(exchange, type, payloadDigest, encoded);
  }

  private async writePair(exchange: WarcExchange, type: 'response' | 'revisit', payloadDigest: string | undefined, encoded: Promise<[Uint8Array, Uint8Array]>): Promise<WarcRecordLocation> {
    const [responseBytes, requestBytes] = await encoded;
    const pairLength = responseBytes.length + requestBytes.length;
    // Rotate before the pair would pass maxBytes, unless the file holds only its
    // warcinfo: a pair larger than maxBytes then gets a file of its own.
    if (this.size > this.infoSize && this.size + pairLength > this.maxBytes) {
      this.serial += 1;
      await this.startFile();
    }
    const offset = this.size;
    const pair = new Uint8Array(pairLength);
    pair.set(responseBytes, 0);
    pair.set(requestBytes, responseBytes.length);
    await this.handle!.write(pair, 0, pair.length, offset);
    this.size += pairLength;

    const contentType = headerValue(exchange.responseHeaderLines, 'content-type');
    this.entries.push({
      url: exchange.uri,
      date: exchange.date,
      mime: type === 'revisit' ? 'warc/revisit' : (contentType?.split(';')[0]?.trim().toLowerCase() || 'unk'),
      status: exchange.status,
      ...(payloadDigest !== undefined ? { digest: payloadDigest } : {}),
      length: responseBytes.length,
      offset,
      filename: basename(this.file),
    });
    return { file: this.file, offset, length: responseBytes.length, type, payloadDigest };
  }
}

const gzipAsync = promisify(gzip);

/**
 * One record as a gzip member (ISO 28500 §4: version line, named fields, a blank line,
 * the block, two line ends), its `WARC-Block-Digest` computed over the block. Built here
 * rather than by warcio's serializer, which takes some milliseconds a record (its gzip
 * and its digests run through web streams and WebAssembly). Each record is
 * read back by warcio in the tests.
 */
async function encodeRecord(type: string, uri: string, date: Date, fields: readonly (readonly [string, string])[], block: Uint8Array, id: string): Promise<Uint8Array> {
  const lines = [
    'WARC/1.1',
    `WARC-Type: ${type}`,
    `WARC-Record-ID: <urn:uuid:${id}>`,
    `WARC-Date: ${date.toISOString()}`,
    `WARC-Target-URI: ${uri}`,
    ...fields.map(([name, value]) => `${name}: ${value}`),
    `WARC-Block-Digest: ${sha256Digest(block)}`,
    `Content-Length: ${block.length}`,
  ];
  const head = new TextEncoder().encode(`${lines.join(CRLF)}${CRLF}${CRLF}`);
  const record = concat([head, block, TRAILER]);
  // A small record costs less gzipped at once (~0.1 ms for a few KiB) than handed to the
  // thread pool and back; a large one would hold the event loop, and goes there.
  return record.length <= SYNC_GZIP_MAX_BYTES ? gzipSync(record) : gzipAsync(record);
}

const SYNC_GZIP_MAX_BYTES = 64 * 1024;

const TRAILER = new TextEncoder().encode(`${CRLF}${CRLF}`);

function commonHeaders(exchange: Pick<WarcExchange, 'remoteIp' | 'protocol'>): [string, string][] {
  const common: [string, string][] = [];
  if (exchange.remoteIp !== undefined && exchange.remoteIp !== '') common.push(['WARC-IP-Address', exchange.remoteIp]);
  if (exchange.protocol !== undefined) common.push(['WARC-Protocol', exchange.protocol]);
  return common;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** RFC 9112 §7.1: the body as one chunk and the last chunk (no chunk for an empty body). */
function oneChunk(body: Uint8Array): Uint8Array[] {
  const encoder = new TextEncoder();
  const last = encoder.encode(`0${CRLF}${CRLF}`);
  return body.length === 0 ? [last] : [encoder.encode(`${body.length.toString(16)}${CRLF}`), body, encoder.encode(CRLF), last];
}

const EMPTY_PAYLOAD = sha256Digest(new Uint8Array());

/**
 * The first capture of each non-empty payload in `files` (response records, in file
 * order), for a resumed run's `knownPayloads`. Trim a torn tail first: a file that does
 * not parse to its end rejects.
 */
export async function readPayloadCaptures(files: readonly string[]): Promise<PayloadCapture[]> {
  const { WARCParser } = await loadWarcio();
  const captures = new Map<string, PayloadCapture>();
  for (const file of files) {
    for await (const record of new WARCParser(createReadStream(file) as AsyncIterable<Uint8Array>, { parseHttp: false })) {
      const digest = record.warcPayloadDigest;
      const uri = record.warcTargetURI;
      const date = record.warcDate;
      if (record.warcType === 'response' && digest && digest !== EMPTY_PAYLOAD && uri && date && !captures.has(digest)) captures.set(digest, { digest, uri, date: new Date(date) });
      await record.skipFully();
    }
  }
  return [...captures.values()];
}

/**
 * Cuts `file` back to the end of its last whole gzip member (one WARC record each), so
 * a file a killed run was writing reads cleanly to its last byte. Returns the bytes cut.
 * RFC 1952 §2.3 gives the member layout walked here.
 */
export async function trimTornTail(file: string): Promise<number> {
  const bytes = await readFile(file);
  let position = 0;
  while (position < bytes.length) {
    const end = gzipMemberEnd(bytes, position);
    if (end === undefined) break;
    position = end;
  }
  const cut = bytes.length - position;
  if (cut > 0) await truncate(file, position);
  return cut;
}

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/** The offset just past the gzip member at `start`, or undefined if it is not whole. */
function gzipMemberEnd(bytes: Uint8Array, start: number): number | undefined {
  if (bytes.length - start < 18 || bytes[start] !== 0x1f || bytes[start + 1] !== 0x8b || bytes[start + 2] !== 8) return undefined;
  const flags = bytes[start + 3]!;
  let position = start + 10;
  if (flags & FEXTRA) {
    if (position + 2 > bytes.length) return undefined;
    position += 2 + (bytes[position]! | (bytes[position + 1]! << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (flags & flag) {
      while (position < bytes.length && bytes[position] !== 0) position += 1;
      position += 1;
    }
  }
  if (flags & FHCRC) position += 2;
  if (position >= bytes.length) return undefined;
  let consumed: number;
  let inflated: Buffer;
  try {
    const result = inflateRawSync(bytes.subarray(position), { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    consumed = result.engine.bytesWritten;
    inflated = result.buffer;
  } catch {
    return undefined;
  }
  const trailer = position + consumed;
  if (trailer + 8 > bytes.length) return undefined;
  // ISIZE: the inflated length modulo 2^32.
  const isize = (bytes[trailer + 4]! | (bytes[trailer + 5]! << 8) | (bytes[trailer + 6]! << 16) | (bytes[trailer + 7]! << 24)) >>> 0;
  if (isize !== inflated.length % 2 ** 32) return undefined;
  return trailer + 8;
}

