// Issue "dedup index in SQLite": admit a 10M-link stream over 1M distinct URLs
// (about 90% of links repeat a known target, spelled at every rung) and compare,
// in the same run, with a plain `INSERT OR IGNORE` of the precomputed keys and with
// the in-memory `Set` lower bound. Each contender runs in a child process of its
// own, so that its peak RSS is its own.
//
//   npm run bench store          (or: node dist/bench/store-admit.bench.js)
//   LINKLADDER_BENCH_LINKS=1000000 LINKLADDER_BENCH_URLS=100000 …   for a quick run
//
// Targets: ≥ 200k links/s admitted; peak RSS ≤ 300 MB at 1M URLs.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteStore, type AdmitEntry } from '../src/store/index.js';
import { printEnvironment } from './support/measure.js';
import { linkBatches, seedUrl, type StreamShape } from './support/link-stream.js';

interface Outcome {
  readonly contender: string;
  readonly links: number;
  readonly seconds: number;
  readonly peakRssMb: number;
  readonly dbBytes?: number;
  readonly urls?: number;
  readonly byRung?: Record<string, number>;
}

function peakRssMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? process.memoryUsage().rss / 2 ** 20 : Number(kb) / 1024;
}

function filesBytes(file: string): number {
  return ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
}

/**
 * Our store as the crawler uses it: one admit a page, units committed in groups
 * (`maxLinks` links a transaction; 1 is a transaction a page).
 */
async function runStore(shape: StreamShape, file: string, maxLinks: number): Promise<Outcome> {
  const store = new SqliteStore({ path: file, groupCommit: { maxLinks, maxMs: 60_000, idleMs: 60_000 } });
  const pageIds: number[] = [(await store.admit([{ rawHref: seedUrl(), target: seedUrl() }]))[0]!.urlId!];
  const start = performance.now();
  let links = 0;
  for (const batch of linkBatches(shape)) {
    const entries: AdmitEntry[] = batch.map((l) => ({
      fromUrlId: pageIds[l.fromIndex] ?? 1,
      rawHref: l.target,
      target: l.target,
      element: 'a',
      attribute: 'href',
      baseLevel: 'retrieval',
      depth: 1,
    }));
    for (const result of await store.admit(entries)) if (result.rung === 'new') pageIds.push(result.urlId!);
    links += batch.length;
  }
  await store.flush();
  const seconds = (performance.now() - start) / 1000;
  const stats = await store.stats();
  await store.close();
  const urls = Object.values(stats.urlsByState).reduce((a, b) => a + b, 0);
  const group = maxLinks === 1 ? 'a transaction a page' : `${maxLinks} links a transaction`;
  return { contender: `linkladder admit (${group})`, links, seconds, peakRssMb: peakRssMb(), dbBytes: filesBytes(file), urls, byRung: stats.linksByRung };
}

/** The floor for SQLite: the same batches, keys already computed, one unique index. */
function runPlainInsert(shape: StreamShape, file: string): Outcome {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE url (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)');
  const insert = db.prepare('INSERT OR IGNORE INTO url (key) VALUES (?)');
  const admitPage = db.transaction((keys: string[]) => {
    for (const key of keys) insert.run(key);
  });
  const start = performance.now();
  let links = 0;
  for (const batch of linkBatches(shape)) {
    admitPage(batch.map((l) => l.key));
    links += batch.length;
  }
  const seconds = (performance.now() - start) / 1000;
  const urls = db.prepare('SELECT count(*) FROM url').pluck().get() as number;
  db.close();
  return { contender: 'SQLite INSERT OR IGNORE of precomputed keys', links, seconds, peakRssMb: peakRssMb(), dbBytes: filesBytes(file), urls };
}

/** The lower bound: no disk, no normalization, keys already computed. */
function runSet(shape: StreamShape): Outcome {
  const seen = new Set<string>();
  const start = performance.now();
  let links = 0;
  for (const batch of linkBatches(shape)) {
    for (const l of batch) seen.add(l.key);
    links += batch.length;
  }
  return { contender: 'in-memory Set of precomputed keys', links, seconds: (performance.now() - start) / 1000, peakRssMb: peakRssMb(), urls: seen.size };
}

