// How a crawl's workers reach a PostgreSQL index: the pool each opens (`--db-pool-size`)
// against the server's `max_connections`, and PgBouncer in transaction pooling (how
// operators run it) with `--db-transaction-pooling`: two workers through it crawl the
// demo site to the end, every resource requested once, and the audit equals that of a
// SQLite crawl of the same site.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/cli/demo/index.js';
import { checkRequestLog } from '../../src/cli/demo/expected-requests.js';
import { connect } from '../../src/store/pg/pg-database.js';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer.js';
import { startPostgres, type PostgresCluster } from '../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { ensureBuilt, spawnCli, type CliExit } from './built-cli.js';
import { run } from './cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-pg-pooling-'));
const running = new Set<ChildProcess>();
let cluster: PostgresCluster | string;
let bouncer: PgBouncer | string = 'no cluster';
let server: DemoServer | undefined;

beforeAll(async () => {
  cluster = await startPostgres();
  if (typeof cluster === 'string') return;
  await ensureBuilt();
  bouncer = await startPgBouncer({ serverPort: cluster.port, poolMode: 'transaction', poolSize: 4 });
}, INSTALL_TIMEOUT_MS + 300_000);
afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  if (typeof bouncer !== 'string') await bouncer.stop();
  if (typeof cluster !== 'string') await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The demo site's requests but robots.txt (each worker asks it until one has kept its answer). */
const pageRequests = (log: readonly string[]): string[] => log.filter((entry) => !entry.endsWith(' /robots.txt'));

/** The audit's findings, one JSON line each, in a stable order (workers give URLs other ids than one writer). */
async function auditLines(db: string, extra: readonly string[] = []): Promise<string[]> {
  const audit = await run(['audit', '--format', 'json', '--db', db, ...extra]);
  expect(audit.stderr).toBe('');
  return audit.out.filter((line) => line !== '').sort();
}

function crawlWorker(db: string, origin: string, extra: readonly string[]): Promise<CliExit> {
  return spawnCli(['crawl', `${origin}/`, '--db', db, '--allow-private', '--concurrency', '2', ...extra], running).exit;
}

describe('workers through PgBouncer in transaction pooling', () => {
  it('without --db-transaction-pooling: one clear line, exit 3 (PgBouncer refuses the startup parameters)', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('PgBouncer in front of PostgreSQL', cluster));
    if (typeof bouncer === 'string') return context.skip(skipNotice('PgBouncer in front of PostgreSQL', bouncer));
    server = await startDemoServer();
    const db = bouncer.through(await cluster.createDatabase());
    const exit = await crawlWorker(db, server.origin, []);
    expect(exit.code).toBe(3);
    expect(exit.stderr).toMatch(/^linkladder: error: cannot open the index at postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+: unsupported startup parameter: (jit|plan_cache_mode)\n$/);
    expect(server.requests).toEqual([]);
  }, 60_000);

  it('two workers (pools of 1 and 2) with --db-transaction-pooling: every resource requested once, the audit equal to a SQLite crawl', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('PgBouncer in front of PostgreSQL', cluster));
    if (typeof bouncer === 'string') return context.skip(skipNotice('PgBouncer in front of PostgreSQL', bouncer));
    server = await startDemoServer();
    const pg = bouncer.through(await cluster.createDatabase());
    const exits = await Promise.all([
      crawlWorker(pg, server.origin, ['--db-transaction-pooling', '--db-pool-size', '1']),
      crawlWorker(pg, server.origin, ['--db-transaction-pooling', '--db-pool-size', '2']),
    ]);
    for (const exit of exits) {
      expect(exit.stderr).toBe('');
      // 0, or 1 when the audit finds something (the demo site has broken links).
      expect([0, 1]).toContain(exit.code);
    }
    const check = checkRequestLog(pageRequests(server.requests));
    expect(check).toMatchObject({ repeated: [], forbidden: [], unexpected: [] });
    expect(check.missing.filter((target) => target !== '/robots.txt')).toEqual([]);
    // robots.txt of two origins on this server (127.0.0.1 and the external links' localhost),
    // each asked by each worker at most, until one has kept its answer.
    const robots = server.requests.filter((entry) => entry === 'GET /robots.txt').length;
    expect(robots).toBeGreaterThanOrEqual(1);
    expect(robots).toBeLessThanOrEqual(4);
    // The same site into a file, one writer.
    const sqlite = path.join(dir, 'index.db');
    const crawled = await run(['crawl', `${server.origin}/`, '--db', sqlite, '--allow-private', '--concurrency', '2']);
    expect(crawled.stderr).toBe('');
    // Read through PgBouncer too: the flag, or LINKLADDER_DB_TRANSACTION_POOLING, as every setting.
    const pgAudit = await auditLines(pg, ['--db-transaction-pooling']);
    expect(pgAudit.length).toBeGreaterThan(5);
    expect(pgAudit).toEqual(await auditLines(sqlite));
  }, 180_000);
});

describe('--db-pool-size against max_connections', () => {
  it("every connection taken: one line that names max_connections and --db-pool-size, exit 3", async (context) => {
    const limited = await startPostgres({ settings: { max_connections: '3', superuser_reserved_connections: '0' } });
    if (typeof limited === 'string') return context.skip(skipNotice('a PostgreSQL cluster of 3 connections', limited));
    const db = await limited.createDatabase();
    const holder = connect(db, { max: 3 });
    try {
      const held = await Promise.all([holder.reserve(), holder.reserve(), holder.reserve()]);
      const exit = await run(['crawl', 'http://127.0.0.1:9/', '--db', db, '--allow-private']);
      expect(exit.code).toBe(3);
      expect(exit.err).toEqual([
        expect.stringMatching(
          /^linkladder: error: cannot open the index at postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+: sorry, too many clients already \(the server's max_connections is reached: each worker opens up to --db-pool-size connections, default 4; .*\)$/,
        ),
      ]);
      for (const connection of held) connection.release();
    } finally {
      await holder.end();
      await limited.stop();
    }
  }, 60_000);
});
