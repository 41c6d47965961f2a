// The built executable (dist/linkladder.mjs, the bundle `linkladder` runs) for the
// tests that spawn it, built first when a source file is newer. `npm test` builds before vitest; this covers
// `vitest run` after an edit. Test files run in parallel workers, so one build at a
// time: a lock directory, created atomically, held by the worker that builds.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MAIN = fileURLToPath(new URL('../../dist/linkladder.mjs', import.meta.url));

/** Loaded first in every spawned CLI: DNS answers localhost only, as in the test processes. */
const LOOPBACK_ONLY = fileURLToPath(new URL('../support/loopback-only.mjs', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const LOCK = fileURLToPath(new URL('../../dist/.build-lock', import.meta.url));
const LOCK_STALE_MS = 120_000;

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) {
      newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  }
  return newest;
}

function isBuildCurrent(): boolean {
  try {
    return statSync(MAIN).mtimeMs >= newestSourceTime(`${ROOT}src`);
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  mkdirSync(`${ROOT}dist`, { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a worker that died is taken over.
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) {
        rmSync(LOCK, { recursive: true, force: true });
        mkdirSync(LOCK);
        return true;
      }
    } catch {
      // another worker took it first
    }
    return false;
  }
}

/**
 * Build dist/ unless it is current. Type errors are the type-check's business (tsc
 * emits anyway): only a missing or stale build fails here.
 */
export async function ensureBuilt(): Promise<void> {
  for (;;) {
    if (isBuildCurrent()) return;
    if (tryLock()) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    if (isBuildCurrent()) return;
    const compile = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
    const bundle = spawnSync('npm', ['run', '--silent', 'bundle'], { cwd: ROOT, encoding: 'utf8' });
    if (!isBuildCurrent()) {
      throw new Error(`the build did not make ${MAIN}:\n${compile.stdout}${compile.stderr}${bundle.stdout}${bundle.stderr}`);
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** How a spawned `linkladder` ended, with all it printed. */
export interface CliExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Start the built executable with `args`, its output collected. The child is in
 * `running` until it ends, so that a test's cleanup can kill what is left.
 */
export function spawnCli(args: readonly string[], running: Set<ChildProcess>): { child: ChildProcess; exit: Promise<CliExit> } {
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<CliExit>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, exit };
}
