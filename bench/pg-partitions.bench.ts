// What hash partitioning by site (`db migrate --partitions N`) costs the PostgreSQL
// server: the same crawl (the generated site of pg-workers.bench.ts: 8 loopback hosts,
// each answer after 50 ms) into an unpartitioned index and into indexes of 8 and 64
// partitions, and the server's CPU per page for each, with its ratio to the
// unpartitioned one. The server's CPU is read from /proc (support/process-cpu.ts: the
// postmaster's, its backends', those that exited) before the crawl and after it. Every run must
// request every resource exactly once. A throwaway cluster on a loopback port; without
// PostgreSQL (or /proc) the bench says why and stops.
//
//   npx tsc -p tsconfig.json && node dist/bench/pg-partitions.bench.js
//   LINKLADDER_BENCH_PAGES=40 node dist/bench/pg-partitions.bench.js       (quick: pages per host)
//   LINKLADDER_BENCH_PARTITIONS=0,8,64 LINKLADDER_BENCH_WORKERS=2 …          (other shapes)

import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { connect } from '../src/store/pg/pg-database.js';
import { partitionPg } from '../src/store/pg/pg-partitions.js';
import { startWorker } from '../test/support/crawl-workers.js';
import { serveMultiHostSite } from '../test/support/multi-host-site.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { printEnvironment } from './support/measure.js';
import { clusterCpuSeconds } from './support/process-cpu.js';

const PAGES_PER_HOST = Number(process.env['LINKLADDER_BENCH_PAGES'] ?? 150);
const LATENCY_MS = Number(process.env['LINKLADDER_BENCH_LATENCY_MS'] ?? 50);
const CONCURRENCY = Number(process.env['LINKLADDER_BENCH_CONCURRENCY'] ?? 4);
const WORKERS = Number(process.env['LINKLADDER_BENCH_WORKERS'] ?? 1);
/** The runs, by partitions (0: unpartitioned). */
const PARTITION_COUNTS = (process.env['LINKLADDER_BENCH_PARTITIONS'] ?? '0,8,64').split(',').map(Number);

interface RunOutcome {
  readonly resources: number;
  readonly seconds: number;
  readonly isExactlyOnce: boolean;
  readonly serverCpuSeconds: number;
}

async function crawlWith(db: string, dataDir: string): Promise<RunOutcome> {
  const site = await serveMultiHostSite({ pagesPerHost: PAGES_PER_HOST, latencyMs: LATENCY_MS });
  const running = new Set<ChildProcess>();
  try {
    const options = { allowPrivate: true, concurrency: CONCURRENCY, perHostConcurrency: CONCURRENCY, sitemap: false };
    const started = Array.from({ length: WORKERS }, (_, i) => startWorker({ db, seeds: site.seeds, workerId: `w${i}`, options, waitForGo: true }, running));
    await Promise.all(started.map((w) => w.opened));
    const cpuBefore = clusterCpuSeconds(dataDir);
    const startedAt = performance.now();
    for (const worker of started) worker.go();
    const exits = await Promise.all(started.map((w) => w.exit));
    const seconds = (performance.now() - startedAt) / 1000;
    for (const exit of exits) if (exit.code !== 0) throw new Error(`a worker failed (${exit.code ?? exit.signal}): ${exit.stderr}`);
    // The backends of the workers that ended are reaped by now, or still counted as children.
    const cpuAfter = clusterCpuSeconds(dataDir);
    if (cpuBefore === undefined || cpuAfter === undefined) throw new Error('the cluster\'s CPU could not be read from /proc');
    const serverCpuSeconds = cpuAfter - cpuBefore;
    const counts = site.counts();
    const isExactlyOnce = site.resources.every((url) => counts.get(url) === 1) && [...counts.keys()].every((url) => site.resources.includes(url) || url.endsWith('/robots.txt'));
    return { resources: site.resources.length, seconds, isExactlyOnce, serverCpuSeconds };
  } finally {
    for (const child of running) child.kill('SIGKILL');
    await site.close();
  }
}

