// WACZ 1.1.1 packaging (https://specs.webrecorder.net/wacz/1.1.1/): a ZIP holding the
// WARC files (stored, not recompressed, so a replay tool reads a record by its offset
// with a range request), a CDXJ index, the page list and a datapackage.json that names
// every file with its sha256 and size. Files are streamed: a 1 GB WARC is never held
// in memory. The package is written beside and renamed, so a kill leaves no half file
// under the final name.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, open, rename, stat, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createGunzip, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import yazl from 'yazl';
import { ArchiveError } from '../errors.js';
import { cdxjLine, compareCdxjLines, type CdxjEntry } from './cdxj.js';
import { htmlTitle } from './html-title.js';
import { existingWarcSerials, warcBase, warcFileName } from './warc-writer.js';

/** WACZ 1.1.1 §datapackage.json: the version this writer follows. */
export const WACZ_VERSION = '1.1.1';

/** A page body larger than this (on the wire or decoded) is listed without a title. */
const MAX_TITLE_SCAN_BYTES = 4 * 1024 * 1024;

export interface WriteWaczOptions {
  /** The package to write (`crawl.wacz`). Written as `<out>.tmp-<pid>` first, then renamed. */
  readonly out: string;
  /** The WARC files, in order (`crawl.warc.gz`, `crawl-00001.warc.gz`…). Their base names must differ. */
  readonly warcFiles: readonly string[];
  /**
   * A CDXJ index of these files (`crawl.cdxj`), copied as is when it names exactly the
   * response and revisit records in them. When absent, when it names others (an index a
   * killed run left behind: `staleIndex`), or when a WARC file has a torn tail, the index
   * is built from the WARC files.
   */
  readonly cdxjFile?: string;
  /** @default now */
  readonly created?: Date;
  /** Written in datapackage.json (`linkladder/0.1.0`). */
  readonly software: string;
  /** Written in datapackage.json when given. */
  readonly title?: string;
}

/** A WARC file whose last record was cut (a killed writer): only its whole records are packaged. */
export interface TornWarc {
  readonly file: string;
  /** Bytes packaged: the file up to the end of its last whole record. */
  readonly keptBytes: number;
  /** Bytes left out after them. */
  readonly droppedBytes: number;
}

export interface WaczSummary {
  readonly out: string;
  readonly warcFiles: number;
  /** WARC records in the packaged files, of every type. */
  readonly records: number;
  /** Lines of the CDXJ index (response and revisit records). */
  readonly captures: number;
  readonly pages: number;
  /** Size of the package written. */
  readonly bytes: number;
  /** Whether the index was copied from `cdxjFile` or built from the WARC files. */
  readonly index: 'copied' | 'built';
  /** The `cdxjFile` given, when it did not name exactly the captures in the WARC files: the index was built instead. */
  readonly staleIndex?: StaleIndex;
  readonly torn: readonly TornWarc[];
}

export interface StaleIndex {
  readonly file: string;
  /** Records (file and offset) the given index names. */
  readonly captures: number;
  /** Response and revisit records in the WARC files. */
  readonly expected: number;
}

/** One line of pages/pages.jsonl (WACZ 1.1.1 §pages.jsonl). */
export interface WaczPage {
  readonly id: string;
  readonly url: string;
  readonly ts: string;
  readonly title?: string;
}

interface Resource {
  readonly name: string;
  readonly path: string;
  readonly hash: string;
  readonly bytes: number;
}

interface ScannedWarc {
  readonly file: string;
  readonly name: string;
  readonly records: number;
  readonly entries: CdxjEntry[];
  readonly pages: WaczPage[];
  readonly keptBytes: number;
  readonly size: number;
  /** sha256 hex of the whole file; recomputed over the kept bytes when torn. */
  readonly sha256: string;
}

type Warcio = typeof import('warcio');
let warcioModule: Promise<Warcio> | undefined;
function loadWarcio(): Promise<Warcio> {
  warcioModule ??= import('warcio');
  return warcioModule;
}

/**
 * Packages WARC files as a WACZ 1.1.1 file. The page list holds each URL's first
 * capture of an HTML page with status 200, titled from its `<title>`. A WARC file whose
 * last record was cut by a killed writer is packaged up to its last whole record, and
 * named in `torn`.
 */
