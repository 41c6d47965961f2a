// `crawl --warc` end to end on the built executable: a site on 127.0.0.1 (127.0.0.2 plays
// another host) whose server logs every request. Every file written is read back with
// warcio's WARCParser (an independent reader) to its last byte, every payload digest is
// recomputed from the bytes read, and the request records are counted against the
// server's log: each request the server saw is in the archive once.

import type { ChildProcess } from 'node:child_process';

import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVISIT_IDENTICAL_PAYLOAD, REVISIT_SERVER_NOT_MODIFIED, sha256Digest } from '../../src/archive/index.js';
import { ensureBuilt, spawnCli, type CliExit } from './built-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-crawl-warc-'));
const children = new Set<ChildProcess>();

interface Site {
  readonly origin: string;
  /** `METHOD /path` of every request, in arrival order. */
  readonly log: string[];
  readonly headers: string[];
  close(): Promise<void>;
}

async function listen(host: string, handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Site> {
  const log: string[] = [];
  const headers: string[] = [];
  const server: Server = createServer((request, response) => {
    log.push(`${request.method} ${request.url}`);
    headers.push(request.rawHeaders.join('\n'));
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    origin: `http://${host}:${port}`,
    log,
    headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sites: Site[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(sites.map((site) => site.close()));
  rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[]): Promise<CliExit> {
  return spawnCli(args, children).exit;
}

interface ReadRecord {
  readonly file: string;
  readonly type: string;
  readonly uri: string;
  readonly headers: Map<string, string>;
  /** The block as stored. */
  readonly block: Uint8Array;
}

/** Every record of `file`, read by warcio; the last one must end at the file's last byte. */
async function readWarc(file: string): Promise<ReadRecord[]> {
  const bytes = readFileSync(file);
  const parser = new WARCParser([bytes], { parseHttp: false });
  const records: ReadRecord[] = [];
  let end = 0;
  for await (const record of parser) {
    const block = await record.readFully(false);
    const headers = new Map<string, string>();
    for (const [name, value] of record.warcHeaders.headers as unknown as Iterable<[string, string]>) headers.set(name.toLowerCase(), value);
    records.push({ file: path.basename(file), type: record.warcType ?? '', uri: record.warcTargetURI ?? '', headers, block });
    end = parser.offset + parser.recordLength;
  }
  expect(end, `${file} parses to its last byte`).toBe(bytes.length);
  return records;
}

function warcFiles(base: string): string[] {
  const name = path.basename(base);
  return readdirSync(path.dirname(base))
    .filter((entry) => entry === `${name}.warc.gz` || (entry.startsWith(`${name}-`) && entry.endsWith('.warc.gz')))
    .map((entry) => ({ entry, serial: entry === `${name}.warc.gz` ? 0 : Number(entry.slice(name.length + 1, -'.warc.gz'.length)) }))
    .sort((a, b) => a.serial - b.serial)
    .map(({ entry }) => path.join(path.dirname(base), entry));
}

async function readSeries(base: string): Promise<ReadRecord[]> {
  const records: ReadRecord[] = [];
  for (const file of warcFiles(base)) records.push(...(await readWarc(file)));
  return records;
}

function splitHttp(block: Uint8Array): { head: string; body: Uint8Array } {
  const end = Buffer.from(block).indexOf('\r\n\r\n');
  return { head: Buffer.from(block.subarray(0, end)).toString('latin1'), body: block.subarray(end + 4) };
}

/** RFC 9112 §7.1.3: the chunks' data, concatenated. */
function dechunk(bytes: Uint8Array): Uint8Array {
  const buffer = Buffer.from(bytes);
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    const size = Number.parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The payload of a response record: its body, de-chunked when the head says chunked. */
function payloadOf(record: ReadRecord): Uint8Array {
  const { head, body } = splitHttp(record.block);
  return /\r\ntransfer-encoding:\s*chunked/i.test(head) ? dechunk(body) : body;
}

/** `METHOD /path` of each request record, as the server's log writes them. */
function requestsIn(records: readonly ReadRecord[]): string[] {
  return records
    .filter((record) => record.type === 'request')
    .map((record) => {
      const line = Buffer.from(record.block).toString('latin1').split('\r\n')[0]!;
      const [method, target] = line.split(' ');
      return `${method} ${target}`;
    });
}

function sorted(list: readonly string[]): string[] {
  return [...list].sort();
}

/** Each response's digest recomputed; each request names a response or revisit written before it. */
function expectDigestsRight(records: readonly ReadRecord[]): void {
  const ids = new Set<string>();
  for (const record of records) {
    const blockDigest = record.headers.get('warc-block-digest');
    if (blockDigest !== undefined) expect(sha256Digest(record.block), `${record.type} ${record.uri} block`).toBe(blockDigest);
    if (record.type === 'response') expect(sha256Digest(payloadOf(record)), `${record.uri} payload`).toBe(record.headers.get('warc-payload-digest'));
    if (record.type === 'response' || record.type === 'revisit') ids.add(record.headers.get('warc-record-id')!);
    if (record.type === 'request' && record.headers.has('warc-concurrent-to')) expect(ids.has(record.headers.get('warc-concurrent-to')!)).toBe(true);
  }
}

const PAGE_BIG = `<!doctype html><title>big</title>${'<p>a long page cut at the body cap</p>'.repeat(400)}`;
const SAME = '<!doctype html><p>the same body at two URLs</p>';
const GZIPPED = gzipSync('<!doctype html><p>sent gzip-encoded</p>');

async function startSite(): Promise<Site> {
  let origin = '';
  const site = await listen('127.0.0.1', (request, response) => {
    const url = request.url ?? '/';
    if (url === '/robots.txt') {
      const body = 'User-agent: *\nDisallow: /private/\n';
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) }).end(body);
    }
    else if (url === '/sitemap.xml') {
      const body = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/from-sitemap</loc></url></urlset>`;
      response.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) }).end(body);
    } else if (url === '/') {
      const links = ['/moved', '/missing', '/broken', '/gz', '/chunked', '/big', '/same-a', '/same-b', '/private/x'].map((href) => `<a href="${href}">x</a>`).join('');
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>home</title><link rel="stylesheet" href="/style.css">${links}`);
    } else if (url === '/style.css') response.writeHead(200, { 'content-type': 'text/css' }).end('body { background: url(/bg.png) }');
    else if (url === '/bg.png') response.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' }).end('\x89PNG');
    else if (url === '/moved') response.writeHead(301, { location: '/target', 'content-length': '0' }).end();
    else if (url === '/target' || url === '/from-sitemap') response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(url) + 3 }).end(`<p>${url}`);
    else if (url === '/broken') response.writeHead(500, { 'content-type': 'text/plain' }).end('server error');
    else if (url === '/gz') response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': GZIPPED.length }).end(GZIPPED);
    else if (url === '/chunked') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<!doctype html><p>first chunk');
      setTimeout(() => response.end(', second chunk</p>'), 20);
    } else if (url === '/big') response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(PAGE_BIG) }).end(PAGE_BIG);
    else if (url === '/same-a' || url === '/same-b') response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(SAME) }).end(SAME);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  origin = site.origin;
  sites.push(site);
  return site;
}

