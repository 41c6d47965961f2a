// Debian programs the tests use as independent readers (Graphviz, xmllint, networkx,
// Chromium) or as a real server (PostgreSQL): installed with apt-get where missing and we are root, so a
// fresh machine and CI run the same tests. When that is impossible the caller skips
// with a visible notice.

import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How long one apt-get may take, the dpkg lock wait included (test files install in parallel). */
export const INSTALL_TIMEOUT_MS = 600_000;

export interface DebianTool {
  /** The file that shows the tool is there. */
  readonly path: string;
  /** The Debian package that brings it. */
  readonly debianPackage: string;
}

export const GRAPHVIZ: DebianTool = { path: '/usr/bin/dot', debianPackage: 'graphviz' };
export const XMLLINT: DebianTool = { path: '/usr/bin/xmllint', debianPackage: 'libxml2-utils' };
export const NETWORKX: DebianTool = { path: '/usr/lib/python3/dist-packages/networkx/__init__.py', debianPackage: 'python3-networkx' };
export const CHROMIUM: DebianTool = { path: '/usr/bin/chromium', debianPackage: 'chromium' };
/** A real web server with TLS and HTTP/2 (`listen … ssl http2`). */
export const NGINX: DebianTool = { path: '/usr/sbin/nginx', debianPackage: 'nginx' };
/** The connection pooler operators put in front of PostgreSQL (`pool_mode = transaction`). */
export const PGBOUNCER: DebianTool = { path: '/usr/sbin/pgbouncer', debianPackage: 'pgbouncer' };

/** Where Debian puts each PostgreSQL major version's server programs (`<major>/bin`). */
const POSTGRESQL_LIB = '/usr/lib/postgresql';

/**
 * The newest PostgreSQL server programs installed (`/usr/lib/postgresql/<major>/bin`),
 * or `undefined` when there are none. The major is found at run time: Debian 12's
 * `postgresql` brings 15, later releases newer ones.
 */
export function postgresqlBinDir(): string | undefined {
  let majors: number[];
  try {
    majors = readdirSync(POSTGRESQL_LIB)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => b - a);
  } catch {
    return undefined;
  }
  const major = majors.find((candidate) => isExecutable(path.join(POSTGRESQL_LIB, String(candidate), 'bin', 'initdb')));
  return major === undefined ? undefined : path.join(POSTGRESQL_LIB, String(major), 'bin');
}

/** The PostgreSQL server (initdb, postgres); its path is looked up each time it is read. */
export const POSTGRESQL: DebianTool = {
  get path(): string {
    return path.join(postgresqlBinDir() ?? path.join(POSTGRESQL_LIB, '<none>', 'bin'), 'initdb');
  },
  debianPackage: 'postgresql',
};

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isPresent(tool: DebianTool): boolean {
  try {
    accessSync(tool.path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Make `tools` available: install the missing ones with apt-get (after an `apt-get
 * update` if the first try fails). Resolves to `undefined` when all are there, or to
 * the reason they are not — which the caller prints and skips on.
 */
export async function ensureDebianTools(...tools: DebianTool[]): Promise<string | undefined> {
  const missing = tools.filter((tool) => !isPresent(tool));
  if (missing.length === 0) return undefined;
  const packages = missing.map((tool) => tool.debianPackage);
  if (process.getuid?.() !== 0) return `not root: cannot apt-get install ${packages.join(' ')}`;
  const failure = await withAptLock(async (): Promise<string | undefined> => {
    // Another test file may have installed them while this one waited.
    if (tools.every(isPresent)) return undefined;
    try {
      await aptGetInstall(packages);
    } catch {
      try {
        await aptGet(['update']);
        await aptGetInstall(packages);
      } catch (error) {
        return `apt-get install ${packages.join(' ')} failed: ${firstLine(error)}`;
      }
    }
    return undefined;
  }).catch((error: unknown) => `cannot install ${packages.join(' ')}: ${firstLine(error)}`);
  if (failure !== undefined) return failure;
  const stillMissing = tools.filter((tool) => !isPresent(tool));
  return stillMissing.length === 0 ? undefined : `apt-get installed ${packages.join(' ')}, yet ${stillMissing.map((tool) => tool.path).join(', ')} is missing`;
}

// Test files run in parallel workers: one apt-get at a time (`apt-get update` does
// not wait for the lists lock), through a lock directory created atomically.
const APT_LOCK = path.join(tmpdir(), 'linkladder-test-apt.lock');

async function withAptLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(APT_LOCK);
      break;
    } catch {
      if (isStale(APT_LOCK)) rmSync(APT_LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${APT_LOCK} held for too long`);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(APT_LOCK, { recursive: true, force: true });
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > INSTALL_TIMEOUT_MS;
  } catch {
    return false;
  }
}

async function aptGetInstall(packages: readonly string[]): Promise<void> {
  await aptGet(['install', '-y', ...packages]);
}

async function aptGet(args: readonly string[]): Promise<void> {
  await run('apt-get', ['-q', '-o', 'DPkg::Lock::Timeout=540', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: INSTALL_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? ((error as { stderr?: string }).stderr ?? error.message) : String(error);
  return text.trim().split('\n').at(-1) ?? text;
}

/** Say loudly that a test is skipped, so a green run does not hide it. */
export function skipNotice(what: string, reason: string): string {
  const notice = `SKIPPED ${what}: ${reason}`;
  console.warn(`\n*** ${notice} ***\n`);
  return notice;
}
