// What a parse worker saves the main thread, page by page (src/crawl/page-reading.ts,
// parse-pool.ts): the main thread's cost of reading a page itself (extract, resolve:
// `PageLinkReader#reads`) against its cost of handing the page to a worker and taking
// the answer back (the request's structured clone, the answer's, and `unpackReading`),
// and what the worker pays for packing. Also the answer sent as one JSON string instead
// of a string table (the alternative measured). Peer in the same run: the in-thread read.
//
//   npm run build && node --expose-gc dist/bench/crawl-page-reading.bench.js
//   PAGE_READING_ROOT=/usr/share/doc/python3.11/html PAGE_READING_PAGES=800 node …
//
// Structured clone is measured with v8.serialize/deserialize, the serializer postMessage
// uses; the Int32Array is transferred in a real message, so its copy here is an upper bound.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FetchedResponse } from '../src/fetch/index.js';
import { LinkRoles } from '../src/crawl/link-role.js';
import { PageLinkReader, extractPageReferences, type PageContext } from '../src/crawl/page-links.js';
import { packReading, readPage, readRequestOf, unpackReading, type PackedReading } from '../src/crawl/page-reading.js';
import { ScopeTest } from '../src/crawl/scope.js';
import { printEnvironment } from './support/measure.js';

const ROOT = process.env['PAGE_READING_ROOT'] ?? '/usr/share/doc/gcc-12-base/libstdc++';
const LIMIT = Number(process.env['PAGE_READING_PAGES'] ?? 1000);
const ORIGIN = 'http://127.0.0.1:8080/site/';

function loadPages(root: string): { url: string; body: string }[] {
  const pages: { url: string; body: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (pages.length >= LIMIT) return;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.html')) pages.push({ url: ORIGIN + path.relative(root, file), body: readFileSync(file, 'utf8') });
    }
  };
  walk(root);
  return pages;
}

function responseOf(page: { url: string; body: string }): FetchedResponse {
  return {
    requestUrl: page.url,
    finalUrl: page.url,
    hops: [],
    status: 200,
    headers: { 'content-type': 'text/html' },
    contentType: 'text/html',
    charset: 'utf-8',
    body: page.body,
    bytes: page.body.length,
    startedAt: 0,
    durationMs: 0,
    errorCode: undefined,
  };
}

try {
  if (!statSync(ROOT).isDirectory()) throw new Error('not a directory');
} catch {
  console.log(`NOTICE: no HTML tree at ${ROOT}; benchmark skipped (set PAGE_READING_ROOT).`);
  process.exit(0);
}

const pages = loadPages(ROOT);
const megabytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.body), 0) / 1e6;
const scope = new ScopeTest({ seeds: [ORIGIN], scope: 'prefix', include: [], exclude: [], allowPrivate: true });
const roles = new LinkRoles({ scope, maxDepth: Infinity, checkResources: true, checkExternal: false });
const contextOf = (url: string): PageContext => ({
  id: 1,
  url,
  depth: 1,
  baseMode: 'rfc3986',
  follow: ['navigation', 'frame', 'refresh'],
  maxLinks: 50_000,
  mayFollow: () => true,
  decide: (link, use) => roles.decide(link, use, 1),
});
const noPause = (): Promise<void> => Promise.resolve();
const gc = (globalThis as { gc?: () => void }).gc;

