// Issue "Crawl a real documentation site at most 2× wget's CPU": the HTML side.
// `extractLinks` over every page of the postgresql-doc-15 tree (about 1,170 pages,
// 18 MB), decoded as UTF-8 beforehand. Peer: htmlparser2's own `Parser` with an
// `onattribute` handler that only collects href and src values — the cheapest
// thing that reads the same markup (same tokenizer, entities decoded).
//
//   npm run bench -- html-extract          HTML_EXTRACT_ROOT=/other/html/tree
//   node --expose-gc dist/bench/html-extract.bench.js
//   node --cpu-prof dist/bench/html-extract.bench.js --profile   (ours only, for a profile)

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { extractLinks, type LinkKind } from '../src/html/index.js';
import { measureThroughput, printEnvironment, printRatio } from './support/measure.js';

const ROOT = process.env['HTML_EXTRACT_ROOT'] ?? '/usr/share/doc/postgresql-doc-15/html';
/** What the crawl follows by default, as `extractLinks` is called per page. */
const FOLLOW: readonly LinkKind[] = ['navigation', 'frame', 'refresh'];

function loadPages(root: string): string[] | undefined {
  try {
    if (!statSync(root).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const decoder = new TextDecoder('utf-8');
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && entry.name.endsWith('.html')) pages.push(decoder.decode(readFileSync(file)));
    }
  };
  walk(root);
  return pages;
}

function ours(pages: readonly string[]): number {
  let checksum = 0;
  for (const html of pages) {
    const { references, anchors } = extractLinks(html, { follow: FOLLOW });
    checksum += references.length + anchors.size;
  }
  return checksum;
}

function peer(pages: readonly string[]): number {
  let checksum = 0;
  const values: string[] = [];
  const parser = new Parser({
    onattribute(name, value) {
      if (name === 'href' || name === 'src') values.push(value);
    },
  });
  for (const html of pages) {
    values.length = 0;
    parser.reset();
    parser.end(html);
    checksum += values.length;
  }
  return checksum;
}

function profile(pages: readonly string[], megabytes: number, passes = 20): void {
  const start = performance.now();
  let checksum = 0;
  for (let pass = 0; pass < passes; pass++) checksum += ours(pages);
  const seconds = (performance.now() - start) / 1e3;
  console.log(`extractLinks: ${passes} passes, ${((megabytes * passes) / seconds).toFixed(1)} MB/s (checksum ${checksum})`);
}

async function main(): Promise<void> {
  const pages = loadPages(ROOT);
  if (pages === undefined || pages.length === 0) {
    console.log(`html-extract: no HTML tree at ${ROOT} (install postgresql-doc-15 or set HTML_EXTRACT_ROOT); skipped`);
    return;
  }
  const characters = pages.reduce((sum, html) => sum + html.length, 0);
  const megabytes = pages.reduce((sum, html) => sum + Buffer.byteLength(html, 'utf8'), 0) / 1e6;
  if (process.argv.includes('--profile')) return profile(pages, megabytes);
  printEnvironment();
  console.log(`\npages: ${pages.length} from ${ROOT}, ${megabytes.toFixed(1)} MB (${characters} UTF-16 code units)`);
  const names = {
    ours: 'ours: extractLinks(html, { follow })',
    peer: 'htmlparser2 Parser, onattribute href/src',
  };
  const rounds = await measureThroughput(`one pass = ${pages.length} pages`, pages.length, [
    { name: names.ours, pass: () => ours(pages) },
    { name: names.peer, pass: () => peer(pages) },
  ]);
  console.log('\nMB/s (median over rounds):');
  for (const name of [names.ours, names.peer]) {
    const perSecond = [...rounds.get(name)!].sort((a, b) => a - b)[rounds.get(name)!.length >> 1]!;
    console.log(`  ${name.padEnd(46)} ${((perSecond / pages.length) * megabytes).toFixed(1).padStart(7)} MB/s`);
  }
  console.log('\nratios (throughput, > 1 is faster):');
  printRatio(rounds, names.ours, names.peer);
}

await main();
