// What a file of tests on crawl workers sharing a PostgreSQL index sets up: the cluster
// (or, when none can start, a visible notice and the reason), the built CLI the workers
// run, and after each test its workers killed and its clean-ups run; the cluster stopped
// after the file.

import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ensureBuilt } from '../cli/built-cli.js';
import { killAll } from './crawl-workers.js';
import { startPostgres, type PostgresCluster, type StartPostgresOptions } from './postgres-cluster.js';
import { skipNotice } from './system-tools.js';

export interface WorkerTestBed {
  /** The cluster, or why none started (the file's tests are then skipped). */
  readonly cluster: PostgresCluster | string;
  /** The worker processes a test started: killed after it. */
  readonly running: Set<ChildProcess>;
  /** What a test asks to be done after it (servers closed, connections ended), in order. */
  readonly cleanups: (() => Promise<void> | void)[];
}

/** The set-up of a file of worker tests; `what` names them in the notice when no cluster starts. */
export async function workerTestBed(what: string, options?: StartPostgresOptions): Promise<WorkerTestBed> {
  const cluster = await startPostgres(options);
  if (typeof cluster === 'string') skipNotice(what, cluster);
  const bed: WorkerTestBed = { cluster, running: new Set(), cleanups: [] };
  beforeAll(async () => {
    if (typeof cluster !== 'string') await ensureBuilt();
  }, 300_000);
  afterEach(async () => {
    killAll(bed.running);
    for (const cleanup of bed.cleanups.splice(0)) await cleanup();
  });
  afterAll(async () => {
    if (typeof cluster !== 'string') await cluster.stop();
  });
  return bed;
}