/** The least time (ms) of `rounds` passes over the pages. */
async function time(rounds: number, pass: () => Promise<number> | number): Promise<number> {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    gc?.();
    const start = performance.now();
    await pass();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

printEnvironment();
const links = await (async () => {
  let count = 0;
  for (const page of pages) {
    const response = responseOf(page);
    const context = contextOf(page.url);
    count += [...new PageLinkReader(response, context, await extractPageReferences(response, context, noPause)).reads()].length;
  }
  return count;
})();
console.log(`${pages.length} pages of ${ROOT}, ${megabytes.toFixed(1)} MB, ${links} links`);

const packed: PackedReading[] = [];
for (const page of pages) packed.push(await readPage(readRequestOf(responseOf(page), { pageUrl: page.url, baseMode: 'rfc3986', follow: ['navigation', 'frame', 'refresh'], maxLinks: 50_000 })));

const rows: [string, number][] = [];
rows.push([
  'main, in-thread: extract + resolve (reads)',
  await time(5, async () => {
    let n = 0;
    for (const page of pages) {
      const response = responseOf(page);
      const context = contextOf(page.url);
      for (const _ of new PageLinkReader(response, context, await extractPageReferences(response, context, noPause)).reads()) n++;
    }
    return n;
  }),
]);
rows.push([
  'main, in-thread: extract + resolve + decide (entries)',
  await time(5, async () => {
    let n = 0;
    for (const page of pages) {
      const response = responseOf(page);
      const context = contextOf(page.url);
      for (const _ of new PageLinkReader(response, context, await extractPageReferences(response, context, noPause)).entries()) n++;
    }
    return n;
  }),
]);
rows.push([
  'worker: readPage (extract + resolve + pack)',
  await time(5, async () => {
    let n = 0;
    for (const page of pages) n += (await readPage(readRequestOf(responseOf(page), { pageUrl: page.url, baseMode: 'rfc3986', follow: ['navigation', 'frame', 'refresh'], maxLinks: 50_000 }))).ints.length;
    return n;
  }),
]);
const requests = pages.map((page) => readRequestOf(responseOf(page), { pageUrl: page.url, baseMode: 'rfc3986', follow: ['navigation', 'frame', 'refresh'], maxLinks: 50_000 }));
rows.push(['main, pool: clone the request (serialize)', await time(5, () => requests.reduce((n, request) => n + serialize(request).length, 0))]);
const answers = packed.map((p) => serialize({ id: 1, strings: p.strings, ints: p.ints }));
rows.push(['main, pool: clone the answer in (deserialize)', await time(5, () => answers.reduce((n, answer) => n + (deserialize(answer) as PackedReading).strings.length, 0))]);
rows.push(['main, pool: unpackReading', await time(5, () => packed.reduce((n, p, i) => n + unpackReading(p, pages[i]!.url, () => { throw new Error('unused'); }).reads.length, 0))]);
rows.push([
  'main, pool: unpack + decide (entries)',
  await time(5, () => {
    let n = 0;
    packed.forEach((p, i) => {
      const page = pages[i]!;
      const reading = unpackReading(p, page.url, () => { throw new Error('unused'); });
      for (const _ of new PageLinkReader(responseOf(page), contextOf(page.url), reading.extracted, reading.reads).entries()) n++;
    });
    return n;
  }),
]);
const jsons = packed.map((p) => serialize({ id: 1, json: JSON.stringify(p.strings), ints: p.ints }));
rows.push(['alternative: answer as one JSON string, deserialize + JSON.parse', await time(5, () => jsons.reduce((n, answer) => n + (JSON.parse((deserialize(answer) as { json: string }).json) as string[]).length, 0))]);
rows.push(['alternative: worker JSON.stringify of the table', await time(5, () => packed.reduce((n, p) => n + JSON.stringify(p.strings).length, 0))]);
// The records themselves cloned, as a worker would send them without packing.
const records = await Promise.all(pages.map(async (page) => {
  const response = responseOf(page);
  const context = contextOf(page.url);
  return [...new PageLinkReader(response, context, await extractPageReferences(response, context, noPause)).reads()];
}));
rows.push(['alternative: the records cloned (serialize + deserialize)', await time(3, () => records.reduce((n, reads) => n + (deserialize(serialize(reads)) as unknown[]).length, 0))]);

const base = rows[0]![1];
for (const [name, ms] of rows) {
  console.log(`${name.padEnd(66)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / megabytes).toFixed(2).padStart(6)} ms/MB  ${((ms * 1e6) / links).toFixed(0).padStart(5)} ns/link  ${(ms / base).toFixed(2)}× in-thread`);
}
// Keep packReading referenced for readers of this file: readPage packs with it.
void packReading;