export async function writeWacz(options: WriteWaczOptions): Promise<WaczSummary> {
  const created = options.created ?? new Date();
  if (options.warcFiles.length === 0) throw new ArchiveError('ERR_ARCHIVE_MISSING_FILE', 'no WARC file to package: the list is empty');
  const names = new Set<string>();
  for (const file of options.warcFiles) {
    const name = basename(file);
    if (names.has(name)) throw new ArchiveError('ERR_ARCHIVE_DUPLICATE_NAME', `two WARC files are named ${JSON.stringify(name)}: they would be one file in the package`);
    names.add(name);
  }
  for (const file of options.warcFiles) await requireRegularFile(file);
  if (options.cdxjFile !== undefined) await requireRegularFile(options.cdxjFile);

  const warcio = await loadWarcio();
  const scanned: ScannedWarc[] = [];
  for (const file of options.warcFiles) scanned.push(await scanWarc(warcio, file));
  const torn = scanned.filter((warc) => warc.keptBytes < warc.size).map((warc) => ({ file: warc.file, keptBytes: warc.keptBytes, droppedBytes: warc.size - warc.keptBytes }));

  const resources: Resource[] = [];
  const zip = new yazl.ZipFile();
  const mtime = created;
  for (const warc of scanned) {
    const path = `archive/${warc.name}`;
    resources.push({ name: warc.name, path, hash: `sha256:${warc.sha256}`, bytes: warc.keptBytes });
    // WACZ 1.1.1 §archive/: stored, so a record's offset in the WARC is a byte range of the entry.
    zip.addReadStreamLazy(path, { compress: false, mtime, size: warc.keptBytes }, (callback) => {
      callback(null, createReadStream(warc.file, { start: 0, end: warc.keptBytes - 1 }));
    });
  }

  let index: 'copied' | 'built' = 'built';
  let captures: number;
  let staleIndex: StaleIndex | undefined;
  const expected = new Set(scanned.flatMap((warc) => warc.entries.map((entry) => `${entry.filename} ${entry.offset}`)));
  if (options.cdxjFile !== undefined && torn.length === 0) {
    // Copied only when it names exactly the captures found: an index a killed run left
    // behind (missing its last files) would hide them from replay.
    const given = await indexedRecords(options.cdxjFile);
    if (given.size === expected.size && [...expected].every((record) => given.has(record))) index = 'copied';
    else staleIndex = { file: options.cdxjFile, captures: given.size, expected: expected.size };
  }
  if (index === 'copied') {
    const cdxjFile = options.cdxjFile!;
    const { sha256, bytes, lines } = await digestFile(cdxjFile);
    captures = lines;
    resources.push({ name: 'index.cdxj', path: 'indexes/index.cdxj', hash: `sha256:${sha256}`, bytes });
    zip.addReadStreamLazy('indexes/index.cdxj', { mtime, size: bytes }, (callback) => callback(null, createReadStream(cdxjFile)));
  } else {
    const lines = [...new Set(scanned.flatMap((warc) => warc.entries.map(cdxjLine)))].sort(compareCdxjLines);
    captures = lines.length;
    addBuffer(zip, resources, 'index.cdxj', 'indexes/index.cdxj', Buffer.from(lines.length > 0 ? `${lines.join('\n')}\n` : ''), mtime);
  }

  const pages = firstCaptures(scanned.flatMap((warc) => warc.pages));
  // WACZ 1.1.1 §pages.jsonl: a header line naming the format, then one JSON object per page.
  const pageLines = [JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }), ...pages.map((page) => JSON.stringify(page))];
  addBuffer(zip, resources, 'pages.jsonl', 'pages/pages.jsonl', Buffer.from(`${pageLines.join('\n')}\n`), mtime);

  // WACZ 1.1.1 §datapackage.json: a Frictionless data package listing every other file.
  const datapackage = Buffer.from(
    `${JSON.stringify(
      {
        profile: 'data-package',
        resources,
        wacz_version: WACZ_VERSION,
        ...(options.title !== undefined ? { title: options.title } : {}),
        created: created.toISOString(),
        software: options.software,
      },
      null,
      2,
    )}\n`,
  );
  zip.addBuffer(datapackage, 'datapackage.json', { mtime });
  // WACZ 1.1.1 §datapackage-digest.json: the hash of datapackage.json, so the whole package can be checked from one value.
  zip.addBuffer(Buffer.from(`${JSON.stringify({ path: 'datapackage.json', hash: `sha256:${sha256Hex(datapackage)}` }, null, 2)}\n`), 'datapackage-digest.json', { mtime });
  zip.end();

  const temporary = `${options.out}.tmp-${process.pid}`;
  try {
    await pipeline(zip.outputStream, createWriteStream(temporary, { flags: 'wx' }));
    await rename(temporary, options.out);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    if (error instanceof ArchiveError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArchiveError('ERR_ARCHIVE_WACZ_WRITE', `cannot write ${options.out}: ${code ?? (error as Error).message}`, { cause: error });
  }
  const { size } = await stat(options.out);
  return {
    out: options.out,
    warcFiles: scanned.length,
    records: scanned.reduce((sum, warc) => sum + warc.records, 0),
    captures,
    pages: pages.length,
    bytes: size,
    index,
    ...(staleIndex === undefined ? {} : { staleIndex }),
    torn,
  };
}

