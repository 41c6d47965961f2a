// Admission on PostgreSQL with 1 and 4 concurrent writers, against the
// SQLite index in the same run, on the stream of store-admit.bench.ts (10M links
// over 1M URLs by default; about 90% of links repeat a known target, spelled at
// every rung). Each writer is a process of its own; with N writers, writer w admits
// every Nth page of the stream, each from a page of its own (made before the clock starts). A throwaway PostgreSQL
// cluster is started on a loopback port (and removed); without PostgreSQL the bench
// says why and stops.
//
//   node dist/bench/pg-admit.bench.js
//   LINKLADDER_BENCH_LINKS=1000000 LINKLADDER_BENCH_URLS=100000 node dist/bench/pg-admit.bench.js   (quick)

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PgStore, SqliteStore, type AdmitEntry, type IndexWriter } from '../src/store/index.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { printEnvironment } from './support/measure.js';
import { linkBatches, seedUrl, type StreamShape } from './support/link-stream.js';

const run = promisify(execFile);

interface WriterOutcome {
  readonly links: number;
  readonly seconds: number;
}

/** One writer: every `writers`th page of the stream from `writer`, each page one admit, from a page of its own. */
async function runWriter(store: IndexWriter, shape: StreamShape, writer: number, writers: number): Promise<WriterOutcome> {
  // The pages the links are on (as a crawl admits each page's links once), made before the clock starts.
  const pageCount = Math.ceil(shape.links / 100 / writers) + 1;
  const pages: number[] = [];
  for (let first = 0; first < pageCount; first += 1000) {
    const seeds = Array.from({ length: Math.min(1000, pageCount - first) }, (_, i) => `${seedUrl()}writer-${writer}/page-${first + i}`);
    for (const result of await store.admit(seeds.map((uri) => ({ rawHref: uri, target: uri })))) pages.push(result.urlId!);
  }
  await store.flush();
  const start = performance.now();
  const progress = process.env['LINKLADDER_BENCH_PROGRESS'] === '1';
  let links = 0;
  let index = 0;
  let page = 0;
  for (const batch of linkBatches(shape)) {
    if (index++ % writers !== writer) continue;
    const from = pages[page++]!;
    const entries: AdmitEntry[] = batch.map((l) => ({ fromUrlId: from, rawHref: l.target, target: l.target, element: 'a', attribute: 'href', baseLevel: 'retrieval', depth: 1 }));
    await store.admit(entries);
    links += batch.length;
    if (progress && page % 1000 === 0) process.stderr.write(`writer ${writer}: ${links} links, ${((performance.now() - start) / 1000).toFixed(1)} s\n`);
  }
  await store.flush();
  return { links, seconds: (performance.now() - start) / 1000 };
}

async function child(args: string[]): Promise<void> {
  const [kind, target, links, urls, writer, writers] = args as [string, string, string, string, string, string];
  const shape: StreamShape = { links: Number(links), urls: Number(urls) };
  const store = kind === 'pg' ? await PgStore.open({ url: target, maxConnections: 1 }) : new SqliteStore({ path: target });
  try {
    process.stdout.write(JSON.stringify(await runWriter(store, shape, Number(writer), Number(writers))));
  } finally {
    await store.close();
  }
}

async function writers(kind: 'pg' | 'sqlite', target: string, shape: StreamShape, count: number): Promise<{ linksPerSecond: number; seconds: number }> {
  const self = fileURLToPath(import.meta.url);
  const start = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, w) =>
      run(process.execPath, [self, '--child', kind, target, String(shape.links), String(shape.urls), String(w), String(count)], { maxBuffer: 1 << 20 }).then(
        (r) => JSON.parse(r.stdout) as WriterOutcome,
      ),
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  const links = outcomes.reduce((sum, o) => sum + o.links, 0);
  return { linksPerSecond: links / Math.max(...outcomes.map((o) => o.seconds)), seconds };
}

function filesBytes(file: string): number {
  return ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args.slice(1));
  const shape: StreamShape = { links: Number(process.env['LINKLADDER_BENCH_LINKS'] ?? 10_000_000), urls: Number(process.env['LINKLADDER_BENCH_URLS'] ?? 1_000_000) };
  printEnvironment();
  const cluster = await startPostgres({ settings: { shared_buffers: '512MB', max_wal_size: '4GB', checkpoint_timeout: '30min' } });
  if (typeof cluster === 'string') {
    console.log(`SKIPPED: no PostgreSQL here (${cluster})`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-pg-admit-'));
  try {
    console.log(`stream: ${shape.links} links over ${shape.urls} URLs, 100 links a page, one admit a page`);
    const rows: [string, number, number, string][] = [];
    const file = path.join(dir, 'bench.db');
    const sqlite = await writers('sqlite', file, shape, 1);
    rows.push(['SQLite, 1 writer (1000 links a transaction)', sqlite.linksPerSecond, sqlite.seconds, `${(filesBytes(file) / shape.urls).toFixed(0)} B/URL on disk`]);
    for (const count of [1, 4]) {
      const url = await cluster.createDatabase();
      const pg = await writers('pg', url, shape, count);
      const database = new URL(url).pathname.slice(1);
      const size = Number((await cluster.psql(`SELECT pg_database_size('${database}')`)).trim());
      rows.push([`PostgreSQL, ${count} writer${count === 1 ? '' : 's'} (a statement a page)`, pg.linksPerSecond, pg.seconds, `${(size / shape.urls).toFixed(0)} B/URL on disk`]);
    }
    for (const [name, rate, seconds, disk] of rows) console.log(`  ${name.padEnd(48)} ${(rate / 1000).toFixed(0).padStart(6)}k links/s  ${seconds.toFixed(1).padStart(7)} s  ${disk}`);
    const [base, pg1, pg4] = rows.map((r) => r[1]);
    console.log('\nratios (throughput):');
    console.log(`  PostgreSQL 1 writer / SQLite   ${(pg1! / base!).toFixed(2)}×`);
    console.log(`  PostgreSQL 4 writers / SQLite  ${(pg4! / base!).toFixed(2)}×`);
    console.log(`  PostgreSQL 4 writers / 1       ${(pg4! / pg1!).toFixed(2)}×`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}

await main();
