// WACZ packages are read back with yauzl, a ZIP reader independent of the writer (yazl):
// every file's sha256 is checked against datapackage.json, the WARC entries must be
// stored and byte-identical, and the index and the page list are read as a replay tool would.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import yauzl from 'yauzl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WarcWriter, compareCdxjLines, writeCdxjIndex, writeWacz, type WarcExchange } from '../../src/archive/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'linkladder-wacz-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DATE = new Date('2026-11-27T10:20:30.456Z');

function exchange(uri: string, body: string | Uint8Array, extra: Partial<WarcExchange> & { type?: string; encoding?: string } = {}): WarcExchange {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const { type = 'text/html; charset=utf-8', encoding, ...rest } = extra;
  return {
    method: 'GET',
    uri,
    requestHeaderLines: [`Host: ${new URL(uri).host}`, 'User-Agent: linkladder-test'],
    httpVersion: '1.1',
    status: 200,
    reason: 'OK',
    responseHeaderLines: [`Content-Type: ${type}`, ...(encoding === undefined ? [] : [`Content-Encoding: ${encoding}`]), `Content-Length: ${bytes.length}`],
    body: bytes,
    remoteIp: '127.0.0.1',
    date: DATE,
    ...rest,
  };
}

interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly bytes: Buffer;
}