async function requireRegularFile(file: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(file)).isFile();
  } catch (error) {
    throw new ArchiveError('ERR_ARCHIVE_MISSING_FILE', `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  if (!isFile) throw new ArchiveError('ERR_ARCHIVE_MISSING_FILE', `${file} is not a regular file`);
}

function addBuffer(zip: yazl.ZipFile, resources: Resource[], name: string, path: string, bytes: Buffer, mtime: Date): void {
  resources.push({ name, path, hash: `sha256:${sha256Hex(bytes)}`, bytes: bytes.length });
  zip.addBuffer(bytes, path, { mtime });
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function digestFile(file: string, end?: number): Promise<{ sha256: string; bytes: number; lines: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let lines = 0;
  for await (const chunk of createReadStream(file, end === undefined ? {} : { start: 0, end: end - 1 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  return { sha256: hash.digest('hex'), bytes, lines };
}

/** The records (`<filename> <offset>`) a CDXJ file names; a line that does not parse names none. */
async function indexedRecords(file: string): Promise<Set<string>> {
  const records = new Set<string>();
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    const brace = line.indexOf('{');
    if (brace < 0) continue;
    try {
      const fields = JSON.parse(line.slice(brace)) as { filename?: unknown; offset?: unknown };
      if (typeof fields.filename === 'string' && fields.offset !== undefined) records.add(`${fields.filename} ${Number(fields.offset)}`);
    } catch {
      // Not JSON: the index is not what this writer reads, and will not match.
    }
  }
  return records;
}

/** Each URL's earliest page, in capture order. */
function firstCaptures(pages: readonly WaczPage[]): WaczPage[] {
  const byUrl = new Map<string, WaczPage>();
  for (const page of pages) {
    const earlier = byUrl.get(page.url);
    if (earlier === undefined || page.ts < earlier.ts) byUrl.set(page.url, page);
  }
  return [...byUrl.values()].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

interface PendingRecord {
  readonly offset: number;
  length: number;
  readonly entry: Omit<CdxjEntry, 'length' | 'offset'> | undefined;
  readonly page: WaczPage | undefined;
}

/**
 * Reads one WARC file with warcio: its index entries, its pages, and how much of it is
 * whole. warcio reads a torn last record without complaint (its body just ends early), so
 * a record counts only once the next one starts right after it, or, for the last one,
 * once its gzip member inflates to its trailer.
 */
async function scanWarc(warcio: Warcio, file: string): Promise<ScannedWarc> {
  const name = basename(file);
  const size = (await stat(file)).size;
  const hash = createHash('sha256');
  async function* tapped(): AsyncGenerator<Uint8Array> {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      yield chunk;
    }
  }
  // warcio counts a record of an uncompressed file without the CRLF CRLF that closes it (ISO 28500 §4).
  const trailer = (await isGzipFile(file)) ? 0 : 4;
  const parser = new warcio.WARCParser(tapped());
  const entries: CdxjEntry[] = [];
  const pages: WaczPage[] = [];
  let records = 0;
  let keptBytes = 0;
  let pending: PendingRecord | undefined;
  const commit = (record: PendingRecord): void => {
    records += 1;
    keptBytes = record.offset + record.length;
    if (record.entry !== undefined) entries.push({ ...record.entry, offset: record.offset, length: record.length });
    if (record.page !== undefined) pages.push(record.page);
  };
  try {
    for await (const record of parser) {
      const offset = parser.offset;
      if (!(record.warcHeaders.protocol ?? record.warcHeaders.statusline).startsWith('WARC/')) throw new Error('its first line is not WARC/1.0 or WARC/1.1');
      if (pending !== undefined) {
        if (offset !== pending.offset + pending.length) break;
        commit(pending);
      }
      const { entry, page } = await readRecord(record, name);
      pending = { offset, length: parser.recordLength + trailer, entry, page };
    }
  } catch (error) {
    if (pending === undefined && records === 0) throw new ArchiveError('ERR_ARCHIVE_NOT_WARC', `${file} is not a WARC file: ${(error as Error).message}`, { cause: error });
    // A record that does not parse ends the whole part of the file: what came before it is kept.
    pending = undefined;
  }
  if (pending !== undefined && (await isWholeLastRecord(file, pending.offset, pending.offset + pending.length, size))) commit(pending);
  if (records === 0) throw new ArchiveError('ERR_ARCHIVE_NOT_WARC', `${file} is not a WARC file: no whole record`);
  // The tap saw the whole file only if the parser read to its end.
  const sha256 = keptBytes === size ? hash.digest('hex') : (await digestFile(file, keptBytes)).sha256;
  return { file, name, records, entries, pages, keptBytes, size, sha256 };
}

async function isGzipFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the last record read, `[start, end)`, is whole: in a gzip file its member
 * inflates to a complete trailer (RFC 1952 §2.3); in a plain file it ends at the file's
 * end with the CRLF CRLF that closes a record (ISO 28500 §4).
 */
async function isWholeLastRecord(file: string, start: number, end: number, size: number): Promise<boolean> {
  if (end > size || end - start < 4) return false;
  const handle = await open(file, 'r');
  const head = Buffer.alloc(2);
  const tail = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 2, start);
    await handle.read(tail, 0, 4, end - 4);
  } finally {
    await handle.close();
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) return end === size && tail.toString('latin1') === '\r\n\r\n';
  try {
    await pipeline(createReadStream(file, { start, end: end - 1 }), createGunzip(), async function* (source: AsyncIterable<Buffer>) {
      for await (const _chunk of source);
    });
    return true;
  } catch {
    return false;
  }
}

type WarcRecord = import('warcio').WARCRecord;

/** Reads a record's rest and drops it. warcio's skipFully() never settles on an uncompressed record cut short; reading it does. */
async function drain(record: WarcRecord): Promise<void> {
  for await (const _chunk of record);
}

async function readRecord(record: WarcRecord, filename: string): Promise<{ entry: Omit<CdxjEntry, 'length' | 'offset'> | undefined; page: WaczPage | undefined }> {
  const type = record.warcType;
  const url = record.warcTargetURI;
  const dateText = record.warcDate;
  if ((type !== 'response' && type !== 'revisit') || !url || !dateText || record.httpHeaders === null) {
    await drain(record);
    return { entry: undefined, page: undefined };
  }
  const date = new Date(dateText);
  const status = Number(record.httpHeaders.statusCode);
  const contentType = record.httpHeaders.headers.get('content-type') ?? '';
  const mime = type === 'revisit' ? 'warc/revisit' : contentType.split(';')[0]!.trim().toLowerCase() || 'unk';
  const digest = record.warcPayloadDigest;
  const entry = {
    url,
    date,
    mime,
    status: Number.isInteger(status) ? status : 0,
    ...(digest ? { digest } : {}),
    filename,
  };
  let page: WaczPage | undefined;
  if (type === 'response' && status === 200 && (mime === 'text/html' || mime === 'application/xhtml+xml') && Number.isFinite(date.getTime())) {
    const ts = date.toISOString();
    let title: string | undefined;
    if (record.warcContentLength <= MAX_TITLE_SCAN_BYTES) {
      const body = await record.readFully(false);
      title = titleOf(body, record.httpHeaders.headers, contentType);
    } else {
      await drain(record);
    }
    page = { id: sha256Hex(Buffer.from(`${ts} ${url}`)).slice(0, 32), url, ts, ...(title !== undefined ? { title } : {}) };
  } else {
    await drain(record);
  }
  return { entry, page };
}

/** Decodes the body as the headers say (transfer, then content coding, then charset) and reads its title; undefined when it does not decode. */
function titleOf(raw: Uint8Array, headers: { get(name: string): string | null | undefined }, contentType: string): string | undefined {
  let body: Uint8Array = raw;
  const transfer = (headers.get('transfer-encoding') ?? '').toLowerCase();
  // linkladder stores bodies de-chunked while the header stays; wget stores them chunked.
  if (transfer.includes('chunked')) body = dechunk(body) ?? body;
  const coding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  const limit = { maxOutputLength: MAX_TITLE_SCAN_BYTES };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body, limit);
    else if (coding === 'br') body = brotliDecompressSync(body, limit);
    else if (coding === 'deflate') {
      try {
        body = inflateSync(body, limit);
      } catch {
        body = inflateRawSync(body, limit);
      }
    } else if (coding !== '' && coding !== 'identity') return undefined;
  } catch {
    return undefined;
  }
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(charset).decode(body);
  } catch {
    text = new TextDecoder('utf-8').decode(body);
  }
  return htmlTitle(text);
}

/** RFC 9112 §7.1 chunked transfer coding, decoded; undefined when the bytes are not chunked. */
function dechunk(bytes: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let position = 0;
  for (;;) {
    let lineEnd = position;
    while (lineEnd + 1 < bytes.length && !(bytes[lineEnd] === 0x0d && bytes[lineEnd + 1] === 0x0a)) lineEnd += 1;
    if (lineEnd + 1 >= bytes.length) return undefined;
    const sizeText = Buffer.from(bytes.subarray(position, lineEnd)).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return undefined;
    const size = parseInt(sizeText, 16);
    if (size === 0) break;
    const start = lineEnd + 2;
    if (start + size > bytes.length) return undefined;
    parts.push(bytes.subarray(start, start + size));
    position = start + size + 2;
  }
  return Buffer.concat(parts);
}

export interface SeriesWaczOptions {
  /** @default the series' name with `.wacz`, beside it (`crawl.wacz`) */
  readonly out?: string;
  readonly software: string;
  readonly title?: string;
}

/** What `writeSeriesWacz` packaged: the package's summary, the files and the index it read. */
export interface SeriesWacz extends WaczSummary {
  readonly files: readonly string[];
  /** The series' CDXJ index (`crawl.cdxj`) when there was one beside it. */
  readonly cdxjFile: string | undefined;
}

/**
 * Package the WARC series `first` starts (`crawl.warc.gz` and every later
 * `crawl-NNNNN.warc.gz` on disk) with its index `crawl.cdxj` when present. A file
 * that is not named as a series (`x.warc`) is packaged alone.
 */
export async function writeSeriesWacz(first: string, options: SeriesWaczOptions): Promise<SeriesWacz> {
  const base = warcBase(first);
  const isSeries = base !== first;
  const files = isSeries ? (await existingWarcSerials(base)).map((serial) => warcFileName(base, serial)) : [first];
  if (!files.includes(first)) files.unshift(first);
  const out = options.out ?? `${base.replace(/\.warc$/, '')}.wacz`;
  if (files.includes(out)) throw new ArchiveError('ERR_ARCHIVE_DUPLICATE_NAME', `the package ${out} names a WARC file of the series: it would replace it`);
  const index = `${base}.cdxj`;
  const cdxjFile = isSeries && (await access(index).then(() => true, () => false)) ? index : undefined;
  const summary = await writeWacz({
    out,
    warcFiles: files,
    ...(cdxjFile === undefined ? {} : { cdxjFile }),
    software: options.software,
    ...(options.title === undefined ? {} : { title: options.title }),
  });
  return { ...summary, files, cdxjFile };
}
