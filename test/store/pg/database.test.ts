// Transactions on a real PostgreSQL (pg-database.ts): a connection whose server
// session ends during a transaction gets nothing sent on it again (the client would
// throw an uncaught TypeError from a timer and end the process): the next statement
// fails with CONNECTION_CLOSED, and the pool opens the connection again.

import { createServer, connect as connectTcp, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, isConnectionLost, migratePg, transaction } from '../../../src/store/pg/pg-database.js';
import { startPostgres } from '../../support/postgres-cluster.js';
import { skipNotice } from '../../support/system-tools.js';

const cluster = await startPostgres();
if (typeof cluster === 'string') skipNotice('PostgreSQL transactions', cluster);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

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
