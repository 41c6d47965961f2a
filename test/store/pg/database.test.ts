// Transactions on a real PostgreSQL (pg-database.ts): a connection whose server
// session ends during a transaction gets nothing sent on it again (the client would
// throw an uncaught TypeError from a timer and end the process): the next statement
// fails with CONNECTION_CLOSED, and the pool opens the connection again.

import { createServer, connect as connectTcp, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, isConnectionLost, migratePg, transaction } from '../../../src/store/pg/pg-database.js';
import { ensureBuilt } from '../../cli/built-cli.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL transactions', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

const IMPORT_DATABASE = `import { connect, transaction, isConnectionLost } from ${JSON.stringify(fileURLToPath(new URL('../../../dist/src/store/pg/pg-database.js', import.meta.url)))};`;

/**
 * A pool of one connection through a relay that cuts the first connection asking the
 * server for its array types after the first one did (a server restarting then). The
 * transaction that opened it is made again (its request for a connection, which the
 * client loses then, is given up after 5 s: pg-database.ts reserveConnection), and
 * prints what it read.
 */
const CUT_WHILE_ASKING_TYPES = `${IMPORT_DATABASE}
import { createServer, connect as connectTcp } from 'node:net';
const target = new URL(process.argv[1]);
let asked = 0;
let cuts = 0;
const links = [];
const relay = createServer((client) => {
  const server = connectTcp(Number(target.port), target.hostname);
  links.push(client, server);
  client.on('data', (chunk) => {
    if (chunk.includes('pg_catalog.pg_type') && asked++ === 1) return void (cuts++, client.destroy(), server.destroy());
    server.write(chunk);
  });
  server.pipe(client);
  client.on('error', () => server.destroy());
  server.on('error', () => client.destroy());
});
await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
const url = new URL(target);
url.port = String(relay.address().port);
const sql = connect(url.href, { max: 1 });
await sql\`SELECT 1\`;
// The pool's one connection is cut: the next transaction opens it again.
for (const link of links) link.destroy();
const cutAt = performance.now();
let answer;
for (let attempt = 0; answer === undefined && attempt < 20; attempt++) {
  answer = await transaction(sql, (tx) => tx\`SELECT \${['x', 'y']}::text[] AS a\`).then((rows) => [...rows], (error) => {
    if (!isConnectionLost(error)) throw error;
    return new Promise((resolve) => setTimeout(resolve, 100));
  });
}
await new Promise((resolve) => setTimeout(resolve, 200));
const waitedMs = Math.round(performance.now() - cutAt);
console.log(JSON.stringify({ answer, cuts, waitedMs }));
await sql.end({ timeout: 1 });
for (const link of links) link.destroy();
relay.close();
`;

