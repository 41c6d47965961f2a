// Parse only: kasztp.txt's 48k real absolute URLs, each split into its components.
// Node's URL also validates, normalizes and serializes (it has no parse-only
// entry), fast-uri.parse splits and normalizes a little, ours splits and checks
// the grammar; that difference is what a caller chooses between.
//
//   npm run bench                              (all benchmarks)
//   node --expose-gc dist/bench/uri-parse.bench.js

import fastUri from 'fast-uri';
import { parse, tryNormalize, tryParse } from '../src/index.js';
import { loadAbsoluteUrls, requireUrlCorpusDir } from './support/corpus.js';
import { measureThroughput, printEnvironment, printRatio } from './support/measure.js';

// Checksums read one component so that the result object must exist.

function oursApi(urls: readonly string[]): number {
  let checksum = 0;
  for (const url of urls) {
    const parsed = tryParse(url);
    if (parsed.ok) checksum += parsed.value.path.length;
  }
  return checksum;
}

/** The throwing form, which freezes each record (every timed URL is valid). */
function oursFrozen(urls: readonly string[]): number {
  let checksum = 0;
  for (const url of urls) checksum += parse(url).path.length;
  return checksum;
}

function nodeUrl(urls: readonly string[]): number {
  let checksum = 0;
  for (const url of urls) checksum += new URL(url).port.length;
  return checksum;
}

function fastUriParse(urls: readonly string[]): number {
  let checksum = 0;
  for (const url of urls) checksum += fastUri.parse(url).path?.length ?? 0;
  return checksum;
}

// As in the resolve benchmark: time only what every contender accepts.
function commonUrls(all: readonly string[]): { urls: string[]; rejectedBy: Map<string, string[]> } {
  const rejectedBy = new Map<string, string[]>([
    ['linkladder', []],
    ['Node URL', []],
    ['fast-uri', []],
  ]);
  const urls: string[] = [];
  for (const url of all) {
    const ours = tryParse(url).ok;
    const node = URL.canParse(url);
    const fast = fastUri.parse(url).error === undefined;
    if (!ours) rejectedBy.get('linkladder')!.push(url);
    if (!node) rejectedBy.get('Node URL')!.push(url);
    if (!fast) rejectedBy.get('fast-uri')!.push(url);
    if (ours && node && fast) urls.push(url);
  }
  return { urls, rejectedBy };
}

// Not timed: what the parse-and-serialize of each side makes of these URLs, for a
// reader to judge the ratios by. WHATWG URL is not RFC 3986, so some differ.
function printCrossCheck(urls: readonly string[]): void {
  let same = 0;
  const examples: string[] = [];
  for (const url of urls) {
    const ours = tryNormalize(url);
    const node = new URL(url).href;
    if (ours.ok && ours.value === node) same++;
    else if (examples.length < 5) examples.push(`  ${url}\n    ours ${ours.ok ? ours.value : ours.error.code}\n    node ${node}`);
  }
  console.log('\ncross-check (not timed): our scheme-rung normalize(s) against new URL(s).href');
  const share = `${((100 * same) / urls.length).toFixed(2)}%`;
  console.log(`  equal on ${same} of ${urls.length} (${share})${examples.length > 0 ? `; the first ${examples.length} differences:` : ''}`);
  for (const example of examples) console.log(example);
}

async function main(): Promise<void> {
  const all = loadAbsoluteUrls(requireUrlCorpusDir());
  printEnvironment();
  const { urls, rejectedBy } = commonUrls(all);
  console.log(`\nURLs: ${all.length} in the corpus, ${urls.length} timed, ${all.length - urls.length} dropped`);
  for (const [contender, rejected] of rejectedBy) {
    const sample = rejected.slice(0, 3).map((url) => JSON.stringify(url));
    console.log(`  rejected by ${contender}: ${rejected.length}${sample.length > 0 ? ` (e.g. ${sample.join(', ')})` : ''}`);
  }

  printCrossCheck(urls);

  const names = {
    api: 'ours: tryParse',
    internal: 'ours: parse (throwing, frozen record)',
    node: 'Node URL: new URL(s)',
    fast: 'fast-uri: parse(s)',
  };
  const rounds = await measureThroughput(`parse, ${urls.length} absolute URLs per pass`, urls.length, [
    { name: names.api, pass: () => oursApi(urls) },
    { name: names.internal, pass: () => oursFrozen(urls) },
    { name: names.node, pass: () => nodeUrl(urls) },
    { name: names.fast, pass: () => fastUriParse(urls) },
  ]);
  console.log('\nratios (throughput, > 1 is faster; the issue sets its targets on resolve + normalize):');
  for (const ours of [names.api, names.internal]) {
    printRatio(rounds, ours, names.node);
    printRatio(rounds, ours, names.fast);
  }
}

await main();
