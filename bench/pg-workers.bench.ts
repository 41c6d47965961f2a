// Cooperating crawl workers on one PostgreSQL index. A generated site over
// 8 loopback hosts (127.0.0.2–127.0.0.9) whose servers answer each request after 50 ms
// (the real web is latency-bound): pages/s with 1, 2 and 4 workers, each a process of
// its own (test/support/crawl-worker.mjs: the library's crawl() into a PgStore), and
// one process on a SQLite index on the same site (the price of the network store).
// Every run must request every resource exactly once. Pages/s counts the site's
// resources over the time from the first request the servers saw to the last answer
// (the workers start crawling together once all are open: start-up is left out); robots.txt is read (once per origin and worker),
// sitemaps are not. A throwaway PostgreSQL cluster is started on a loopback port (and
// removed); without PostgreSQL the bench says why and stops. Each PostgreSQL run also
// prints its statements (pg_stat_statements) and commits a resource, the statements a
// resource by kind, and the CPU a page of the workers (process.cpuUsage from the start of
// their crawl) and of PostgreSQL (the cluster's processes in /proc, bench/support/process-cpu.ts),
// against the SQLite process's CPU a page in the same run, and against the floor: the
// same rows written by the plainest statements (bench/support/pg-page-floor.ts).
//
// Then the price of distance: ONE worker reaches the server through a proxy that delays
// every chunk by half the round-trip time each way (test/support/delaying-proxy.ts), at
// 0, 1, 2, 4 and 5 ms RTT (4 ms: 2 ms each way), on two shapes of site: latency-bound (answers after
// LATENCY_MS) and CPU-bound (answers at once). Pages/s at each, its ratio to 0 ms, and the
// round trips a page the worker waited for (counted by the proxy: what the worker sends
// before an answer reaches it is one; start-up and the end included).
//
//   npx tsc -p tsconfig.json && node dist/bench/pg-workers.bench.js
//   LINKLADDER_BENCH_PAGES=40 node dist/bench/pg-workers.bench.js     (quick: pages per host)
//   LINKLADDER_BENCH_WORKERS=4 LINKLADDER_BENCH_CONCURRENCY=2 LINKLADDER_BENCH_LATENCY_MS=200 …  (other shapes)
//   LINKLADDER_BENCH_RTTS=0,2 LINKLADDER_BENCH_SHAPES=latency (round trips: which; none: LINKLADDER_BENCH_RTTS=)
//   LINKLADDER_BENCH_FLOOR_PAGES=5000 LINKLADDER_BENCH_FLOOR_HOSTS=8 (the floor's pages, 0: none; its hosts)

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorker } from '../test/support/crawl-workers.js';
import { startDelayingProxy } from '../test/support/delaying-proxy.js';
import { serveMultiHostSite } from '../test/support/multi-host-site.js';
import { startPostgres, type PostgresCluster } from '../test/support/postgres-cluster.js';
import { printEnvironment } from './support/measure.js';
import { measurePageFloor } from './support/pg-page-floor.js';
import { clusterCpuSeconds } from './support/process-cpu.js';

const PAGES_PER_HOST = Number(process.env['LINKLADDER_BENCH_PAGES'] ?? 150);
const LATENCY_MS = Number(process.env['LINKLADDER_BENCH_LATENCY_MS'] ?? 50);
/** Requests in flight per worker. */
const CONCURRENCY = Number(process.env['LINKLADDER_BENCH_CONCURRENCY'] ?? 4);
/** 8 hosts × this: room for twice 4 workers' requests in flight. */
const PER_HOST_CONCURRENCY = CONCURRENCY;
/** The runs on PostgreSQL, by number of workers. */
const WORKER_COUNTS = (process.env['LINKLADDER_BENCH_WORKERS'] ?? '1,2,4').split(',').map(Number);
/** Round-trip times (ms) between one worker and the server, through the delaying proxy. */
const RTTS = (process.env['LINKLADDER_BENCH_RTTS'] ?? '0,1,2,4,5').split(',').filter((x) => x.trim() !== '').map(Number);
/** The sites of the RTT runs: answers after LATENCY_MS (`latency`), or at once (`cpu`). */
const SHAPES = (process.env['LINKLADDER_BENCH_SHAPES'] ?? 'latency,cpu').split(',').filter((x) => x === 'latency' || x === 'cpu');
/** Pages of each shape of the floor (support/pg-page-floor.ts); 0: none. */
const FLOOR_PAGES = Number(process.env['LINKLADDER_BENCH_FLOOR_PAGES'] ?? 5000);
/** The floor's hosts: the site's 8, or as many as a link check meets. */
const FLOOR_HOSTS = Number(process.env['LINKLADDER_BENCH_FLOOR_HOSTS'] ?? 8);