async function main(): Promise<void> {
  printEnvironment();
  if (!existsSync('/proc/self/stat')) {
    console.log('SKIPPED: no /proc here (the server CPU is read from it)');
    return;
  }
  const cluster = await startPostgres({ settings: { shared_buffers: '256MB', shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } });
  if (typeof cluster === 'string') {
    console.log(`SKIPPED: no PostgreSQL here (${cluster})`);
    return;
  }
  try {
    const dataDir = path.join(cluster.dir, 'data');
    console.log(
      `\nsite: 8 hosts × (${PAGES_PER_HOST} pages + 4 images), every answer after ${LATENCY_MS} ms; ${WORKERS} worker${WORKERS === 1 ? '' : 's'}, concurrency ${CONCURRENCY} each`,
    );
    let base: number | undefined;
    let baseSteady: number | undefined;
    for (const partitions of PARTITION_COUNTS) {
      const db = await cluster.createDatabase();
      if (partitions > 0) {
        const sql = connect(db, { max: 1 });
        await partitionPg(sql, partitions, { now: Date.now, url: db });
        await sql.end({ timeout: 1 });
      }
      const name = new URL(db).pathname.slice(1);
      await cluster.psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', name);
      await cluster.psql('SELECT pg_stat_statements_reset()', name);
      const outcome = await crawlWith(db, dataDir);
      const perPage = (outcome.serverCpuSeconds * 1000) / outcome.resources;
      base ??= partitions === 0 ? perPage : undefined;
      const ratio = base === undefined || partitions === 0 ? '' : `  ${(perPage / base).toFixed(2)}× unpartitioned`;
      const label = partitions === 0 ? 'unpartitioned' : `${partitions} partitions`;
      console.log(
        `  ${label.padEnd(16)} PostgreSQL CPU ${perPage.toFixed(2).padStart(6)} ms a page (${outcome.serverCpuSeconds.toFixed(2)} s for ${outcome.resources} resources, ${outcome.seconds.toFixed(1)} s)  each once: ${outcome.isExactlyOnce ? 'yes' : 'NO'}${ratio}`,
      );
      // Planning is once a connection and statement (generic plans), whatever the crawl's
      // length: the CPU a page without it is what a long crawl pays.
      const planned = await cluster.psql(
        `SELECT coalesce(sum(total_plan_time), 0) FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid WHERE d.datname = '${name}'`,
        name,
      );
      const steady = perPage - Number(planned.trim()) / outcome.resources;
      baseSteady ??= partitions === 0 ? steady : undefined;
      const steadyRatio = baseSteady === undefined || partitions === 0 ? '' : `  ${(steady / baseSteady).toFixed(2)}× unpartitioned`;
      console.log(`      without planning (once a connection and statement): ${steady.toFixed(2)} ms a page${steadyRatio}`);
      // Planning is once per connection and statement (generic plans): on 64 partitions each
      // plan covers every partition, and a short crawl pays it over few pages.
      const totals = await cluster.psql(
        `SELECT round((sum(total_exec_time) / ${outcome.resources})::numeric, 2) || ' ms executing + ' || round((sum(total_plan_time) / ${outcome.resources})::numeric, 2) ||
           ' ms planning a page (' || sum(plans) || ' plans for ' || sum(calls) || ' statements)'
         FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid WHERE d.datname = '${name}'`,
        name,
      );
      console.log(`      statements: ${totals.trim()}`);
      // Where the server's time went: the statements by planning + execution time a page (pg_stat_statements).
      const top = await cluster.psql(
        `SELECT round(((total_plan_time + total_exec_time) / ${outcome.resources})::numeric, 3) || ' ms (plan ' || round((total_plan_time / ${outcome.resources})::numeric, 3) || ')  ' ||
           round(calls::numeric / ${outcome.resources}, 2) || ' a page  ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 60)
         FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid WHERE d.datname = '${name}'
         ORDER BY total_plan_time + total_exec_time DESC LIMIT 6`,
        name,
      );
      for (const row of top.trim().split('\n')) console.log(`      ${row}`);
    }
    console.log('target: 64 partitions <= 1.2× the unpartitioned CPU a page');
    console.log('(planning is spread over the pages of the run: a short run pays more of it a page than a long crawl)');
  } finally {
    await cluster.stop();
  }
}

await main();
