// The throwaway PostgreSQL server the PostgreSQL store tests run on
// (test/support/postgres-cluster.ts): it starts on loopback, gives fresh databases,
// and leaves nothing behind — no folder, no open port — even when its test process
// exits without stopping it or is killed. And the one cluster a test run shares
// (test/support/postgres-global-setup.ts): each file gets databases of its own in it.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresCluster } from '../../support/postgres-cluster.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../../support/system-tools.js';

/** Resolves to the connection error's code, or 'connected'. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Poll until `port` refuses connections; the last answer. */
async function closedWithin(port: number, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  let answer = await tryConnect('127.0.0.1', port);
  while (answer !== 'ECONNREFUSED' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await tryConnect('127.0.0.1', port);
  }
  return answer;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'linkladder-pg-cluster-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A separate Node process that starts a cluster, prints `{ port, dir }` and then
 * `ending` says what it does: wait forever (to be killed) or exit without stop().
 */
async function clusterInAnotherProcess(ending: 'wait' | 'exit'): Promise<{ child: ReturnType<typeof spawn>; port: number; dir: string }> {
  const bundle = path.join(scratch, 'postgres-cluster.mjs');
  if (!existsSync(bundle)) {
    const source = fileURLToPath(new URL('../../support/postgres-cluster.ts', import.meta.url));
    buildSync({ entryPoints: [source], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
  }
  const script = `
    const { startPostgres } = await import(${JSON.stringify(bundle)});
    const cluster = await startPostgres();
    if (typeof cluster === 'string') throw new Error(cluster);
    console.log(JSON.stringify({ port: cluster.port, dir: cluster.dir }));
    ${ending === 'wait' ? 'setInterval(() => {}, 1000);' : 'process.exit(0);'}`;
  const child = spawn(process.execPath, ['--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  for await (const chunk of child.stdout) {
    output += String(chunk);
    if (output.includes('\n')) break;
  }
  const { port, dir } = JSON.parse(output) as { port: number; dir: string };
  return { child, port, dir };
}

let cluster: PostgresCluster | string;
beforeAll(async () => {
  cluster = await startPostgres({ dedicated: true });
}, INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  if (typeof cluster !== 'string') await cluster.stop();
});

describe('a throwaway PostgreSQL cluster', () => {
  it('answers on 127.0.0.1 only, as the superuser, with the test settings', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
    expect(await cluster.psql('SELECT 1')).toBe('1\n');
    const settings = await cluster.psql(
      `SELECT name || '=' || setting FROM pg_settings
       WHERE name IN ('listen_addresses', 'fsync', 'synchronous_commit', 'full_page_writes', 'max_connections', 'unix_socket_directories')
       ORDER BY name`,
    );
    expect(settings.trim().split('\n')).toEqual([
      'fsync=off',
      'full_page_writes=off',
      'listen_addresses=127.0.0.1',
      'max_connections=100',
      'synchronous_commit=off',
      `unix_socket_directories=${cluster.dir}`,
    ]);
    expect(await cluster.psql('SELECT current_user, pg_encoding_to_char(encoding), datcollate FROM pg_database WHERE datname = current_database()')).toBe(
      'postgres|UTF8|C\n',
    );
    // Bound to 127.0.0.1, not to the whole loopback network.
    expect(await tryConnect('127.0.0.2', cluster.port)).toBe('ECONNREFUSED');
  });

  it('creates fresh empty databases, each with its own URL', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    const first = await cluster.createDatabase();
    const second = await cluster.createDatabase('named_one');
    expect(first).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/test_1`);
    expect(second).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/named_one`);
    await cluster.psql('CREATE TABLE only_here (id int)', 'test_1');
    expect(await cluster.psql('SELECT 1', 'named_one')).toBe('1\n');
    expect(await cluster.psql(`SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`, 'named_one')).toBe('0\n');
    await expect(cluster.createDatabase('named_one')).rejects.toThrow(/already exists/);
    await expect(cluster.createDatabase('Bad"name')).rejects.toThrow(/plain lower-case database name/);
  });

  it('two clusters run side by side, and stop() leaves no folder and no open port', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    const other = await startPostgres({ dedicated: true });
    if (typeof other === 'string') throw new Error(other);
    expect(other.port).not.toBe(cluster.port);
    expect(other.dir).not.toBe(cluster.dir);
    expect(await other.psql('SELECT 2')).toBe('2\n');
    expect(await cluster.psql('SELECT 1')).toBe('1\n');

    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    expect(await tryConnect('127.0.0.1', other.port)).toBe('ECONNREFUSED');
    await other.stop(); // twice is harmless
  });

  it('a test process killed (SIGKILL) takes its server down; the next start removes its folder', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    const { child, port, dir } = await clusterInAnotherProcess('wait');
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(await closedWithin(port, 10_000)).toBe('ECONNREFUSED');
    const next = await startPostgres({ dedicated: true });
    if (typeof next === 'string') throw new Error(next);
    await next.stop();
    expect(existsSync(dir)).toBe(false);
  });

  it('a test process that exits without stop() leaves no server and no folder', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    const { child, port, dir } = await clusterInAnotherProcess('exit');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    expect(child.exitCode).toBe(0);
    expect(await closedWithin(port, 10_000)).toBe('ECONNREFUSED');
    expect(existsSync(dir)).toBe(false);
  });
});

describe("the test run's shared cluster", () => {
  it('every startPostgres() of the run gets it; each file its own databases, which stop() drops', async (context) => {
    if (typeof cluster === 'string') return context.skip(skipNotice('the PostgreSQL cluster tests', cluster));
    const shared = await startPostgres();
    if (typeof shared === 'string') return context.skip(skipNotice('the shared PostgreSQL cluster', shared));
    const again = await startPostgres();
    if (typeof again === 'string') throw new Error(again);
    expect(again.port).toBe(shared.port);
    expect(shared.port).not.toBe(cluster.port);
    expect(await shared.psql("SELECT setting FROM pg_settings WHERE name = 'max_connections'")).toBe('300\n');

    const mine = new URL(await shared.createDatabase()).pathname.slice(1);
    const theirs = new URL(await again.createDatabase()).pathname.slice(1);
    expect(mine).toMatch(/^f[0-9a-f]{10}_test_1$/);
    expect(theirs).toMatch(/^f[0-9a-f]{10}_test_1$/);
    expect(theirs).not.toBe(mine);
    const listed = async (): Promise<string[]> => (await shared.psql('SELECT datname FROM pg_database ORDER BY datname')).trim().split('\n');
    expect(await listed()).toEqual(expect.arrayContaining([mine, theirs]));

    await expect(shared.restart()).rejects.toThrow(/startPostgres\(\{ dedicated: true \}\)/);
    await again.stop();
    expect(await listed()).toContain(mine);
    expect(await listed()).not.toContain(theirs);
    await shared.stop();
    expect(await listed()).not.toContain(mine);
    // The server stays up for the other files: the global setup stops it after the run.
    expect(await tryConnect('127.0.0.1', shared.port)).toBe('connected');
  });
});