/** `script` run by Node as a module, `arg` its first argument; killed after 60 s. */
function runNode(script: string, arg: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, arg], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(typeof cluster === 'string')('transaction', () => {
  it('commits, and rolls back what threw', async () => {
    if (typeof cluster === 'string') return;
    const sql = connect(await cluster.createDatabase(), { max: 2 });
    try {
      await sql`CREATE TABLE t (n integer)`;
      await transaction(sql, async (tx) => {
        await tx`INSERT INTO t VALUES (1)`;
        await tx.savepoint(async (sp) => sp`INSERT INTO t VALUES (2)`);
        await expect(tx.savepoint(async (sp) => sp`INSERT INTO t VALUES ('x')`)).rejects.toThrow();
      });
      await expect(transaction(sql, async (tx) => {
        await tx`INSERT INTO t VALUES (3)`;
        throw new Error('no');
      })).rejects.toThrow('no');
      expect((await sql`SELECT n FROM t ORDER BY n`).map((r) => r.n)).toEqual([1, 2]);
    } finally {
      await sql.end();
    }
  });

  it('sends nothing on a connection whose session ended: the next statement fails, the process lives, the pool goes on', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const sql = connect(url, { max: 2 });
    const admin = connect(url, { max: 1 });
    try {
      const failure = await transaction(sql, async (tx) => {
        const [me] = await tx`SELECT pg_backend_pid() AS pid`;
        await admin`SELECT pg_terminate_backend(${me!.pid as number})`;
        // The session's end reaches the client.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx`SELECT 1`;
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isConnectionLost(failure)).toBe(true);
      // Timers the client set have run: nothing was thrown from them.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 4; i++) expect(await sql`SELECT ${i}::integer AS n`).toEqual([{ n: i }]);
      expect(await transaction(sql, async (tx) => (await tx`SELECT 7 AS n`)[0]!.n)).toBe(7);
    } finally {
      await sql.end();
      await admin.end();
    }
  });

  it('a transaction queued for a connection when that connection is cut gets one, or fails: it never waits forever', async () => {
    if (typeof cluster === 'string') return;
    const target = new URL(await cluster.createDatabase());
    // A relay between the pool and the server, whose connections the test cuts (a network that failed).
    const links: Socket[] = [];
    const relay = createServer((client) => {
      const server = connectTcp(Number(target.port), target.hostname);
      client.pipe(server).pipe(client);
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
      links.push(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const url = new URL(target);
    url.port = String((relay.address() as AddressInfo).port);
    const sql = connect(url.href, { max: 1 });
    try {
      await sql`SELECT 1`;
      const busy = sql`SELECT pg_sleep(2)`.catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Queued: the pool's one connection is busy.
      const settled = transaction(sql, async (tx) => (await tx`SELECT 7 AS n`)[0]!.n as number).then(
        (n) => ({ n }),
        (error: unknown) => ({ isLost: isConnectionLost(error) }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const link of links) link.destroy();
      expect(isConnectionLost(await busy)).toBe(true);
      const outcome = await Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 25_000))]);
      expect(['{"n":7}', '{"isLost":true}']).toContain(JSON.stringify(outcome));
      // The pool goes on.
      expect(await transaction(sql, async (tx) => (await tx`SELECT 8 AS n`)[0]!.n)).toBe(8);
    } finally {
      await sql.end({ timeout: 1 });
      await new Promise((resolve) => relay.close(resolve));
    }
  }, 60_000);

  it('a connection cut while the client asks for the array types ends no process; any other unhandled rejection still does', async () => {
    if (typeof cluster === 'string') return;
    await ensureBuilt();
    const target = await cluster.createDatabase();
    // In a process of its own: the client's rejection is unhandled in any process (a test
    // runner reports it), and only this module's listener lets it pass.
    const cut = await runNode(CUT_WHILE_ASKING_TYPES, target);
    expect(cut.stderr).toBe('');
    const { waitedMs, ...outcome } = JSON.parse(cut.stdout) as { waitedMs: number };
    expect(outcome).toEqual({ answer: [{ a: ['x', 'y'] }], cuts: 1 });
    // The lost request is given up after 5 s, not 15 (a unit waited that long after each restart).
    expect(waitedMs).toBeLessThan(12_000);
    expect(cut.code).toBe(0);
    const other = await runNode(`${IMPORT_DATABASE}\nconnect(process.argv[1]);\nPromise.reject(new Error('not the array types'));\nsetTimeout(() => console.log('alive'), 500);`, target);
    expect(other.stderr).toContain('Error: not the array types');
    expect(other.stdout).toBe('');
    expect(other.code).toBe(1);
  }, 120_000);
});

// A connection plans each statement once, often while the index is still empty: the
// lookups of a page must then still find their row by every column they name.
describe.skipIf(typeof cluster === 'string')('the plans of the index\'s lookups, made on an empty index', () => {
  /** The plan of `query` (parameters $1, $2 of `types`) as a connection's generic plan. */
  async function genericPlan(url: string, types: string, query: string, args: string): Promise<string> {
    const sql = connect(url, { max: 1 });
    try {
      return await sql.begin(async (tx) => {
        await tx.unsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
        await tx.unsafe(`PREPARE lookup (${types}) AS ${query}`);
        const rows = await tx.unsafe(`EXPLAIN EXECUTE lookup (${args})`);
        await tx.unsafe('DEALLOCATE lookup');
        return rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      });
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  it('a URL by (site, id) is found by both, not by its site with the id filtered (which reads every URL of the site)', async () => {
    if (typeof cluster === 'string') return;
    const url = await cluster.createDatabase();
    const sql = connect(url, { max: 1 });
    await migratePg(sql, Date.now);
    await sql.end({ timeout: 1 });
    const byId = await genericPlan(url, 'integer, bigint', 'SELECT state FROM url WHERE site = $1 AND id = $2', '1, 2');
    expect(byId).toMatch(/Index Cond: .*id = \$2/);
    expect(byId).not.toMatch(/Filter: .*id = \$2/);
    const byKey = await genericPlan(url, 'integer, text', 'SELECT id FROM url WHERE site = $1 AND key = $2', "1, 'http://a/'");
    expect(byKey).toMatch(/Index Cond: .*key = \$2/);
  });
});
