// Cooperating `linkladder crawl` processes on one PostgreSQL index whose server is
// restarted under them (test/support/postgres-cluster.ts restart()): each worker waits
// for the server and carries on, or ends with its summary and one line.

import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/store/pg/pg-database.js';
import { spawnCli, type CliExit } from '../cli/built-cli.js';
import { serveMultiHostSite } from '../support/multi-host-site.js';
import { workerTestBed } from '../support/worker-test-bed.js';

// Its own cluster: restarting the run's shared one would cut every other file's connections.
const { cluster, running } = await workerTestBed('PostgreSQL restarted under crawl workers', { dedicated: true });

/** What a worker wrote to stderr, Node's own warnings left out. */
function ownStderr(stderr: string): string {
  return stderr.replace(/^\(node:\d+\) .*\n|^\(Use `node --trace-warnings.*\n/gm, '');
}

/**
 * The workers' exits; when they are not all in by `withinMs`, a failure that says where
 * the crawl stands (what each worker printed last, the claims left and their hosts, the
 * workers' rows, the server's sessions) instead of a bare timeout.
 */
async function exitsOrDiagnosis(workers: readonly { child: ChildProcess; exit: Promise<CliExit> }[], sql: Sql, withinMs: number): Promise<CliExit[]> {
  const printed = workers.map(({ child }) => {
    const seen = { stdout: '', stderr: '' };
    child.stdout?.on('data', (chunk: string) => (seen.stdout += chunk));
    child.stderr?.on('data', (chunk: string) => (seen.stderr += chunk));
    return seen;
  });
  const ended = workers.map(() => false);
  const all = Promise.all(workers.map((w, i) => w.exit.then((exit) => ((ended[i] = true), exit))));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
  const first = await Promise.race([all, late]);
  clearTimeout(timer);
  if (first !== 'late') return first;
  const now = (await sql`SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS now`)[0]!.now as number;
  const urls = await sql`SELECT id, state, host, claimed_by, lease_until - ${now}::bigint AS lease_left_ms FROM url WHERE state NOT IN ('done', 'skipped', 'alias') ORDER BY id LIMIT 40`;
  const hosts = await sql`SELECT host, next_at - ${now}::bigint AS next_in_ms, delay_ms FROM crawl_host ORDER BY host`;
  const rows = await sql`SELECT id, pid, heartbeat_at - ${now}::bigint AS heartbeat_ms, ended_at, counts FROM crawl_worker ORDER BY id`;
  const sessions = await sql`SELECT pid, state, wait_event_type, wait_event, (extract(epoch FROM backend_start) * 1000)::bigint - ${now}::bigint AS started_ms, client_port, now() - xact_start AS xact_age, left(query, 120) AS query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
  const tails = printed.map((p, i) => `worker ${workers[i]!.child.pid} ${ended[i] ? 'ended' : 'RUNNING'}:\n  stdout: ${p.stdout.slice(-600)}\n  stderr: ${p.stderr.slice(-600)}`);
  throw new Error(
    [`the workers did not all end within ${withinMs} ms`, ...tails, `url rows not settled: ${JSON.stringify(urls)}`, `crawl_host: ${JSON.stringify(hosts)}`,
      `crawl_worker: ${JSON.stringify(rows)}`, `sessions: ${JSON.stringify(sessions)}`].join('\n'),
  );
}

function crawlArgs(seeds: readonly string[], db: string): string[] {
  return ['crawl', ...seeds, '--db', db, '--allow-private', '--concurrency', '4', '--per-host-concurrency', '2', '--no-sitemap'];
}

describe.skipIf(typeof cluster === 'string')('a PostgreSQL server restarted under running workers', () => {
  it('every worker waits for it and finishes the crawl: no crash, every resource recorded once', async () => {
    if (typeof cluster === 'string') return;
    const site = await serveMultiHostSite({ pagesPerHost: 40, latencyMs: 30 });
    const db = await cluster.createDatabase();
    const sql = connect(db, { max: 1 });
    try {
      expect((await spawnCli(['db', 'migrate', '--db', db], running).exit).code).toBe(0);
      const workers = Array.from({ length: 4 }, () => spawnCli(crawlArgs(site.seeds, db), running));
      while (site.requests.length < 60) await new Promise((resolve) => setTimeout(resolve, 20));
      await cluster.restart({ downMs: 1500 });
      const exits = await exitsOrDiagnosis(workers, sql, 150_000);
      for (const exit of exits) {
        expect(exit.stderr).not.toContain('TypeError');
        expect(ownStderr(exit.stderr)).toBe('');
        expect(exit.code).toBe(0);
        expect(exit.stdout).toMatch(/^index +352 URLs \(queued 0, fetching 0, done 352/m);
      }
      // Every resource recorded, once: a unit the restart cut was rolled back and written again.
      const counts = site.counts();
      for (const url of site.resources) expect.soft(counts.get(url) ?? 0, url).toBeGreaterThanOrEqual(1);
      const [urls] = await sql`SELECT count(*)::integer AS n, count(*) FILTER (WHERE state = 'done')::integer AS done FROM url WHERE state <> 'skipped'`;
      expect(urls).toEqual({ n: site.resources.length, done: site.resources.length });
      const [fetches] = await sql`SELECT count(*)::integer AS n, count(DISTINCT url_id)::integer AS urls FROM "fetch"`;
      expect(fetches).toEqual({ n: site.resources.length, urls: site.resources.length });
    } finally {
      await sql.end();
      await site.close();
    }
  }, 240_000);

  it('a worker whose server does not come back within 30 s ends with its summary and one line', async () => {
    if (typeof cluster === 'string') return;
    const site = await serveMultiHostSite({ pagesPerHost: 40, latencyMs: 30 });
    const db = await cluster.createDatabase();
    try {
      const worker = spawnCli(crawlArgs(site.seeds, db), running);
      while (site.requests.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
      // Down far longer than the 30 s a worker waits from when it meets the loss: on a loaded
      // machine a worker may meet it seconds after the shutdown (40 s of downtime let one finish).
      // Once the worker has ended, nobody is left to meet the server: it comes back then.
      const exited = worker.exit;
      const restarted = cluster.restart({ downMs: 75_000, until: exited });
      const downAt = performance.now();
      const exit = await exited;
      const waited = performance.now() - downAt;
      await restarted;
      expect(exit.stderr).not.toContain('TypeError');
      expect(waited).toBeGreaterThan(29_000);
      expect(ownStderr(exit.stderr), `exit ${exit.code}, stdout:\n${exit.stdout}`).toMatch(/^linkladder: error: the crawl stopped on a fatal error: ERR_STORE_WRITE_FAILED: the index at postgres:\/\/\S+ did not answer again within 30 s \([^\n]*\)\n$/);
      expect(exit.stdout).toMatch(/^crawl +stopped on a fatal error \(on stderr\); run it again to resume$/m);
      expect(exit.stdout).toMatch(/^requests +\d+: /m);
      expect(exit.code).toBe(3);
    } finally {
      await site.close();
    }
  }, 240_000);
});