/** Generating the stream alone: what every contender's time includes. */
function runGenerate(shape: StreamShape): Outcome {
  const start = performance.now();
  let links = 0;
  for (const batch of linkBatches(shape)) links += batch.length;
  return { contender: 'generating the stream only', links, seconds: (performance.now() - start) / 1000, peakRssMb: peakRssMb() };
}

async function child(args: string[]): Promise<void> {
  const [contender, links, urls, maxLinks] = args;
  const shape: StreamShape = { links: Number(links), urls: Number(urls) };
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-bench-'));
  const file = path.join(dir, 'bench.db');
  try {
    const outcome =
      contender === 'store'
        ? await runStore(shape, file, Number(maxLinks ?? 1000))
        : contender === 'insert'
          ? runPlainInsert(shape, file)
          : contender === 'set'
            ? runSet(shape)
            : runGenerate(shape);
    process.stdout.write(JSON.stringify(outcome));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(contender: string, shape: StreamShape, maxLinks = 1000): Outcome {
  const self = fileURLToPath(import.meta.url);
  const argv = [self, '--child', contender, String(shape.links), String(shape.urls), String(maxLinks)];
  const out = execFileSync(process.execPath, argv, {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as Outcome;
}

function report(outcomes: readonly Outcome[]): void {
  for (const o of outcomes) {
    const rate = o.links / o.seconds;
    const extra = [
      o.urls === undefined ? '' : `${o.urls} URLs`,
      o.dbBytes === undefined || o.urls === undefined ? '' : `${(o.dbBytes / 2 ** 20).toFixed(0)} MiB on disk, ${(o.dbBytes / o.urls).toFixed(0)} B/URL`,
    ].filter(Boolean);
    console.log(
      `  ${o.contender.padEnd(46)} ${(rate / 1000).toFixed(0).padStart(6)}k links/s  ${o.seconds.toFixed(1).padStart(6)} s  peak RSS ${o.peakRssMb.toFixed(0).padStart(4)} MB  ${extra.join(', ')}`,
    );
    if (o.byRung) console.log(`      links by rung: ${Object.entries(o.byRung).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args.slice(1));
  printEnvironment();
  const shape: StreamShape = {
    links: Number(process.env['LINKLADDER_BENCH_LINKS'] ?? 10_000_000),
    urls: Number(process.env['LINKLADDER_BENCH_URLS'] ?? 1_000_000),
  };
  console.log(`\nstream: ${shape.links} links over ${shape.urls} URLs, 100 links a page, one admit a page, committed every 1000 links (as the crawler writes)`);
  const generate = runChild('generate', shape);
  const store = runChild('store', shape);
  const insert = runChild('insert', shape);
  const set = runChild('set', shape);
  report([generate, store, insert, set]);
  const rate = (o: Outcome): number => o.links / o.seconds;
  console.log('\nratios (throughput):');
  console.log(`  linkladder / INSERT OR IGNORE   ${(rate(store) / rate(insert)).toFixed(2)}×`);
  console.log(`  linkladder / Set                ${(rate(store) / rate(set)).toFixed(2)}×`);
  const met = (ok: boolean): string => (ok ? 'met' : 'NOT MET');
  console.log(`  target ≥ 300k links/s: ${met(rate(store) >= 300_000)} (${(rate(store) / 1000).toFixed(0)}k)`);
  console.log(`  target peak RSS ≤ 300 MB at ${store.urls} URLs: ${met(store.peakRssMb <= 300)} (${store.peakRssMb.toFixed(0)} MB)`);

  // What committing in groups buys over a transaction a page.
  const single = runChild('store', shape, 1);
  console.log('\na transaction a page:');
  report([single]);
  console.log(`  group commit / a transaction a page: ${(rate(store) / rate(single)).toFixed(2)}×`);
}

await main();