describe('crawl --warc', () => {
  it('keeps every request the server saw once — robots.txt, the sitemap, a redirect, a 404, a 500 and its retry, gzip, chunked, a capped body, a stylesheet — and dedups a payload seen twice', async () => {
    const site = await startSite();
    const base = path.join(dir, 'site');
    const result = await run([
      'crawl', `${site.origin}/`, '--db', path.join(dir, 'site.db'), '--allow-private', '--warc', `${base}.warc.gz`,
      '--max-body-bytes', '4096', '--retries', '1', '--retry-delay-ms', '0',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^archive: \d+ responses, \d+ revisits in .*site\.warc\.gz; index .*site\.cdxj$/m);

    const records = await readSeries(base);
    expect(records[0]!.type).toBe('warcinfo');
    expectDigestsRight(records);
    // Each request the server logged is in the archive once, and nothing else is.
    expect(sorted(requestsIn(records))).toEqual(sorted(site.log));
    expect(site.log).toEqual(expect.arrayContaining(['GET /robots.txt', 'GET /sitemap.xml', 'GET /moved', 'GET /target', 'GET /from-sitemap', 'GET /style.css']));
    expect(site.log.filter((entry) => entry === 'GET /broken')).toHaveLength(2);

    const byUri = (suffix: string): ReadRecord[] => records.filter((record) => record.type !== 'request' && record.uri === `${site.origin}${suffix}`);
    // Bytes as received: gzip stays gzip.
    const gz = byUri('/gz')[0]!;
    expect(Buffer.from(payloadOf(gz)).equals(GZIPPED)).toBe(true);
    // The capped body says it was cut (ISO 28500 §5.13).
    const big = byUri('/big')[0]!;
    expect(big.headers.get('warc-truncated')).toBe('length');
    expect(payloadOf(big).length).toBeLessThan(Buffer.byteLength(PAGE_BIG));
    expect(byUri('/').every((record) => !record.headers.has('warc-truncated'))).toBe(true);
    // The redirect, the 404 and the 500s are kept with their statuses.
    expect(splitHttp(byUri('/moved')[0]!.block).head).toMatch(/^HTTP\/1\.1 301 /);
    expect(splitHttp(byUri('/missing')[0]!.block).head).toMatch(/^HTTP\/1\.1 404 /);
    expect(byUri('/broken').map((record) => splitHttp(record.block).head.slice(0, 12))).toEqual(['HTTP/1.1 500', 'HTTP/1.1 500']);
    // One body at two URLs: the second is a revisit of the first.
    const [first, second] = [byUri('/same-a')[0]!, byUri('/same-b')[0]!].sort((a, b) => (records.indexOf(a) < records.indexOf(b) ? -1 : 1));
    expect(first!.type).toBe('response');
    expect(second!.type).toBe('revisit');
    expect(second!.headers.get('warc-profile')).toBe(REVISIT_IDENTICAL_PAYLOAD);
    expect(second!.headers.get('warc-refers-to-target-uri')).toBe(first!.uri);
    expect(second!.headers.get('warc-payload-digest')).toBe(first!.headers.get('warc-payload-digest'));

    // The CDXJ index: one line per response and revisit, sorted as bytes.
    const lines = readFileSync(`${base}.cdxj`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(records.filter((record) => record.type === 'response' || record.type === 'revisit').length);
    expect([...lines].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(lines);
  }, 120_000);

  it('the index knows which record stands for which URL: explain names the file and offset, and those bytes are that record', async () => {
    const site = await startSite();
    const base = path.join(dir, 'explained');
    const db = path.join(dir, 'explained.db');
    const crawled = await run(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--warc', `${base}.warc.gz`]);
    expect(crawled.code, crawled.stderr).toBe(0);
    // Any spelling of the URL finds its records (here, dot segments and a fragment).
    for (const [spelling, suffix, type] of [['/gz', '/gz', 'response'], ['/./moved#top', '/moved', 'response'], ['/same-b', '/same-b', 'revisit']] as const) {
      const explained = await run(['explain', `${site.origin}${spelling}`, '--db', db, '--json']);
      expect(explained.code, explained.stderr).toBe(0);
      const archived = (JSON.parse(explained.stdout) as { archived: { uri: string; file: string; offset: number; length: number; type: string }[] }).archived;
      const own = archived.filter((record) => record.uri === `${site.origin}${suffix}`);
      expect(own.map((record) => record.type)).toEqual([type]);
      const { file, offset, length, uri } = own[0]!;
      const member = gunzipSync(readFileSync(path.join(dir, file)).subarray(offset, offset + length)).toString('latin1');
      expect(member).toMatch(new RegExp(`^WARC/1\\.1\r\nWARC-Type: ${type}\r\n`));
      expect(member).toContain(`WARC-Target-URI: ${uri}\r\n`);
    }
    const text = await run(['explain', `${site.origin}/gz`, '--db', db]);
    expect(text.stdout).toMatch(/^archived\s+explained\.warc\.gz @ \d+ \(\+\d+ bytes\) response /m);
  }, 120_000);

  it('--wacz alone keeps the WARC beside the package and packages the whole series at the end of each run', async () => {
    const site = await startSite();
    const db = path.join(dir, 'packaged.db');
    const wacz = path.join(dir, 'packaged.wacz');
    const first = await run(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--wacz', wacz]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^package: .*packaged\.wacz: 1 WARC file, \d+ records, \d+ captures, \d+ pages, \d+ bytes \(index .*packaged\.cdxj\)$/m);
    const once = await zipEntries(wacz);
    expect([...once.keys()].filter((name) => name.startsWith('archive/'))).toEqual(['archive/packaged.warc.gz']);
    expect(once.get('archive/packaged.warc.gz')!.equals(readFileSync(path.join(dir, 'packaged.warc.gz')))).toBe(true);
    expect(once.get('indexes/index.cdxj')!.toString()).toBe(readFileSync(path.join(dir, 'packaged.cdxj'), 'utf8'));
    const pages = once.get('pages/pages.jsonl')!.toString().trim().split('\n').map((line) => JSON.parse(line) as { url?: string; title?: string });
    expect(pages).toContainEqual(expect.objectContaining({ url: `${site.origin}/`, title: 'home' }));

    // A second run (a re-check) writes the next file of the series; the package holds both.
    const again = await run(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--wacz', wacz, '--recheck']);
    expect(again.code, again.stderr).toBe(0);
    const twice = await zipEntries(wacz);
    expect([...twice.keys()].filter((name) => name.startsWith('archive/'))).toEqual(['archive/packaged-00001.warc.gz', 'archive/packaged.warc.gz']);
  }, 120_000);

  it('check of a live site keeps what it fetched too: each request the server saw, once', async () => {
    const site = await startSite();
    const base = path.join(dir, 'checked');
    const result = await run(['check', `${site.origin}/`, '--db', path.join(dir, 'checked.db'), '--allow-private', '--warc', `${base}.warc.gz`, '--retries', '0']);
    expect(result.code === 0 || result.code === 1, result.stderr).toBe(true);
    expect(result.stderr).toMatch(/^archive: \d+ responses/m);
    const records = await readSeries(base);
    expectDigestsRight(records);
    expect(sorted(requestsIn(records))).toEqual(sorted(site.log));
  }, 60_000);

  it('a chunked body is re-chunked as one chunk: warcio reads back exactly the body, the payload digest is that of the body', async () => {
    const site = await startSite();
    const base = path.join(dir, 'chunked');
    const result = await run(['crawl', `${site.origin}/chunked`, '--db', path.join(dir, 'chunked.db'), '--allow-private', '--warc', `${base}.warc.gz`, '--no-sitemap']);
    expect(result.code, result.stderr).toBe(0);
    const parser = new WARCParser([readFileSync(`${base}.warc.gz`)], { parseHttp: true });
    let seen: WARCRecord | undefined;
    for await (const record of parser) {
      if (record.warcType === 'response' && record.warcTargetURI === `${site.origin}/chunked`) {
        expect(record.httpHeaders?.headers.get('transfer-encoding')).toBe('chunked');
        const payload = await record.readFully(true);
        expect(Buffer.from(payload).toString()).toBe('<!doctype html><p>first chunk, second chunk</p>');
        expect(record.warcPayloadDigest).toBe(sha256Digest(payload));
        seen = record;
      } else await record.skipFully();
    }
    expect(seen).toBeDefined();
  }, 60_000);

  it('rotates before a file passes --warc-max-size: every file opens with its warcinfo and reads to its end; the index names them all', async () => {
    const site = await startSite();
    const base = path.join(dir, 'rotated');
    const result = await run([
      'crawl', `${site.origin}/`, '--db', path.join(dir, 'rotated.db'), '--allow-private', '--warc', `${base}.warc.gz`,
      '--warc-max-size', '4000', '--max-body-bytes', '4096', '--retries', '0',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const files = warcFiles(base);
    expect(files.length).toBeGreaterThan(2);
    const all: ReadRecord[] = [];
    for (const file of files) {
      const records = await readWarc(file);
      expect(records[0]!.type).toBe('warcinfo');
      // A pair larger than the size gets a file of its own; otherwise the size holds.
      if (records.length > 3) expect(statSync(file).size).toBeLessThanOrEqual(4000);
      all.push(...records);
    }
    expectDigestsRight(all);
    expect(sorted(requestsIn(all))).toEqual(sorted(site.log));
    const named = new Set(readFileSync(`${base}.cdxj`, 'utf8').trim().split('\n').map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { filename: string }).filename));
    expect(named).toEqual(new Set(files.filter((file) => readWarcSync(file)).map((file) => path.basename(file))));
  }, 120_000);
});

/** Whether a file holds a response or revisit (an index line names it). */
/** Every entry of a ZIP file, read with yauzl (an independent reader), by name in name order. */
function zipEntries(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error !== null || zip === undefined) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError !== null || stream === undefined) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(new Map([...entries].sort(([a], [b]) => (a < b ? -1 : 1)))));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function readWarcSync(file: string): boolean {
  const text = gunzipSync(readFileSync(file)).toString('latin1');
  return /WARC-Type: (response|revisit)\r\n/.test(text);
}

describe('crawl --warc keeps no credential', () => {
  it('a token, a Basic password, a cookie jar and a session cookie the site sets reach no WARC byte; 127.0.0.2 is archived too', async () => {
    const TOKEN = 'tok-3e8a91c0ffee';
    const OTHER_TOKEN = 'cdn-77a1b2c3d4e5';
    const PASSWORD = 'pw-5f1d2e3c4b';
    const JAR_COOKIE = 'jar-0a9b8c7d6e';
    const SET_COOKIE = 'sess-1122334455';
    const other = await listen('127.0.0.2', (_, response) => response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `other=${SET_COOKIE}` }).end('<p>other'));
    sites.push(other);
    let origin = '';
    const site = await listen('127.0.0.1', (request, response) => {
      if (request.url === '/') {
        response.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `session=${SET_COOKIE}; Path=/` }).end(`<a href="/next">n</a><a href="${other.origin}/page">o</a><p>${origin}`);
      } else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>next');
    });
    origin = site.origin;
    sites.push(site);
    const jar = path.join(dir, 'cookies.txt');
    writeFileSync(jar, `# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t${JAR_COOKIE}\n`);
    const base = path.join(dir, 'secret');
    const seed = `http://user:${PASSWORD}@${site.origin.slice('http://'.length)}/`;
    const result = await run([
      'crawl', seed, '--db', path.join(dir, 'secret.db'), '--allow-private', '--warc', `${base}.warc.gz`, '--no-sitemap',
      '--header', `X-Api-Key: ${TOKEN}`, '--header-for', `${other.origin} X-Cdn-Key: ${OTHER_TOKEN}`, '--cookie-jar', jar, '--keep-cookies',
    ]);
    expect(result.code, result.stderr).toBe(0);
    // The credentials did go out: the test proves they were left out of the archive, not never sent.
    expect(site.headers.join('\n')).toContain(TOKEN);
    expect(site.headers.join('\n')).toContain(JAR_COOKIE);
    expect(site.headers.join('\n')).toContain(SET_COOKIE);
    expect(other.headers.join('\n')).toContain(OTHER_TOKEN);

    const records = await readSeries(base);
    expect(records.some((record) => record.uri.startsWith(other.origin))).toBe(true);
    expect(sorted(requestsIn(records))).toEqual(sorted([...site.log, ...other.log]));
    const basic = Buffer.from(`user:${PASSWORD}`).toString('base64');
    // Every gzip member inflated, and the WARC bytes as a whole.
    const text = gunzipSync(readFileSync(`${base}.warc.gz`)).toString('latin1');
    for (const secret of [TOKEN, OTHER_TOKEN, PASSWORD, basic, JAR_COOKIE, SET_COOKIE]) expect(text, secret).not.toContain(secret);
    expect(text).not.toMatch(/^(authorization|cookie|set-cookie|x-api-key|x-cdn-key):/im);
    // The warcinfo keeps the header names, never their values.
    expect(text).toContain('headerNames: ["X-Api-Key"]');
    expect(records.every((record) => !record.uri.includes('@'))).toBe(true);
  }, 60_000);
});

