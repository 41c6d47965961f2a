// The claim of cooperating workers on PostgreSQL (pg-frontier.ts) with 0, 1,000 and
// 10,000 claims in flight: its cost must not grow with them. The claims in flight are
// held (a long lease) by other workers on hosts at their per-host limit, at depth 1;
// the frontier claimed from is 20,000 queued URLs at depth 2 over 64 other hosts with
// room. Each measured claim takes `LINKLADDER_BENCH_LIMIT` URLs (8) and settles them
// at once (as a finished fetch), so the claims in flight stay as set. URL rows are
// written as SQL fixtures. A throwaway PostgreSQL cluster is started on a loopback
// port (and removed); without PostgreSQL the bench says why and stops.
//
//   npx tsc -p tsconfig.json && node dist/bench/pg-claim.bench.js
//   LINKLADDER_BENCH_IN_FLIGHT=0,10000 LINKLADDER_BENCH_CLAIMS=100 node dist/bench/pg-claim.bench.js
//   LINKLADDER_BENCH_PARTITIONS=64 LINKLADDER_BENCH_DELAY_MS=1 …   (an index of 64 partitions; hosts
//   with a delay between requests, so that each claim reads each open host's last request start)

import { connect, migratePg, type Sql } from '../src/store/pg/pg-database.js';
import { PgFrontier } from '../src/store/pg/pg-frontier.js';
import { partitionPg } from '../src/store/pg/pg-partitions.js';
import { siteOf } from '../src/store/pg/site-hash.js';
import { startPostgres } from '../test/support/postgres-cluster.js';
import { printEnvironment } from './support/measure.js';

const IN_FLIGHT = (process.env['LINKLADDER_BENCH_IN_FLIGHT'] ?? '0,1000,10000').split(',').map(Number);
const CLAIMS = Number(process.env['LINKLADDER_BENCH_CLAIMS'] ?? 300);
const LIMIT = Number(process.env['LINKLADDER_BENCH_LIMIT'] ?? 8);
/** Partitions of the index (0: unpartitioned). */
const PARTITIONS = Number(process.env['LINKLADDER_BENCH_PARTITIONS'] ?? 0);
/** Each host's delay between request starts: a claim then reads each open host's last start. */
const DELAY_MS = Number(process.env['LINKLADDER_BENCH_DELAY_MS'] ?? 0);
const PER_HOST = 4;
const QUEUED = 20_000;
const FREE_HOSTS = 64;
const LEASE_MS = 600_000;

async function insertUrls(sql: Sql, hosts: readonly string[], perHost: number, depth: number, state: 'queued' | 'fetching', worker: string | null): Promise<void> {
  const rows = hosts.flatMap((host) => Array.from({ length: perHost }, (_, i) => [siteOf(host), `http://${host}/${depth}/${i}`, host] as const));
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await sql`
      INSERT INTO url (site, id, key, scheme, host, state, role, depth, first_seen, claimed_by, lease_until)
      SELECT s, nextval('url_id_seq'), k, 'http', h, ${state}, 'page', ${depth}, 0, ${worker},
        CASE WHEN ${state} = 'fetching' THEN (extract(epoch FROM now()) * 1000)::bigint + ${LEASE_MS}::bigint END
      FROM unnest(${chunk.map((r) => r[0])}::integer[], ${chunk.map((r) => r[1])}::text[], ${chunk.map((r) => r[2])}::text[]) AS t (s, k, h)`;
  }
}

interface ClaimCost {
  readonly meanMs: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  /** Server time per claim statement (pg_stat_statements), and the buffers it read: the work, whatever the load. */
  readonly serverMs: number;
  readonly buffers: number;
  /** Planning time per claim statement. */
  readonly planMs: number;
  readonly claimed: number;
}

