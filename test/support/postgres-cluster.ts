// A throwaway PostgreSQL server for tests: Debian's `postgresql` (installed with
// apt-get when missing and we are root, as Chromium is), a cluster made by initdb in
// a fresh temporary folder, and `postgres` on a free loopback port. Nothing outlives the
// process that started it: `stop()` shuts the server down and removes the folder; a
// process that exits without it takes the server down with it (`exit` hook, and the
// kernel's parent-death signal for a process that is killed), and the next start removes
// the folders such processes left behind.
//
// Under vitest, one cluster serves the whole test run: the `postgres` project's global
// setup (test/support/postgres-global-setup.ts) starts it once, and `startPostgres()` in
// a test file hands out that cluster, whose `createDatabase()` gives the file databases
// of its own (a database costs a CREATE DATABASE; a cluster, a copy and a server start).
// A file that restarts the server, or wants other settings, asks for a cluster of its
// own (`dedicated: true`, or `settings`); so does a process outside vitest.
//
// initdb and postgres refuse to run as root: as root they run as the `postgres`
// system user (the package creates it), otherwise as the current user. Readiness and
// createDatabase use PostgreSQL's own pg_isready and psql, so this file needs no npm client.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { POSTGRESQL, ensureDebianTools, postgresqlBinDir } from './system-tools.js';

const run = promisify(execFile);

/** The superuser of every test cluster, whoever runs the tests. */
const SUPERUSER = 'postgres';
/** The system user initdb and postgres run as when the tests run as root. */
const SYSTEM_USER = 'postgres';
/** Temporary folders: `<prefix><pid of the test process>-<random>`. */
const FOLDER_PREFIX = 'linkladder-pg-';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** Set (to anything) to make a cluster that cannot start fail the test instead of skipping it, as CI wants. */
export const REQUIRE_POSTGRES_ENV = 'LINKLADDER_REQUIRE_POSTGRES';

/**
 * Server settings for test speed: no durability (a crash loses the folder anyway),
 * loopback only, the socket in the cluster's own folder so clusters never share a lock file.
 */
const TEST_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '100',
};

/**
 * initdb's arguments besides the folder. C collation orders text by bytes (as SQLite's
 * BINARY does); trust is for 127.0.0.1 and the socket, the only ways in.
 */
const INITDB_ARGS = ['--username', SUPERUSER, '--auth', 'trust', '--encoding', 'UTF8', '--locale', 'C', '--no-sync'];

export interface PostgresCluster {
  /** The `postgres` database, as the superuser: postgres://postgres@127.0.0.1:PORT/postgres. */
  readonly url: string;
  readonly port: number;
  /** The cluster's temporary folder (data, socket, server.log); removed by `stop()`. */
  readonly dir: string;
  /** Run SQL with psql in `database` (default `postgres`); resolves to its output, rows unaligned, `|` between columns. */
  psql(command: string, database?: string): Promise<string>;
  /** Create a fresh empty database (a generated name unless `name` is given) and return its URL. */
  createDatabase(name?: string): Promise<string>;
  /**
   * Fast shutdown (open sessions are ended), the server away for `downMs` (connections
   * refused) or until `until` settles if that comes first, then started again on the same
   * port and data: a restart as clients meet it.
   */
  restart(options?: { readonly downMs?: number; readonly until?: Promise<unknown> }): Promise<void>;
  /** Fast shutdown (open sessions are ended), then remove the cluster's folder. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Server settings added to (or overriding) the test settings, e.g. `{ shared_buffers: '512MB' }`; implies `dedicated`. */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * A cluster of the caller's own even under a test run that shares one: for a test that
   * restarts the server (`restart()` is refused on the shared cluster) or tests the cluster itself.
   */
  readonly dedicated?: boolean;
}

/** What the global setup provides to the test files (`provide`/`inject`): the shared cluster, or why there is none. */
export type SharedPostgres = { readonly port: number; readonly dir: string } | { readonly unavailable: string };

/** The `provide`/`inject` key of the shared cluster. */
export const SHARED_POSTGRES_KEY = 'linkladderPostgres';