interface RunOutcome {
  readonly pagesPerSecond: number;
  readonly seconds: number;
  readonly resources: number;
  readonly isExactlyOnce: boolean;
  readonly robots: number;
  readonly byWorker: readonly number[];
  /** CPU of the workers, start-up included. */
  readonly cpuSeconds: number;
  /** CPU of the workers' crawls, start-up left out. */
  readonly crawlCpuSeconds: number;
}

async function crawlWith(db: string, workers: number, latencyMs = LATENCY_MS): Promise<RunOutcome> {
  const site = await serveMultiHostSite({ pagesPerHost: PAGES_PER_HOST, latencyMs });
  const running = new Set<ChildProcess>();
  try {
    const options = { allowPrivate: true, concurrency: CONCURRENCY, perHostConcurrency: PER_HOST_CONCURRENCY, sitemap: false };
    const started = Array.from({ length: workers }, (_, i) => startWorker({ db, seeds: site.seeds, workerId: `w${i}`, options, waitForGo: true }, running));
    await Promise.all(started.map((w) => w.opened));
    for (const worker of started) worker.go();
    const exits = await Promise.all(started.map((w) => w.exit));
    for (const exit of exits) if (exit.code !== 0) throw new Error(`a worker failed (${exit.code ?? exit.signal}): ${exit.stderr}`);
    const lastAnswer = performance.now();
    const first = site.requests[0]!.at;
    const last = Math.max(...site.requests.map((r) => r.at)) + latencyMs;
    const seconds = (Math.min(last, lastAnswer) - first) / 1000;
    const counts = site.counts();
    const isExactlyOnce = site.resources.every((url) => counts.get(url) === 1) && [...counts.keys()].every((url) => site.resources.includes(url) || url.endsWith('/robots.txt'));
    const robots = [...counts].filter(([url]) => url.endsWith('/robots.txt')).reduce((sum, [, n]) => sum + n, 0);
    const byWorker = exits.map((e) => Number((e.lines.at(-1) as { pagesFetched?: number } | undefined)?.pagesFetched ?? 0));
    const cpuSeconds = exits.reduce((sum, e) => sum + Number((e.lines.at(-1) as { cpuMs?: number } | undefined)?.cpuMs ?? 0), 0) / 1000;
    const crawlCpuSeconds = exits.reduce((sum, e) => sum + Number((e.lines.at(-1) as { crawlCpuMs?: number } | undefined)?.crawlCpuMs ?? 0), 0) / 1000;
    return { pagesPerSecond: site.resources.length / seconds, seconds, resources: site.resources.length, isExactlyOnce, robots, byWorker, cpuSeconds, crawlCpuSeconds };
  } finally {
    for (const child of running) child.kill('SIGKILL');
    await site.close();
  }
}

function line(name: string, o: RunOutcome, base?: RunOutcome): string {
  const ratio = base === undefined ? '' : `  ${(o.pagesPerSecond / base.pagesPerSecond).toFixed(2)}×`;
  return `  ${name.padEnd(26)} ${o.pagesPerSecond.toFixed(0).padStart(6)} pages/s ${o.seconds.toFixed(2).padStart(7)} s  ${o.resources} resources, each once: ${o.isExactlyOnce ? 'yes' : 'NO'}  robots.txt ${o.robots}  by worker ${o.byWorker.join('/')}  worker cpu ${o.cpuSeconds.toFixed(1)} s${ratio}`;
}

/** A fresh database with pg_stat_statements reset; its name and the commits it has so far. */
async function freshDatabase(cluster: PostgresCluster): Promise<{ db: string; name: string; commitsBefore: number }> {
  const db = await cluster.createDatabase();
  const name = new URL(db).pathname.slice(1);
  await cluster.psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', name);
  await cluster.psql('SELECT pg_stat_statements_reset()', name);
  const commitsBefore = Number((await cluster.psql(`SELECT xact_commit FROM pg_stat_database WHERE datname = '${name}'`)).trim());
  return { db, name, commitsBefore };
}

