// The workers section of `linkladder stats` on an index shared by cooperating workers
// (PostgreSQL): the frontier they share, then one line per worker — whether it runs,
// ended, or went silent (its claims lapsed), and what it reported.

import type { WorkerRow } from '../../store/index.js';
import type { WorkersState } from './crawl-stats.js';

/** Labelled rows, as formatStats prints them. */
export function workerRows(state: WorkersState): [string, string][] {
  const { workers, urlsByState } = state;
  const lapsed = workers.reduce((sum, w) => sum + w.lapsedClaims, 0);
  const ended = workers.filter((w) => w.endedAt !== undefined).length;
  const silent = workers.filter((w) => w.isSilent).length;
  const rows: [string, string][] = [
    ['workers', `${workers.length}: ${workers.length - ended - silent} running, ${ended} ended, ${silent} silent (stopped without ending)`],
    ['  frontier', `${urlsByState.queued} queued, ${urlsByState.fetching} claimed${lapsed === 0 ? '' : ` (${lapsed} of them lapsed: their worker stopped renewing)`}`],
  ];
  // A worker's id (host:pid:suffix by default) is longer than a label: it leads the text.
  for (const worker of workers) rows.push(['  worker', workerText(worker)]);
  return rows;
}

function workerText(worker: WorkerRow): string {
  const state =
    worker.endedAt !== undefined
      ? `ended ${iso(worker.endedAt)}`
      : worker.isSilent
        ? `silent since ${iso(worker.heartbeatAt)}${worker.lapsedClaims === 0 ? '' : ` (${worker.lapsedClaims} claims lapsed)`}`
        : `running, heartbeat ${iso(worker.heartbeatAt)}`;
  const c = worker.counts;
  const done = ['requests', 'fetched', 'failed', 'links']
    .filter((name) => typeof c[name] === 'number')
    .map((name) => `${name} ${c[name]}`)
    .join(', ');
  return `${worker.id} (host ${worker.host}, pid ${worker.pid}), ${state}; ${done === '' ? 'no progress reported' : done}; ${worker.claims} claims`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