/**
 * The shared cluster's settings: the test settings, with room for the connections of two
 * test files at once (a crawl test runs several workers, each with its own pool).
 */
export const SHARED_SETTINGS: Readonly<Record<string, string>> = { max_connections: '300' };

/** The identity initdb and postgres run as. */
interface RunAs {
  readonly uid: number;
  readonly gid: number;
  /** The setpriv arguments that switch to it (none when it is the current user). */
  readonly switchArgs: readonly string[];
}

/**
 * Start a throwaway cluster, or say why it cannot start (print it with skipNotice and
 * skip). With LINKLADDER_REQUIRE_POSTGRES set, a cluster that cannot start throws instead.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresCluster | string> {
  const shared = options.dedicated === true || options.settings !== undefined ? undefined : await sharedCluster();
  const result = shared ?? (await tryStart(options));
  // A file of the unit project cannot start PostgreSQL: that is a misfiled test, not a machine without PostgreSQL.
  if (typeof result === 'string' && result.includes('a unit test starts nothing')) {
    throw new Error(`this file starts PostgreSQL: list it in POSTGRES (vitest.config.ts), not the unit project (${result})`);
  }
  if (typeof result === 'string' && process.env[REQUIRE_POSTGRES_ENV] !== undefined) {
    throw new Error(`PostgreSQL is required (${REQUIRE_POSTGRES_ENV}) but cannot start: ${result}`);
  }
  return result;
}

/** startPostgres without the LINKLADDER_REQUIRE_POSTGRES check: a cluster of the caller's own, or why not. */
export async function tryStart(options: StartPostgresOptions): Promise<PostgresCluster | string> {
  const missing = await ensureDebianTools(POSTGRESQL);
  if (missing !== undefined) return missing;
  const bin = postgresqlBinDir();
  if (bin === undefined) return 'no PostgreSQL server programs under /usr/lib/postgresql';
  const runAs = identity();
  if (typeof runAs === 'string') return runAs;
  removeLeftovers();

  const dir = mkdtempSync(path.join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    chownSync(dir, runAs.uid, runAs.gid);
    const data = path.join(dir, 'data');
    const made = await makeDataFolder(bin, runAs, data);
    if (made !== undefined) {
      removeDir();
      return made;
    }
    const settings = { ...TEST_SETTINGS, unix_socket_directories: dir, ...options.settings };
    let lastFailure = '';
    // A free port may be taken between our look and postgres' bind (other test files start clusters too): try again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      const started = await startServer(bin, runAs, dir, data, port, settings);
      if (typeof started !== 'string') return started;
      lastFailure = started;
    }
    removeDir();
    return lastFailure;
  } catch (error) {
    removeDir();
    return `cannot create a PostgreSQL cluster: ${firstLine(error)}`;
  }
}

/**
 * The test run's shared cluster (undefined outside vitest, or when no global setup
 * provided one), or why it could not start. `vitest` is imported by a computed name so
 * that a bundle of this file (test/store/pg/postgres-cluster.test.ts runs one in a
 * plain node process) neither carries nor needs it.
 */
async function sharedCluster(): Promise<PostgresCluster | string | undefined> {
  let provided: SharedPostgres | undefined;
  try {
    const specifier = 'vitest';
    const { inject } = (await import(specifier)) as { inject: (key: string) => unknown };
    provided = inject(SHARED_POSTGRES_KEY) as SharedPostgres | undefined;
  } catch {
    return undefined;
  }
  if (provided === undefined) return undefined;
  if ('unavailable' in provided) return provided.unavailable;
  const bin = postgresqlBinDir();
  if (bin === undefined) return 'no PostgreSQL server programs under /usr/lib/postgresql';
  return sharedHandle(bin, provided.port, provided.dir);
}

/**
 * A test file's view of the shared cluster: its databases carry a prefix of the file's
 * own (so files never meet), `stop()` drops them and leaves the server to the global
 * setup's teardown, and `restart()` is refused (other files are using the server).
 */