/** The CPU a page: the workers' crawls, and PostgreSQL's (when /proc says). */
function cpuLine(o: RunOutcome, pgSeconds: number | undefined, sqlite?: RunOutcome): string {
  const worker = (o.crawlCpuSeconds * 1000) / o.resources;
  const base = sqlite === undefined ? undefined : (sqlite.crawlCpuSeconds * 1000) / sqlite.resources;
  const against = base === undefined ? '' : ` (${(worker / base).toFixed(2)}× SQLite's ${base.toFixed(2)} ms)`;
  const pg = pgSeconds === undefined ? 'PostgreSQL CPU not read (no /proc)' : `PostgreSQL CPU ${((pgSeconds * 1000) / o.resources).toFixed(2)} ms a page`;
  return `    worker CPU ${worker.toFixed(2)} ms a page${against}, ${pg}`;
}

/**
 * ONE worker through the delaying proxy at each RTT, on a site of `latencyMs`: pages/s,
 * the ratio to 0 ms, and the round trips a page the worker waited for.
 */
async function distanceRuns(cluster: PostgresCluster, shape: string, latencyMs: number): Promise<void> {
  console.log(`\n1 PostgreSQL worker at a distance, ${shape}-bound site (answers after ${latencyMs} ms):`);
  let atZero: RunOutcome | undefined;
  for (const rtt of RTTS) {
    const { db, name } = await freshDatabase(cluster);
    const proxy = await startDelayingProxy({ targetPort: cluster.port, oneWayMs: rtt / 2 });
    try {
      const through = new URL(db);
      through.port = String(proxy.port);
      const cpuBefore = clusterCpuSeconds(path.join(cluster.dir, 'data'));
      proxy.resetCounts();
      const outcome = await crawlWith(through.href, 1, latencyMs);
      const cpuAfter = clusterCpuSeconds(path.join(cluster.dir, 'data'));
      atZero ??= rtt === 0 ? outcome : undefined;
      const ratio = atZero === undefined ? '' : `  ${(outcome.pagesPerSecond / atZero.pagesPerSecond).toFixed(2)}× of 0 ms`;
      // At 0 ms an answer may come back between two writes of one pipeline: the count holds from 1 ms on.
      const trips = rtt > 0 ? `  ${(proxy.turns / outcome.resources).toFixed(2)} round trips a page` : '';
      const statements = Number((await cluster.psql(`SELECT sum(s.calls) FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid WHERE d.datname = '${name}'`, name)).trim());
      console.log(
        `  RTT ${String(rtt).padStart(2)} ms ${outcome.pagesPerSecond.toFixed(0).padStart(6)} pages/s${ratio}${trips}  ${(statements / outcome.resources).toFixed(1)} statements a page  each once: ${outcome.isExactlyOnce ? 'yes' : 'NO'}`,
      );
      if (rtt === 0) console.log(cpuLine(outcome, cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore));
    } finally {
      await proxy.close();
    }
  }
}