async function measure(sql: Sql, inFlight: number): Promise<ClaimCost> {
  await sql`TRUNCATE url, frontier, "fetch", crawl_host, crawl_worker`;
  const busyHosts = Array.from({ length: Math.ceil(inFlight / PER_HOST) }, (_, i) => `busy-${i}.test`);
  const freeHosts = Array.from({ length: FREE_HOSTS }, (_, i) => `free-${i}.test`);
  await insertUrls(sql, busyHosts, inFlight === 0 ? 0 : PER_HOST, 1, 'fetching', 'elsewhere');
  await insertUrls(sql, freeHosts, QUEUED / FREE_HOSTS, 2, 'queued', null);
  await sql`INSERT INTO crawl_host (host, next_at, delay_ms) SELECT unnest(${[...busyHosts, ...freeHosts]}::text[]), 0, 0 ON CONFLICT DO NOTHING`;
  // A request made on each host long ago: its last start, read for its delay.
  await sql`INSERT INTO "fetch" (site, id, url_id, started_at) SELECT DISTINCT ON (site) site, nextval('fetch_id_seq'), id, 0 FROM url ORDER BY site, id`;
  await sql`ANALYZE url`;
  await sql`ANALYZE "fetch"`;
  await sql`ANALYZE crawl_host`;
  const frontier = new PgFrontier(sql, { workerId: 'bench', leaseMs: LEASE_MS, now: Date.now, isPartitioned: PARTITIONS > 0 });
  frontier.setPoliteness({ perHostConcurrency: PER_HOST, perHostDelayMs: DELAY_MS });
  const times: number[] = [];
  let claimed = 0;
  for (let i = 0; i < CLAIMS + 20; i++) {
    if (i === 20) await sql`SELECT pg_stat_statements_reset()`;
    const start = performance.now();
    const urls = await frontier.claim(LIMIT);
    const ms = performance.now() - start;
    if (i >= 20) times.push(ms);
    claimed += urls.length;
    // Settled at once, as a finished fetch: the claims in flight stay those of the other workers.
    await sql`UPDATE url SET state = 'done', claimed_by = NULL, lease_until = NULL WHERE id IN ${sql(urls.map((u) => u.id))}`;
  }
  times.sort((a, b) => a - b);
  const [stat] = await sql`
    SELECT sum(total_exec_time) / sum(calls) AS ms, sum(total_plan_time) / sum(calls) AS plan_ms, sum(shared_blks_hit + shared_blks_read)::float / sum(calls) AS buffers
    FROM pg_stat_statements WHERE query LIKE '%open_host AS%'`;
  return {
    serverMs: Number(stat!.ms),
    planMs: Number(stat!.plan_ms),
    buffers: Number(stat!.buffers),
    meanMs: times.reduce((s, t) => s + t, 0) / times.length,
    p50Ms: times[Math.floor(times.length / 2)]!,
    p95Ms: times[Math.floor(times.length * 0.95)]!,
    claimed,
  };
}

async function main(): Promise<void> {
  printEnvironment();
  const cluster = await startPostgres({ settings: { shared_buffers: '256MB', shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } });
  if (typeof cluster === 'string') {
    console.log(`SKIPPED: no PostgreSQL here (${cluster})`);
    return;
  }
  // As a worker's store connects (PgStore.open): generic plans, planned once.
  const url = await cluster.createDatabase();
  const sql = connect(url, { max: 1, isGenericPlans: true });
  try {
    if (PARTITIONS > 0) await partitionPg(sql, PARTITIONS, { now: Date.now, url });
    else await migratePg(sql, Date.now);
    await sql`CREATE EXTENSION pg_stat_statements`;
    if (process.env['LINKLADDER_BENCH_EXPLAIN'] !== undefined) {
      await sql`LOAD 'auto_explain'`;
      await sql`SET auto_explain.log_min_duration = 0`;
      await sql`SET auto_explain.log_analyze = on`;
      console.log(`plans in ${cluster.dir}/server.log`);
    }
    const layout = `${PARTITIONS > 0 ? `${PARTITIONS} partitions` : 'unpartitioned'}, ${DELAY_MS} ms between a host's requests`;
    console.log(`claim(${LIMIT}) over ${QUEUED} queued URLs on ${FREE_HOSTS} hosts, ${PER_HOST} per host (${layout}); ${CLAIMS} claims each (after 20 warm-up)`);
    // The same run's floor: a round trip of the least statement (the machine may be shared).
    const trips: number[] = [];
    for (let i = 0; i < CLAIMS; i++) {
      const start = performance.now();
      await sql`SELECT 1`;
      trips.push(performance.now() - start);
    }
    trips.sort((a, b) => a - b);
    console.log(`  SELECT 1 round trip       p50 ${trips[Math.floor(trips.length / 2)]!.toFixed(2)} ms`);
    for (const inFlight of IN_FLIGHT) {
      const r = await measure(sql, inFlight);
      console.log(
        `  ${String(inFlight).padStart(6)} in flight   round trip mean ${r.meanMs.toFixed(2)} ms  p50 ${r.p50Ms.toFixed(2)} ms  p95 ${r.p95Ms.toFixed(2)} ms  server: plan ${r.planMs.toFixed(2)} ms, run ${r.serverMs.toFixed(2)} ms,  ${r.buffers.toFixed(0)} buffers  (${r.claimed} URLs claimed)`,
      );
    }
  } finally {
    await sql.end();
    if (process.env['LINKLADDER_BENCH_EXPLAIN'] !== undefined) await new Promise((resolve) => process.stdin.once('data', resolve));
    await cluster.stop();
  }
}

await main();