function sharedHandle(bin: string, port: number, dir: string): PostgresCluster {
  const url = (database: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const prefix = `f${randomBytes(5).toString('hex')}_`;
  const made: string[] = [];
  let databases = 0;
  let stopped: Promise<void> | undefined;
  return {
    url: url('postgres'),
    port,
    dir,
    psql: (command: string, database = 'postgres') => psql(bin, port, command, database),
    async createDatabase(name?: string): Promise<string> {
      const database = name ?? `${prefix}test_${++databases}`;
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error(`Expected a plain lower-case database name, got \`${database}\``);
      await psql(bin, port, `CREATE DATABASE "${database}"`);
      made.push(database);
      return url(database);
    },
    restart(): Promise<void> {
      return Promise.reject(new Error('restart() would take the server away from every test file sharing it: use startPostgres({ dedicated: true })'));
    },
    stop(): Promise<void> {
      // FORCE ends the file's open sessions, as the fast shutdown of a cluster of its own did.
      stopped ??= made.length === 0 ? Promise.resolve() : dropDatabases(bin, port, made.splice(0));
      return stopped;
    },
  };
}

async function dropDatabases(bin: string, port: number, names: readonly string[]): Promise<void> {
  // One psql, one -c per statement: DROP DATABASE cannot run inside the transaction a multi-statement -c makes.
  await run(path.join(bin, 'psql'), [
    ...psqlConnectionArgs(port, 'postgres'),
    ...names.flatMap((name) => ['--command', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]),
  ]);
}

function identity(): RunAs | string {
  if (process.getuid?.() !== 0) return { uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1, switchArgs: [] };
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === SYSTEM_USER);
  if (entry === undefined) return `running as root and there is no '${SYSTEM_USER}' system user to run PostgreSQL as`;
  return {
    uid: Number(entry[2]),
    gid: Number(entry[3]),
    switchArgs: [`--reuid=${SYSTEM_USER}`, `--regid=${Number(entry[3])}`, '--init-groups'],
  };
}

/**
 * The cluster's data folder: a copy of a template made once by initdb (initdb takes
 * about a second; a copy, a tenth of that). The template lives in the temporary folder,
 * named after the major version, the user and initdb's arguments, and is made
 * atomically (initdb into a private folder, then a rename), so parallel test files
 * may race to make it.
 */
