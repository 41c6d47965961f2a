// Issue "RFC 3986 core faster than Node's URL": resolve every link of the Python
// docs corpus against its page and normalize it to the scheme rung, i.e. turn a
// (base, href) pair into the key a crawler dedups on. Targets: ≥ 0.7× Node's
// WHATWG URL and ≥ 4× fast-uri, both measured in this run.
//
//   npm run bench                              (all benchmarks)
//   node --expose-gc dist/bench/uri-resolve.bench.js
//   node --cpu-prof dist/bench/uri-resolve.bench.js --profile   (fused path only, for a profile)
//
// Every contender's key is flattened (charCodeAt of its last character) inside the
// timed loop: a crawler hashes the key next, which flattens a rope, so a contender
// that returns a concatenation tree pays for it here rather than later.

import fastUri from 'fast-uri';
import { resolverFor, tryNormalize, tryResolve, type BoundResolver } from '../src/index.js';
import { normalizeReference } from '../src/ladder/index.js';
import { parseBase, parseUriReference, serialize, transformReference, type AbsoluteUri } from '../src/uri/index.js';
import { loadHrefPairs, requireUrlCorpusDir, type HrefPair } from './support/corpus.js';
import { measureThroughput, printEnvironment, printRatio } from './support/measure.js';

// Each pass takes an optional `out` only so that the cross-check below reads the
// very code that is timed; the branch on it is perfectly predicted.
type Pass = (pairs: readonly HrefPair[], out?: string[]) => number;

const TO_SCHEME_RUNG = { rung: 'scheme' } as const;

/** The public string API, as a library user would call it: one call per link. */
const oursApi: Pass = (pairs, out) => {
  let checksum = 0;
  for (const { base, href } of pairs) {
    const resolved = tryResolve(href, base, TO_SCHEME_RUNG);
    if (!resolved.ok) continue;
    const key = resolved.value;
    checksum += key.charCodeAt(key.length - 1);
    if (out) out.push(key);
  }
  return checksum;
};

/** The public API bound to each page's base (`resolverFor`), as a crawler of pages would call it. */
const oursBound: Pass = (pairs, out) => {
  let checksum = 0;
  let resolver: BoundResolver | undefined;
  let base: string | undefined;
  for (const pair of pairs) {
    if (pair.base !== base) {
      base = pair.base;
      resolver = resolverFor(base, TO_SCHEME_RUNG);
    }
    const resolved = resolver!.tryResolve(pair.href);
    if (!resolved.ok) continue;
    const key = resolved.value;
    checksum += key.charCodeAt(key.length - 1);
    if (out) out.push(key);
  }
  return checksum;
};

/**
 * The path a crawler takes: the page's base is parsed once per page (the corpus
 * is in document order), each href once, and nothing is serialized until the key.
 * Parsing the base stays inside the timed loop.
 */
const oursFused: Pass = (pairs, out) => {
  let checksum = 0;
  let baseText: string | undefined;
  let base: AbsoluteUri | undefined;
  for (const pair of pairs) {
    if (pair.base !== baseText) {
      baseText = pair.base;
      const parsed = parseBase(baseText);
      base = parsed.ok ? parsed.value : undefined;
    }
    const reference = parseUriReference(pair.href);
    if (!reference.ok || base === undefined) continue;
    const key = serialize(normalizeReference(transformReference(reference.value, base), 'scheme'));
    checksum += key.charCodeAt(key.length - 1);
    if (out) out.push(key);
  }
  return checksum;
};

const nodeUrl: Pass = (pairs, out) => {
  let checksum = 0;
  for (const { base, href } of pairs) {
    const key = new URL(href, base).href;
    checksum += key.charCodeAt(key.length - 1);
    if (out) out.push(key);
  }
  return checksum;
};

/** fast-uri's resolve only recomposes; normalize is its §6.2 step, as our `scheme` rung is ours. */
const fastUriResolve: Pass = (pairs, out) => {
  let checksum = 0;
  for (const { base, href } of pairs) {
    const key = fastUri.normalize(fastUri.resolve(base, href));
    checksum += key.charCodeAt(key.length - 1);
    if (out) out.push(key);
  }
  return checksum;
};

// Each contender judges a pair with its own rules (ours: RFC 3986 grammar; WHATWG
// repairs what it can; fast-uri throws on some). Time only the pairs all accept,
// so every pass does the same work on the same input.
function commonPairs(all: readonly HrefPair[]): { pairs: HrefPair[]; rejectedBy: Map<string, HrefPair[]> } {
  const rejectedBy = new Map<string, HrefPair[]>([
    ['linkladder', []],
    ['Node URL', []],
    ['fast-uri', []],
  ]);
  const pairs: HrefPair[] = [];
  for (const pair of all) {
    const resolved = tryResolve(pair.href, pair.base);
    const ours = resolved.ok && tryNormalize(resolved.value).ok && tryResolve(pair.href, pair.base, TO_SCHEME_RUNG).ok;
    const node = succeeds(() => new URL(pair.href, pair.base));
    const fast = succeeds(() => fastUri.normalize(fastUri.resolve(pair.base, pair.href)));
    if (!ours) rejectedBy.get('linkladder')!.push(pair);
    if (!node) rejectedBy.get('Node URL')!.push(pair);
    if (!fast) rejectedBy.get('fast-uri')!.push(pair);
    if (ours && node && fast) pairs.push(pair);
  }
  return { pairs, rejectedBy };
}

