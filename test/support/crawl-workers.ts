// Cooperating crawl workers as child processes (test/support/crawl-worker.mjs), for
// the tests of crawls shared on PostgreSQL and the bench: start, watch, kill.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file runs from test/support/ (vitest) or from its build in dist/test/support/ (the
// bench); the .mjs files are not built: they stay in test/support/.
const SUPPORT = fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]dist([\\/]test[\\/]support[\\/])$/, '$1');
const WORKER = path.join(SUPPORT, 'crawl-worker.mjs');
/** Loaded first in every worker: DNS answers localhost only, as in the test processes. */
const LOOPBACK_ONLY = path.join(SUPPORT, 'loopback-only.mjs');

export interface WorkerConfig {
  readonly db: string;
  readonly seeds: readonly string[];
  readonly workerId: string;
  readonly leaseMs?: number;
  /** crawl()'s data options. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** How far this worker's clock runs ahead of the machine's (negative: behind), ms. @default 0 */
  readonly clockSkewMs?: number;
  /** Open the store, then crawl only once `go()` is called. @default false */
  readonly waitForGo?: boolean;
}

export interface WorkerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The JSON lines it wrote (`open`, then `summary`). */
  readonly lines: readonly Record<string, unknown>[];
  readonly stderr: string;
}

export interface WorkerProcess {
  readonly workerId: string;
  readonly child: ChildProcess;
  /** Resolves when its store is open. */
  readonly opened: Promise<void>;
  readonly exit: Promise<WorkerExit>;
  /** Start the crawl of a worker started with `waitForGo`. */
  go(): void;
}

/** Start a worker; it is in `running` until it exits, so that cleanup can kill what is left. */
export function startWorker(config: WorkerConfig, running: Set<ChildProcess>): WorkerProcess {
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, WORKER, JSON.stringify(config)], {
    stdio: [config.waitForGo === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let buffer = '';
  let onOpen: () => void = () => {};
  const opened = new Promise<void>((resolve) => (onOpen = resolve));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
      buffer = buffer.slice(end + 1);
      lines.push(line);
      if (line.type === 'open') onOpen();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<WorkerExit>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      onOpen();
      resolve({ code, signal, lines, stderr });
    });
  });
  return { workerId: config.workerId, child, opened, exit, go: () => child.stdin?.end('go\n') };
}

/** Kill what is still running (a test that failed midway). */
export function killAll(running: Set<ChildProcess>): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
