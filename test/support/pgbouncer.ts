// A throwaway PgBouncer for tests, in front of a test PostgreSQL cluster: Debian's
// `pgbouncer` (installed with apt-get when missing and we are root), its config and log
// in a fresh temporary folder, listening on a free loopback port, in the pool mode asked
// (operators run it in `transaction` mode). Clients authenticate as the cluster allows
// (trust on 127.0.0.1); the user must be in the auth file all the same. PgBouncer
// refuses to run as root: as root it runs as the `postgres` system user, as the cluster
// does, and dies with the test process (parent-death signal).

import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGBOUNCER, ensureDebianTools } from './system-tools.js';

const SYSTEM_USER = 'postgres';
const START_TIMEOUT_MS = 15_000;

export interface PgBouncer {
  readonly port: number;
  /** `url` of the cluster (postgres://user@127.0.0.1:PORT/db) as reached through the pooler. */
  through(url: string): string;
  /** PgBouncer's log so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface StartPgBouncerOptions {
  /** The cluster's port on 127.0.0.1. */
  readonly serverPort: number;
  /** @default 'transaction' */
  readonly poolMode?: 'session' | 'transaction' | 'statement';
  /** Server connections per (database, user) pair. @default 4 */
  readonly poolSize?: number;
}

/** Start PgBouncer, or say why it cannot run here (the caller skips with a notice). */
export async function startPgBouncer(options: StartPgBouncerOptions): Promise<PgBouncer | string> {
  const missing = await ensureDebianTools(PGBOUNCER);
  if (missing !== undefined) return missing;
  const runAs = identity();
  if (typeof runAs === 'string') return runAs;
  const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-pgbouncer-'));
  const port = await freePort();
  const logFile = path.join(dir, 'pgbouncer.log');
  writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${options.serverPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `pool_mode = ${options.poolMode ?? 'transaction'}`,
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 200',
      `logfile = ${logFile}`,
      '',
    ].join('\n'),
  );
  writeFileSync(logFile, '');
  if (runAs.uid !== undefined) {
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini', 'pgbouncer.log']) chownSync(path.join(dir, file), runAs.uid, runAs.gid);
  }
  const child: ChildProcess = spawn('setpriv', [...runAs.switchArgs, '--pdeathsig', 'SIGTERM', '--', PGBOUNCER.path, path.join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
    cwd: '/',
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const log = (): string => readFileSync(logFile, 'utf8');
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await isListening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const text = log();
      await stop();
      return `pgbouncer did not start: ${text.trim().split('\n').at(-1) ?? 'no log'}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    through: (url) => {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.href;
    },
    log,
    stop,
  };
}

interface RunAs {
  readonly uid: number | undefined;
  readonly gid: number;
  readonly switchArgs: readonly string[];
}

function identity(): RunAs | string {
  if (process.getuid?.() !== 0) return { uid: undefined, gid: -1, switchArgs: [] };
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === SYSTEM_USER);
  if (entry === undefined) return `running as root and there is no '${SYSTEM_USER}' system user to run PgBouncer as`;
  return { uid: Number(entry[2]), gid: Number(entry[3]), switchArgs: [`--reuid=${SYSTEM_USER}`, `--regid=${Number(entry[3])}`, '--init-groups'] };
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port nobody listens on at 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