async function makeDataFolder(bin: string, runAs: RunAs, data: string): Promise<string | undefined> {
  const version = path.basename(path.dirname(bin));
  const recipe = createHash('sha256').update(JSON.stringify(INITDB_ARGS)).digest('hex').slice(0, 12);
  const template = path.join(tmpdir(), `linkladder-pg-template-${version}-${runAs.uid}-${recipe}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    const scratch = mkdtempSync(`${template}.making-`);
    try {
      chownSync(scratch, runAs.uid, runAs.gid);
      await runAsUser(runAs, path.join(bin, 'initdb'), ['--pgdata', path.join(scratch, 'data'), ...INITDB_ARGS]);
      try {
        renameSync(path.join(scratch, 'data'), template);
      } catch (error) {
        // Another test file made it first.
        if (!existsSync(path.join(template, 'PG_VERSION'))) throw error;
      }
    } catch (error) {
      return `initdb failed: ${firstLine(error)}`;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  // cp -a keeps the owner and the 0700 mode postgres insists on.
  await run('cp', ['-a', template, data]);
  return undefined;
}

async function startServer(
  bin: string,
  runAs: RunAs,
  dir: string,
  data: string,
  port: number,
  settings: Readonly<Record<string, string>>,
): Promise<PostgresCluster | string> {
  const logFile = path.join(dir, 'server.log');
  const args = ['-D', data, '-p', String(port), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  let server = launch(bin, runAs, args, logFile, 'w');
  const onExit = (): void => {
    server.child.kill('SIGQUIT');
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // The server may still be writing as it dies; the next start removes what is left.
    }
  };
  process.once('exit', onExit);

  const url = (database: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const ready = await waitUntilReady(bin, port, server.child);
  // A test process that forgets stop() still ends (and its exit hook stops the server).
  server.child.unref();
  if (!ready) {
    server.child.kill('SIGQUIT');
    await server.exited;
    process.removeListener('exit', onExit);
    return `postgres did not start on port ${port}: ${lastLines(logFile)}`;
  }
  const shutDown = async (): Promise<void> => {
    const { child, exited } = server;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.ref(); // the process waits for the shutdown
    child.kill('SIGINT'); // fast shutdown
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  let databases = 0;
  let stopped: Promise<void> | undefined;
  return {
    url: url('postgres'),
    port,
    dir,
    psql: (command: string, database = 'postgres') => psql(bin, port, command, database),
    async createDatabase(name?: string): Promise<string> {
      const database = name ?? `test_${++databases}`;
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error(`Expected a plain lower-case database name, got \`${database}\``);
      await psql(bin, port, `CREATE DATABASE "${database}"`);
      return url(database);
    },
    async restart(options = {}): Promise<void> {
      await shutDown();
      let timer: NodeJS.Timeout | undefined;
      const down = new Promise((resolve) => (timer = setTimeout(resolve, options.downMs ?? 0)));
      await Promise.race([down, ...(options.until === undefined ? [] : [options.until.then(() => {}, () => {})])]);
      clearTimeout(timer);
      server = launch(bin, runAs, args, logFile, 'a');
      const isUp = await waitUntilReady(bin, port, server.child);
      server.child.unref();
      if (!isUp) throw new Error(`postgres did not start again on port ${port}: ${lastLines(logFile)}`);
    },
    stop(): Promise<void> {
      stopped ??= (async () => {
        await shutDown();
        process.removeListener('exit', onExit);
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** The postmaster on `args`, its output to `logFile` (`w`: a new log, `a`: appended). */
function launch(bin: string, runAs: RunAs, args: readonly string[], logFile: string, flags: 'w' | 'a'): { child: ChildProcess; exited: Promise<void> } {
  const log = openSync(logFile, flags);
  // setpriv execs postgres in place (the child is the postmaster itself), and the
  // parent-death signal (SIGQUIT: immediate shutdown) stops it if this process is killed.
  const child = spawn('setpriv', [...runAs.switchArgs, '--pdeathsig', 'SIGQUIT', '--', path.join(bin, 'postgres'), ...args], {
    stdio: ['ignore', log, log],
    cwd: '/',
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  return { child, exited };
}

/** Poll pg_isready until the server accepts connections; false if it exits or takes too long. */
async function waitUntilReady(bin: string, port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    try {
      await run(path.join(bin, 'pg_isready'), ['--quiet', '--host', '127.0.0.1', '--port', String(port), '--username', SUPERUSER, '--dbname', 'postgres']);
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return false;
}

async function psql(bin: string, port: number, command: string, database = 'postgres'): Promise<string> {
  const { stdout } = await run(path.join(bin, 'psql'), [...psqlConnectionArgs(port, database), '--command', command]);
  return stdout;
}

function psqlConnectionArgs(port: number, database: string): string[] {
  return [
    '--no-psqlrc',
    '--quiet',
    '--tuples-only',
    '--no-align',
    '--set',
    'ON_ERROR_STOP=1',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--username',
    SUPERUSER,
    '--dbname',
    database,
  ];
}

async function runAsUser(runAs: RunAs, program: string, args: readonly string[]): Promise<void> {
  await run('setpriv', [...runAs.switchArgs, '--', program, ...args], { cwd: '/', maxBuffer: 16 * 1024 * 1024 });
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

/** Folders of test processes that are gone (killed before they could clean up): their servers died with them. */
function removeLeftovers(): void {
  for (const name of readdirSync(tmpdir())) {
    const match = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name);
    if (match === null || isAlive(Number(match[1]))) continue;
    try {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's: not ours to remove.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lastLines(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return '(no server log)';
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? ((error as { stderr?: string }).stderr ?? error.message) : String(error);
  return text.trim().split('\n').at(-1) ?? text;
}