describe('crawl --warc, killed and resumed', () => {
  const PAGES = 400;
  /** Every page links to ten others; pages n and n + 200 share a body (a payload seen twice). */
  function page(n: number): string {
    const links: string[] = [];
    for (let c = 10 * n + 1; c <= 10 * n + 10 && c < PAGES; c++) links.push(`<a href="/p${c}.html">x</a>`);
    return `<!doctype html><title>p${n % 200}</title>${links.join('')}<p>${'body text '.repeat(50)}</p>`;
  }

  it('SIGKILL mid-crawl, then resume: every file reads to its end, no payload is a response twice, each request is in the archive once (one cut off by the kill at most per request in flight), the index covers the killed run', async () => {
    const site = await listen('127.0.0.1', (request, response) => {
      const target = request.url ?? '/';
      const n = target === '/' ? 0 : Number(/^\/p(\d+)\.html$/.exec(target)?.[1] ?? NaN);
      if (Number.isInteger(n) && n < PAGES) {
        const body = page(n);
        response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) }).end(body);
      } else response.writeHead(404, { 'content-length': '0' }).end();
    });
    sites.push(site);
    const base = path.join(dir, 'killed');
    const db = path.join(dir, 'killed.db');
    const args = ['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--warc', `${base}.warc.gz`, '--concurrency', '4', '--per-host-concurrency', '4'];
    const first = spawnCli(args, children);
    while (site.log.length < 120) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    const killed = await first.exit;
    expect(killed.signal).toBe('SIGKILL');
    const sentByKilled = site.log.length;

    const resumed = await run(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const files = warcFiles(base);
    expect(files.map((file) => path.basename(file))).toEqual(['killed.warc.gz', 'killed-00001.warc.gz']);
    const records: ReadRecord[] = [];
    for (const file of files) records.push(...(await readWarc(file)));
    expectDigestsRight(records);

    // No payload is written twice as a response: the resumed run revisits what the killed one kept.
    const responses = records.filter((record) => record.type === 'response' && payloadOf(record).length > 0);
    const digests = responses.map((record) => record.headers.get('warc-payload-digest'));
    expect(new Set(digests).size).toBe(digests.length);
    expect(records.some((record) => record.type === 'revisit' && record.file === 'killed-00001.warc.gz')).toBe(true);

    // Each request of the resumed run is in the archive once. A request of the killed run is
    // there at most once; one is missing only if the kill came before its records were
    // written: at most the requests in flight (--concurrency 4) and the records waiting to
    // be written (a new request waits while 8 do: MAX_PENDING_WRITES of crawl-archive.ts).
    const archived = new Map<string, number>();
    for (const request of requestsIn(records)) archived.set(request, (archived.get(request) ?? 0) + 1);
    const logged = new Map<string, number>();
    for (const request of site.log) logged.set(request, (logged.get(request) ?? 0) + 1);
    for (const [request, count] of archived) expect(count, request).toBeLessThanOrEqual(logged.get(request) ?? 0);
    for (const request of site.log.slice(sentByKilled)) expect(archived.get(request) ?? 0, request).toBeGreaterThanOrEqual(1);
    const missing = [...logged].reduce((sum, [request, count]) => sum + count - (archived.get(request) ?? 0), 0);
    expect(missing).toBeLessThanOrEqual(4 + 8);

    // The index covers both files, the killed run's included, one line per response or revisit.
    const lines = readFileSync(`${base}.cdxj`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(records.filter((record) => record.type === 'response' || record.type === 'revisit').length);
    expect(new Set(lines.map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { filename: string }).filename))).toEqual(new Set(['killed.warc.gz', 'killed-00001.warc.gz']));
  }, 180_000);

  it('Ctrl-C (SIGINT) stops the crawl cleanly: the records of every request sent are written, then the index', async () => {
    const site = await listen('127.0.0.1', (request, response) => {
      const target = request.url ?? '/';
      const n = target === '/' ? 0 : Number(/^\/p(\d+)\.html$/.exec(target)?.[1] ?? NaN);
      if (Number.isInteger(n) && n < PAGES) {
        const body = page(n);
        response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(body) }).end(body);
      } else response.writeHead(404, { 'content-length': '0' }).end();
    });
    sites.push(site);
    const base = path.join(dir, 'interrupted');
    const started = spawnCli(['crawl', `${site.origin}/`, '--db', path.join(dir, 'interrupted.db'), '--allow-private', '--warc', `${base}.warc.gz`, '--per-host-delay-ms', '20'], children);
    while (site.log.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    started.child.kill('SIGINT');
    const stopped = await started.exit;
    expect(stopped.code, stopped.stderr).toBe(130);
    const records = await readSeries(base);
    expectDigestsRight(records);
    expect(sorted(requestsIn(records))).toEqual(sorted(site.log));
    const lines = readFileSync(`${base}.cdxj`, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(records.filter((record) => record.type === 'response' || record.type === 'revisit').length);
  }, 60_000);

  it('--recheck: a 304 is a server-not-modified revisit of the URL\'s last capture, in the earlier file', async () => {
    const site = await listen('127.0.0.1', (request, response) => {
      const etag = `"v-${request.url}"`;
      if (request.headers['if-none-match'] === etag) response.writeHead(304, { etag }).end();
      else response.writeHead(200, { 'content-type': 'text/html', etag }).end(request.url === '/' ? '<a href="/a">a</a>' : `<p>${request.url}`);
    });
    sites.push(site);
    const base = path.join(dir, 'recheck');
    const args = ['crawl', `${site.origin}/`, '--db', path.join(dir, 'recheck.db'), '--allow-private', '--warc', `${base}.warc.gz`, '--no-sitemap'];
    expect((await run(args)).code).toBe(0);
    const again = await run([...args, '--recheck']);
    expect(again.code, again.stderr).toBe(0);
    const firstRun = await readWarc(`${base}.warc.gz`);
    const secondRun = await readWarc(`${base}-00001.warc.gz`);
    for (const suffix of ['/', '/a']) {
      const earlier = firstRun.find((record) => record.type === 'response' && record.uri === `${site.origin}${suffix}`)!;
      const revisit = secondRun.find((record) => record.type === 'revisit' && record.uri === `${site.origin}${suffix}`)!;
      expect(revisit.headers.get('warc-profile')).toBe(REVISIT_SERVER_NOT_MODIFIED);
      expect(revisit.headers.get('warc-refers-to-target-uri')).toBe(earlier.uri);
      expect(revisit.headers.get('warc-refers-to-date')).toBe(earlier.headers.get('warc-date'));
      expect(splitHttp(revisit.block).head).toMatch(/^HTTP\/1\.1 304 /);
    }
  }, 60_000);
});