/** Every entry of a ZIP file, read with yauzl (central directory, CRC checked on read). */
function readZip(file: string): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error !== null || zip === undefined) return reject(error ?? new Error('no zip'));
      const entries: ZipEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError !== null || stream === undefined) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.push({ name: entry.fileName, method: entry.compressionMethod, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

interface Datapackage {
  profile: string;
  wacz_version: string;
  created: string;
  software: string;
  title?: string;
  resources: { name: string; path: string; hash: string; bytes: number }[];
}

/** Checks what every WACZ must satisfy and returns its entries by name. */
async function readWacz(file: string): Promise<{ entries: Map<string, ZipEntry>; datapackage: Datapackage }> {
  const list = await readZip(file);
  const entries = new Map(list.map((entry) => [entry.name, entry]));
  expect(entries.size).toBe(list.length);
  const datapackageBytes = entries.get('datapackage.json')!.bytes;
  const datapackage = JSON.parse(datapackageBytes.toString('utf8')) as Datapackage;
  expect(datapackage.profile).toBe('data-package');
  expect(datapackage.wacz_version).toBe('1.1.1');
  const digest = JSON.parse(entries.get('datapackage-digest.json')!.bytes.toString('utf8')) as { path: string; hash: string };
  expect(digest).toEqual({ path: 'datapackage.json', hash: sha256(datapackageBytes) });
  // Every file but the two manifests is a resource, with its hash and size.
  expect(datapackage.resources.map((resource) => resource.path).sort()).toEqual([...entries.keys()].filter((name) => !name.startsWith('datapackage')).sort());
  for (const resource of datapackage.resources) {
    const entry = entries.get(resource.path)!;
    expect(resource.name).toBe(basename(resource.path));
    expect(resource.hash).toBe(sha256(entry.bytes));
    expect(resource.bytes).toBe(entry.bytes.length);
    // ZIP method 0 (stored) for WARCs: a replay tool reads a record by a byte range.
    if (resource.path.startsWith('archive/')) expect(entry.method).toBe(0);
  }
  return { entries, datapackage };
}

function pagesOf(entries: Map<string, ZipEntry>): Record<string, unknown>[] {
  const lines = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect(JSON.parse(lines[0]!)).toEqual({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' });
  return lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
}

function cdxjOf(entries: Map<string, ZipEntry>): string[] {
  const lines = entries.get('indexes/index.cdxj')!.bytes.toString('utf8').split('\n');
  expect(lines.pop()).toBe('');
  expect([...lines].sort(compareCdxjLines)).toEqual(lines);
  return lines;
}

async function writeSite(path: string, maxBytes?: number): Promise<WarcWriter> {
  const writer = await WarcWriter.open(path, { version: '9.9.9', ...(maxBytes === undefined ? {} : { maxBytes }) });
  await writer.write(exchange('https://example.com/', '<!doctype html><html><head><title>Home &amp; away</title></head><body>home</body></html>'));
  await writer.write(exchange('https://example.com/gz', gzipSync('<html><title>\n  Gzipped\n  page </title></html>'), { encoding: 'gzip', date: new Date('2026-11-27T10:20:31Z') }));
  await writer.write(exchange('https://example.com/br', brotliCompressSync(Buffer.from('<title>Brötli</title>')), { encoding: 'br', date: new Date('2026-11-27T10:20:32Z') }));
  await writer.write(exchange('https://example.com/untitled', '<p>no title</p>', { date: new Date('2026-11-27T10:20:33Z') }));
  await writer.write(exchange('https://example.com/style.css', 'body{}', { type: 'text/css' }));
  await writer.write(exchange('https://example.com/missing', '<title>Not found</title>', { status: 404, reason: 'Not Found' }));
  await writer.write(exchange('https://example.com/moved', '', { status: 301, reason: 'Moved Permanently', responseHeaderLines: ['Location: /'] }));
  // The same body again: a revisit record, in the index, not a second page.
  await writer.write(exchange('https://example.com/?utm=1', '<!doctype html><html><head><title>Home &amp; away</title></head><body>home</body></html>', { date: new Date('2026-11-27T10:20:34Z') }));
  await writer.close();
  return writer;
}

describe('writeWacz', () => {
  it('packages a WARC as WACZ 1.1.1: stored WARC, sorted CDXJ, titled pages, hashes in datapackage.json', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    await writeSite(warc);
    const out = join(dir, 'crawl.wacz');
    const summary = await writeWacz({ out, warcFiles: [warc], created: DATE, software: 'linkladder/9.9.9', title: 'A test crawl' });

    const { entries, datapackage } = await readWacz(out);
    expect([...entries.keys()].sort()).toEqual(['archive/crawl.warc.gz', 'datapackage-digest.json', 'datapackage.json', 'indexes/index.cdxj', 'pages/pages.jsonl']);
    expect(entries.get('archive/crawl.warc.gz')!.bytes.equals(await readFile(warc))).toBe(true);
    expect(datapackage).toMatchObject({ created: DATE.toISOString(), software: 'linkladder/9.9.9', title: 'A test crawl' });

    const pages = pagesOf(entries);
    expect(pages.map(({ url, ts, title }) => ({ url, ts, title }))).toEqual([
      { url: 'https://example.com/', ts: '2026-11-27T10:20:30.456Z', title: 'Home & away' },
      { url: 'https://example.com/gz', ts: '2026-11-27T10:20:31.000Z', title: 'Gzipped page' },
      { url: 'https://example.com/br', ts: '2026-11-27T10:20:32.000Z', title: 'Brötli' },
      { url: 'https://example.com/untitled', ts: '2026-11-27T10:20:33.000Z', title: undefined },
    ]);
    for (const page of pages) expect(page['id']).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(pages.map((page) => page['id'])).size).toBe(pages.length);

    // One line per response and revisit, the same lines the writer's own index holds.
    const cdxj = cdxjOf(entries);
    expect(cdxj).toHaveLength(8);
    expect(cdxj.some((line) => line.includes('"mime":"warc/revisit"'))).toBe(true);
    expect(summary).toEqual({ out, warcFiles: 1, records: 17, captures: 8, pages: 4, bytes: (await stat(out)).size, index: 'built', torn: [] });
    expect((await readdir(dir)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('the built index matches the one the writer keeps (offsets, lengths, digests) line for line', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    const writer = await writeSite(warc);
    const cdxjFile = join(dir, 'crawl.cdxj');
    await writeCdxjIndex(cdxjFile, writer.cdxjEntries);
    const built = join(dir, 'built.wacz');
    await writeWacz({ out: built, warcFiles: [warc], software: 'x' });
    expect(cdxjOf((await readWacz(built)).entries).join('\n') + '\n').toBe(await readFile(cdxjFile, 'utf8'));

    // Given the index file, it is copied byte for byte.
    const copied = join(dir, 'copied.wacz');
    const summary = await writeWacz({ out: copied, warcFiles: [warc], cdxjFile, software: 'x' });
    expect(summary.index).toBe('copied');
    expect(summary.staleIndex).toBeUndefined();
    expect(summary.captures).toBe(8);
    expect((await readWacz(copied)).entries.get('indexes/index.cdxj')!.bytes.equals(await readFile(cdxjFile))).toBe(true);
  });

  it('an index that names other records than the WARC files hold (a killed run’s, missing the last file) is not copied: built, and named', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    const writer = await writeSite(warc, 1200);
    const cdxjFile = join(dir, 'crawl.cdxj');
    const lastFile = basename(writer.files[writer.files.length - 1]!);
    await writeCdxjIndex(cdxjFile, writer.cdxjEntries.filter((entry) => entry.filename !== lastFile));
    const summary = await writeWacz({ out: join(dir, 'x.wacz'), warcFiles: writer.files, cdxjFile, software: 'x' });
    const indexed = writer.cdxjEntries.filter((entry) => entry.filename !== lastFile).length;
    expect(summary).toMatchObject({ index: 'built', captures: 8, staleIndex: { file: cdxjFile, captures: indexed, expected: 8 } });
    expect(indexed).toBeLessThan(8);
    expect(cdxjOf((await readWacz(join(dir, 'x.wacz'))).entries)).toHaveLength(8);
  });

  it('packages a rotated series, each file stored as archive/<name>, the index naming each record’s file', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    const writer = await writeSite(warc, 1200);
    expect(writer.files.length).toBeGreaterThan(2);
    const out = join(dir, 'crawl.wacz');
    const summary = await writeWacz({ out, warcFiles: writer.files, software: 'x' });
    const { entries } = await readWacz(out);
    for (const file of writer.files) expect(entries.get(`archive/${basename(file)}`)!.bytes.equals(await readFile(file))).toBe(true);
    const filenames = new Set(cdxjOf(entries).map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { filename: string }).filename));
    expect(filenames.size).toBeGreaterThan(1);
    for (const name of filenames) expect(entries.has(`archive/${name}`)).toBe(true);
    expect(summary).toMatchObject({ warcFiles: writer.files.length, captures: 8, pages: 4 });
  });

  it('a torn WARC (cut inside its last record) is packaged up to its last whole record, and named in the summary', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    await writeSite(warc);
    const size = (await stat(warc)).size;
    const whole = await readFile(warc);
    // Cut inside the last record (a request): its response stays whole.
    await truncate(warc, size - 40);
    const out = join(dir, 'torn.wacz');
    const summary = await writeWacz({ out, warcFiles: [warc], software: 'x' });
    expect(summary.torn).toHaveLength(1);
    const torn = summary.torn[0]!;
    expect(torn.file).toBe(warc);
    expect(torn.droppedBytes).toBeGreaterThan(0);
    expect(torn.keptBytes + torn.droppedBytes).toBe(size - 40);
    expect(summary.records).toBe(16);
    const { entries } = await readWacz(out);
    // The kept bytes are the original file's first bytes: whole records only.
    expect(entries.get('archive/crawl.warc.gz')!.bytes.equals(whole.subarray(0, torn.keptBytes))).toBe(true);
    expect(cdxjOf(entries)).toHaveLength(8);

    // Cut inside a response body: that response is not indexed (it is not whole).
    await writeFile(warc, whole.subarray(0, Math.floor(size / 2)));
    const halfSummary = await writeWacz({ out: join(dir, 'half.wacz'), warcFiles: [warc], software: 'x' });
    expect(halfSummary.torn[0]!.keptBytes).toBeLessThan(Math.floor(size / 2));
    const halfEntries = (await readWacz(join(dir, 'half.wacz'))).entries;
    for (const line of cdxjOf(halfEntries)) {
      const { offset, length } = JSON.parse(line.slice(line.indexOf('{'))) as { offset: string; length: string };
      expect(Number(offset) + Number(length)).toBeLessThanOrEqual(halfSummary.torn[0]!.keptBytes);
    }
  });

  it('a torn WARC with a given index: the index is built instead, so it names no cut record', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    const writer = await writeSite(warc);
    const cdxjFile = join(dir, 'crawl.cdxj');
    await writeCdxjIndex(cdxjFile, writer.cdxjEntries);
    // Cut inside the last response record (the revisit).
    const last = writer.cdxjEntries[writer.cdxjEntries.length - 1]!;
    await truncate(warc, last.offset + 100);
    const summary = await writeWacz({ out: join(dir, 'x.wacz'), warcFiles: [warc], cdxjFile, software: 'x' });
    expect(summary.index).toBe('built');
    expect(summary.captures).toBe(7);
    expect(summary.torn).toEqual([{ file: warc, keptBytes: last.offset, droppedBytes: 100 }]);
  });

  it('reads the title of a body stored chunked (as wget keeps it) and of one stored de-chunked under the same header', async () => {
    const warc = join(dir, 'chunked.warc.gz');
    const writer = await WarcWriter.open(warc, { version: '9.9.9' });
    const chunked = '7\r\n<title>\r\n8;ext=1\r\nChunked!\r\n8\r\n</title>\r\n0\r\n\r\n';
    const headers = ['Content-Type: text/html', 'Transfer-Encoding: chunked'];
    await writer.write(exchange('https://example.com/wget', chunked, { responseHeaderLines: headers }));
    await writer.write(exchange('https://example.com/dechunked', '<title>Plain</title>', { responseHeaderLines: headers }));
    await writer.close();
    const out = join(dir, 'chunked.wacz');
    await writeWacz({ out, warcFiles: [warc], software: 'x' });
    expect(pagesOf((await readWacz(out)).entries).map((page) => [page['url'], page['title']])).toEqual([['https://example.com/dechunked', 'Plain'], ['https://example.com/wget', 'Chunked!']]);
  });

  it('packages an uncompressed WARC (warcio counts its records without the closing CRLF CRLF): every record kept, offsets and lengths whole', async () => {
    const gz = join(dir, 'crawl.warc.gz');
    await writeSite(gz);
    const plain = join(dir, 'plain.warc');
    await writeFile(plain, gunzipSync(await readFile(gz)));
    const out = join(dir, 'plain.wacz');
    const summary = await writeWacz({ out, warcFiles: [plain], software: 'x' });
    expect(summary).toMatchObject({ records: 17, captures: 8, pages: 4, torn: [] });
    const { entries } = await readWacz(out);
    const warc = entries.get('archive/plain.warc')!.bytes;
    for (const line of cdxjOf(entries)) {
      const { offset, length } = JSON.parse(line.slice(line.indexOf('{'))) as { offset: string; length: string };
      const record = warc.subarray(Number(offset), Number(offset) + Number(length)).toString('latin1');
      expect(record.startsWith('WARC/1.1\r\n')).toBe(true);
      expect(record.endsWith('\r\n\r\n')).toBe(true);
    }
    // Cut inside its last record: the records before it are kept.
    await truncate(plain, warc.length - 10);
    const torn = await writeWacz({ out: join(dir, 'plain-torn.wacz'), warcFiles: [plain], software: 'x' });
    expect(torn.records).toBe(16);
    expect(torn.torn[0]!.droppedBytes).toBeGreaterThan(10);
  });

  it('a gzip bomb of a page is listed without a title, in bounded time and memory', async () => {
    const warc = join(dir, 'bomb.warc.gz');
    const writer = await WarcWriter.open(warc, { version: '9.9.9' });
    // 64 MiB of spaces before the title, 64 KiB gzipped: decoding stops at 4 MiB.
    const bomb = gzipSync(Buffer.concat([Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from('<title>late</title>')]));
    await writer.write(exchange('https://example.com/bomb', bomb, { encoding: 'gzip' }));
    await writer.write(exchange('https://example.com/ok', '<title>fine</title>'));
    await writer.close();
    const out = join(dir, 'bomb.wacz');
    const summary = await writeWacz({ out, warcFiles: [warc], software: 'x' });
    expect(summary.pages).toBe(2);
    expect(pagesOf((await readWacz(out)).entries).map((page) => [page['url'], page['title']])).toEqual([
      ['https://example.com/bomb', undefined],
      ['https://example.com/ok', 'fine'],
    ]);
  });

  it.each([
    ['an empty list', [] as string[], 'ERR_ARCHIVE_MISSING_FILE'],
    ['a missing file', ['missing.warc.gz'], 'ERR_ARCHIVE_MISSING_FILE'],
    ['a folder', ['.'], 'ERR_ARCHIVE_MISSING_FILE'],
    ['a text file', ['notes.warc.gz'], 'ERR_ARCHIVE_NOT_WARC'],
    ['gzip of text', ['text.warc.gz'], 'ERR_ARCHIVE_NOT_WARC'],
    ['an empty file', ['empty.warc.gz'], 'ERR_ARCHIVE_NOT_WARC'],
    ['a missing index', ['crawl.warc.gz', 'missing.cdxj'], 'ERR_ARCHIVE_MISSING_FILE'],
    ['two files of one name', ['a/x.warc.gz', 'b/x.warc.gz'], 'ERR_ARCHIVE_DUPLICATE_NAME'],
  ])('refuses %s with a typed error and writes nothing', async (_label, files, code) => {
    await writeFile(join(dir, 'notes.warc.gz'), 'hello\nthis is not a WARC\n');
    await writeFile(join(dir, 'text.warc.gz'), gzipSync('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    await writeFile(join(dir, 'empty.warc.gz'), '');
    await writeSite(join(dir, 'crawl.warc.gz'));
    const out = join(dir, 'out.wacz');
    const cdxj = files.find((file) => file.endsWith('.cdxj'));
    const warcFiles = files.filter((file) => file !== cdxj).map((file) => join(dir, file));
    const error = await writeWacz({ out, warcFiles, ...(cdxj === undefined ? {} : { cdxjFile: join(dir, cdxj) }), software: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ArchiveError', code });
    expect((await readdir(dir)).filter((name) => name.includes('wacz'))).toEqual([]);
  });

  it('a folder that does not exist for the package: ERR_ARCHIVE_WACZ_WRITE, no temporary file left', async () => {
    const warc = join(dir, 'crawl.warc.gz');
    await writeSite(warc);
    const error = await writeWacz({ out: join(dir, 'nope', 'x.wacz'), warcFiles: [warc], software: 'x' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ERR_ARCHIVE_WACZ_WRITE' });
  });
});