async function main(): Promise<void> {
  printEnvironment();
  // Statements and round trips a page (pg_stat_statements, and the server's commits) on each PostgreSQL run.
  const cluster = await startPostgres({ settings: { shared_buffers: '256MB', shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } });
  if (typeof cluster === 'string') {
    console.log(`SKIPPED: no PostgreSQL here (${cluster})`);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-pg-workers-'));
  try {
    console.log(`\nsite: 8 hosts × (${PAGES_PER_HOST} pages + 4 images), every answer after ${LATENCY_MS} ms; each worker: concurrency ${CONCURRENCY}, perHostConcurrency ${PER_HOST_CONCURRENCY}`);
    const results = new Map<string, RunOutcome>();
    const pgCpu = new Map<string, number | undefined>();
    for (const workers of WORKER_COUNTS) {
      const { db, name, commitsBefore } = await freshDatabase(cluster);
      const cpuBefore = clusterCpuSeconds(path.join(cluster.dir, 'data'));
      const outcome = await crawlWith(db, workers);
      const cpuAfter = clusterCpuSeconds(path.join(cluster.dir, 'data'));
      pgCpu.set(`pg:${workers}`, cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore);
      results.set(`pg:${workers}`, outcome);
      console.log(line(`PostgreSQL, ${workers} worker${workers === 1 ? '' : 's'}`, outcome, workers === 1 ? undefined : results.get('pg:1')));
      const statements = Number((await cluster.psql(`SELECT sum(s.calls) FROM pg_stat_statements AS s JOIN pg_database AS d ON d.oid = s.dbid WHERE d.datname = '${name}'`, name)).trim());
      const commits = Number((await cluster.psql(`SELECT xact_commit FROM pg_stat_database WHERE datname = '${name}'`)).trim()) - commitsBefore;
      console.log(`    ${(statements / outcome.resources).toFixed(1)} statements a resource, ${(commits / outcome.resources).toFixed(1)} commits a resource (start-up and robots.txt included)`);
      // The statements a resource by kind (BEGIN, SAVEPOINT, COMMIT … counted too), and the
      // server's time in each a resource (planning and execution: what the statement's work
      // costs, against the PostgreSQL CPU a page that also holds the protocol, the commit's
      // WAL and the background processes).
      const top = await cluster.psql(
        `SELECT round(sum(calls)::numeric / ${outcome.resources}, 2), round(sum(total_exec_time + total_plan_time)::numeric / ${outcome.resources}, 3), round(sum(plans)::numeric / ${outcome.resources}, 2), round(sum(total_plan_time)::numeric / ${outcome.resources}, 3), left(regexp_replace(query, '\\s+', ' ', 'g'), 70) FROM pg_stat_statements GROUP BY 5 ORDER BY 2 DESC LIMIT 12`,
        name,
      );
      const inStatements = Number((await cluster.psql(`SELECT sum(total_exec_time + total_plan_time) FROM pg_stat_statements`, name)).trim());
      console.log(`    a resource by kind: statements | ms in the statement (planning and execution) | plans | ms planning | the statement; ${(inStatements / outcome.resources).toFixed(2)} ms in all`);
      for (const row of top.trim().split('\n')) console.log(`      ${row}`);
      // The rows the server wrote a resource, by table: the work any design of these tables pays.
      const rows = await cluster.psql(
        `SELECT round((n_tup_ins + n_tup_upd + n_tup_del)::numeric / ${outcome.resources}, 2), relname, round(n_tup_ins::numeric / ${outcome.resources}, 2), round(n_tup_upd::numeric / ${outcome.resources}, 2), round(n_tup_del::numeric / ${outcome.resources}, 2) FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY 1 DESC`,
        name,
      );
      console.log('    rows written a resource: all | table | inserted | updated | deleted');
      for (const row of rows.trim().split('\n')) console.log(`      ${row}`);
    }
    const one = results.get('pg:1');
    const four = results.get('pg:4');
    if (one !== undefined && four !== undefined) console.log(`\n4 workers over 1: ${(four.pagesPerSecond / one.pagesPerSecond).toFixed(2)}× (target >= 3.5×)`);
    if (one !== undefined) {
      const sqlite = await crawlWith(path.join(dir, 'index.db'), 1);
      console.log(line('SQLite, 1 process', sqlite));
      console.log(`    SQLite CPU ${((sqlite.crawlCpuSeconds * 1000) / sqlite.resources).toFixed(2)} ms a page (the process's crawl)`);
      console.log(`1 PostgreSQL worker against 1 SQLite process: ${(one.pagesPerSecond / sqlite.pagesPerSecond).toFixed(2)}× the pages/s`);
      for (const workers of WORKER_COUNTS) console.log(`  ${workers} worker${workers === 1 ? '' : 's'}:` + cpuLine(results.get(`pg:${workers}`)!, pgCpu.get(`pg:${workers}`), sqlite).slice(3));
      const pg = pgCpu.get('pg:1');
      const floor = FLOOR_PAGES > 0 ? await measurePageFloor(await cluster.createDatabase(), path.join(cluster.dir, 'data'), FLOOR_PAGES, FLOOR_HOSTS) : undefined;
      if (floor !== undefined) {
        const crawl = pg === undefined ? '' : `; 1 worker's ${((pg * 1000) / one.resources).toFixed(2)} ms a page is ${((pg * 1000) / one.resources / floor.twoStatementsMs).toFixed(1)}× the 2-statement floor`;
        console.log(
          `The floor (the same rows by the plainest statements, ${FLOOR_PAGES} pages, ${FLOOR_HOSTS} hosts, bench/support/pg-page-floor.ts): PostgreSQL CPU ${floor.twoStatementsMs.toFixed(2)} ms a page in 2 statements, ${floor.sixStatementsMs.toFixed(2)} ms in 6, ${floor.byHostMs.toFixed(2)} ms in 2 with a claim by host${crawl}`,
        );
      }
    }
    if (RTTS.length > 0) for (const shape of SHAPES) await distanceRuns(cluster, shape, shape === 'latency' ? LATENCY_MS : 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}

await main();
