// Issue "One link pipeline": the per-page path. Each page's base is bound once
// (computeBaseChain + LinkResolver), then every href of the page becomes one
// record — cleanHref (the one parse), §5.2 resolution, the key, the §4.4
// same-document flag, the REF_* findings — as src/crawl/page-links.ts makes it.
// Peer: `new URL(href, base).href` (Node's WHATWG URL, ada), one call per href.
// Target: ≥ 2× the peer on the 176,407 real (base, href) pairs, grouped by page.
//
//   npm run bench -- page-links
//   node --expose-gc dist/bench/uri-page-links.bench.js
//   node --cpu-prof dist/bench/uri-page-links.bench.js --profile   (ours only, for a profile)
//
// Every contender's key is flattened (charCodeAt of its last character) inside the
// timed loop, as in uri-resolve.bench.ts.

import { computeBaseChain, isSameDocumentReference, PageResolver } from '../src/base/index.js';
import { LinkResolver } from '../src/crawl/page-links.js';
import { cleanHref } from '../src/html/index.js';
import { resourceKey, resourceKeyOf } from '../src/ladder/index.js';
import { resolveReference, serialize } from '../src/uri/index.js';
import { loadHrefPairs, requireUrlCorpusDir, type HrefPair } from './support/corpus.js';
import { measureThroughput, printEnvironment, printRatio } from './support/measure.js';

/** The pairs of one page (the corpus is in document order: a page's hrefs are contiguous). */
interface Page {
  readonly base: string;
  readonly hrefs: readonly string[];
}

function groupByPage(pairs: readonly HrefPair[]): Page[] {
  const pages: { base: string; hrefs: string[] }[] = [];
  for (const { base, href } of pairs) {
    const last = pages[pages.length - 1];
    if (last !== undefined && last.base === base) last.hrefs.push(href);
    else pages.push({ base, hrefs: [href] });
  }
  return pages;
}

type Pass = (pages: readonly Page[], out?: string[]) => number;

/** The crawler's path: one LinkResolver per page, one LinkRecord per href. */
const oursPerPage: Pass = (pages, out) => {
  let checksum = 0;
  for (const page of pages) {
    const links = new LinkResolver(computeBaseChain({ retrievalUrl: page.base }), page.base);
    for (const href of page.hrefs) {
      const resolved = links.resolve(href).resolved;
      if (resolved === undefined) continue;
      const key = resolved.key;
      checksum += key.charCodeAt(key.length - 1) + (resolved.isSameDocument ? 1 : 0);
      if (out) out.push(resolved.targetText);
    }
  }
  return checksum;
};

/** The same without the LinkRecord: cleanHref, then the PageResolver's record. */
const oursBare: Pass = (pages, out) => {
  let checksum = 0;
  for (const page of pages) {
    const resolver = new PageResolver(computeBaseChain({ retrievalUrl: page.base }), page.base);
    for (const href of page.hrefs) {
      const R = cleanHref(href).reference;
      if (R === undefined) continue;
      const resolved = resolver.resolve(R);
      if (resolved === undefined) continue;
      const key = resolved.key;
      checksum += key.charCodeAt(key.length - 1) + (resolved.isSameDocument ? 1 : 0);
      if (out) out.push(resolved.targetText);
    }
  }
  return checksum;
};

const nodeUrl: Pass = (pages, out) => {
  let checksum = 0;
  for (const page of pages) {
    const base = page.base;
    for (const href of page.hrefs) {
      const key = new URL(href, base).href;
      checksum += key.charCodeAt(key.length - 1);
      if (out) out.push(key);
    }
  }
  return checksum;
};

function targetsOf(pass: Pass, pages: readonly Page[]): string[] {
  const out: string[] = [];
  pass(pages, out);
  return out;
}

// WHATWG URL is not RFC 3986, so agreement is told, not required; the two of ours must agree.
function printCrossCheck(pages: readonly Page[], pairCount: number): void {
  const perPage = targetsOf(oursPerPage, pages);
  const bare = targetsOf(oursBare, pages);
  const node = targetsOf(nodeUrl, pages);
  const mismatch = perPage.findIndex((target, i) => target !== bare[i]);
  if (perPage.length !== bare.length || mismatch !== -1) throw new Error(`LinkResolver and bare paths disagree at ${mismatch}`);
  let same = 0;
  for (let i = 0; i < Math.min(perPage.length, node.length); i++) if (perPage[i] === node[i]) same++;
  console.log(`\nrecords: ${perPage.length} of ${pairCount} hrefs resolved; target === new URL(href, base).href for ${same} (same position)`);
  // The records must say what the string steps say, one at a time (cleaned text, §5.2, key, §4.4).
  let k = 0;
  for (const page of pages) {
    const pageKey = resourceKeyOf(page.base);
    for (const href of page.hrefs) {
      const cleaned = cleanHref(href).cleaned;
      if (cleaned === undefined) continue;
      const T = resolveReference(cleaned, page.base);
      if (!T.ok) continue;
      const key = resourceKey(T.value);
      const isSame = isSameDocumentReference(cleaned, page.base) || key === pageKey;
      const target = isSame ? (T.value.fragment === undefined ? page.base : `${page.base}#${T.value.fragment}`) : serialize(T.value);
      if (perPage[k] !== target) throw new Error(`record ${k} (${JSON.stringify(href)} on ${page.base}): ${perPage[k]} ≠ ${target}`);
      k++;
    }
  }
  console.log(`  every record's target equals the string steps' (cleanHref, resolveReference, resourceKey, isSameDocumentReference)`);
}

function profile(pages: readonly Page[], pairCount: number, passes = 30): void {
  const start = performance.now();
  let checksum = 0;
  for (let pass = 0; pass < passes; pass++) checksum += oursPerPage(pages);
  const ns = ((performance.now() - start) * 1e6) / passes / pairCount;
  console.log(`per-page path: ${passes} passes over ${pairCount} hrefs, ${ns.toFixed(0)} ns/href (checksum ${checksum})`);
}

async function main(): Promise<void> {
  const pairs = loadHrefPairs(requireUrlCorpusDir());
  const pages = groupByPage(pairs);
  if (process.argv.includes('--profile')) return profile(pages, pairs.length);
  printEnvironment();
  console.log(`\nhrefs: ${pairs.length} on ${pages.length} pages`);
  printCrossCheck(pages, pairs.length);
  const names = {
    perPage: 'ours: LinkResolver.resolve (clean, resolve, key, §4.4, findings)',
    bare: 'ours, bare: cleanHref + PageResolver.resolve',
    node: 'Node URL: new URL(href, base).href',
  };
  const rounds = await measureThroughput(`per-page path, ${pairs.length} hrefs per pass`, pairs.length, [
    { name: names.perPage, pass: () => oursPerPage(pages) },
    { name: names.bare, pass: () => oursBare(pages) },
    { name: names.node, pass: () => nodeUrl(pages) },
  ]);
  console.log('\nratios (throughput, > 1 is faster):');
  printRatio(rounds, names.perPage, names.node, 2);
  printRatio(rounds, names.bare, names.node);
}

await main();