function succeeds(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}

function keysOf(pass: Pass, pairs: readonly HrefPair[]): string[] {
  const out: string[] = [];
  pass(pairs, out);
  return out;
}

// WHATWG URL is not RFC 3986 (it encodes, strips and repairs differently), so
// agreement is a sanity check for the reader, not a pass/fail criterion.
function printCrossCheck(pairs: readonly HrefPair[]): void {
  const api = keysOf(oursApi, pairs);
  const fused = keysOf(oursFused, pairs);
  const node = keysOf(nodeUrl, pairs);
  const fast = keysOf(fastUriResolve, pairs);
  for (const [name, keys] of [['fused path', fused], ['bound resolver', keysOf(oursBound, pairs)]] as const) {
    const mismatch = keys.findIndex((key, i) => key !== api[i]);
    if (keys.length !== api.length || mismatch !== -1) {
      throw new Error(`${name} and public API disagree at pair ${mismatch}: ${keys[mismatch]} vs ${api[mismatch]}`);
    }
  }
  let sameAsNode = 0;
  let sameAsFast = 0;
  const examples = new Map<string, string>();
  for (let i = 0; i < pairs.length; i++) {
    if (api[i] === fast[i]) sameAsFast++;
    if (api[i] === node[i]) {
      sameAsNode++;
    } else if (examples.size < 5 && !examples.has(pairs[i]!.href)) {
      examples.set(pairs[i]!.href, `  ${JSON.stringify(pairs[i]!.href)} on ${pairs[i]!.base}\n    ours ${api[i]}\n    node ${node[i]}`);
    }
  }
  console.log('\ncross-check (timed pairs; the fused path, the bound resolver and the public API agree on all of them):');
  console.log(`  ours === new URL(href, base).href: ${sameAsNode} of ${pairs.length} (${percent(sameAsNode, pairs.length)})`);
  console.log(`  ours === fast-uri normalize(resolve()): ${sameAsFast} of ${pairs.length} (${percent(sameAsFast, pairs.length)})`);
  if (examples.size === 0) console.log('  no differences from Node URL on this corpus');
  else console.log(`  first ${examples.size} differences from Node URL (distinct hrefs):`);
  for (const example of examples.values()) console.log(example);
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(2)}%`;
}

// Nothing but the fused path in a loop, so that a CPU profile shows only src/.
function profileFused(pairs: readonly HrefPair[], passes = 30): void {
  const start = performance.now();
  let checksum = 0;
  for (let pass = 0; pass < passes; pass++) checksum += oursFused(pairs);
  const nsPerPair = ((performance.now() - start) * 1e6) / passes / pairs.length;
  console.log(`fused path: ${passes} passes over ${pairs.length} pairs, ${nsPerPair.toFixed(0)} ns/pair (checksum ${checksum})`);
}

async function main(): Promise<void> {
  const all = loadHrefPairs(requireUrlCorpusDir());
  if (process.argv.includes('--profile')) return profileFused(all);
  printEnvironment();
  const { pairs, rejectedBy } = commonPairs(all);
  console.log(`\npairs: ${all.length} in the corpus, ${pairs.length} timed, ${all.length - pairs.length} dropped`);
  for (const [contender, rejected] of rejectedBy) {
    const sample = rejected.slice(0, 3).map((pair) => JSON.stringify(pair.href));
    console.log(`  rejected by ${contender}: ${rejected.length}${sample.length > 0 ? ` (e.g. ${sample.join(', ')})` : ''}`);
  }
  printCrossCheck(pairs);

  const names = {
    api: "ours (a) API: tryResolve(href, base, { rung: 'scheme' })",
    bound: "ours (a') API bound: resolverFor(base, { rung: 'scheme' })",
    fused: 'ours (b) fused: parseBase once + internals',
    node: 'Node URL: new URL(href, base).href',
    fast: 'fast-uri: normalize(resolve(base, href))',
  };
  const rounds = await measureThroughput(`resolve + normalize, ${pairs.length} pairs per pass`, pairs.length, [
    { name: names.api, pass: () => oursApi(pairs) },
    { name: names.bound, pass: () => oursBound(pairs) },
    { name: names.fused, pass: () => oursFused(pairs) },
    { name: names.node, pass: () => nodeUrl(pairs) },
    { name: names.fast, pass: () => fastUriResolve(pairs) },
  ]);
  console.log('\nratios (throughput, > 1 is faster):');
  for (const ours of [names.api, names.bound, names.fused]) {
    printRatio(rounds, ours, names.node, 0.7);
    printRatio(rounds, ours, names.fast, 4);
  }
}

await main();
