// The workers section of `stats` (workers on one PostgreSQL index), from a reader that has workers: shown
// for workers that ran at the same time or one not ended, with the shared frontier.

import { describe, expect, it } from 'vitest';
import { collectStats, formatStats } from '../../../src/report/index.js';
import { MemoryStore, type IndexReader, type WorkerRow } from '../../../src/store/index.js';

const T = Date.UTC(2026, 0, 2, 3, 4, 5);

function worker(id: string, startedAt: number, endedAt: number | undefined, more: Partial<WorkerRow> = {}): WorkerRow {
  return {
    id,
    host: 'box',
    pid: 7,
    startedAt,
    heartbeatAt: endedAt ?? startedAt,
    endedAt,
    isSilent: false,
    counts: { requests: 12, fetched: 10, failed: 1, links: 40, inFlight: 0 },
    claims: 0,
    lapsedClaims: 0,
    ...more,
  };
}

async function readerWith(workers: readonly WorkerRow[]): Promise<IndexReader> {
  const store = new MemoryStore({ now: () => T });
  await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }, { rawHref: 'http://h/a', target: 'http://h/a' }]);
  await store.claim(1);
  const reader = store.reader();
  return Object.assign(reader, { workers: async () => workers });
}

describe('stats: the workers section', () => {
  it('workers that ran at the same time: the shared frontier, then each worker', async () => {
    const stats = await collectStats(await readerWith([worker('w0', T, T + 50), worker('w1', T + 10, T + 60, { isSilent: false }), worker('w2', T + 20, undefined, { isSilent: true, heartbeatAt: T + 30, claims: 0, lapsedClaims: 1 })]));
    const lines = formatStats(stats);
    expect(lines.slice(-5)).toEqual([
      'workers         3: 0 running, 2 ended, 1 silent (stopped without ending)',
      '  frontier      1 queued, 1 claimed (1 of them lapsed: their worker stopped renewing)',
      '  worker        w0 (host box, pid 7), ended 2026-01-02T03:04:05.050Z; requests 12, fetched 10, failed 1, links 40; 0 claims',
      '  worker        w1 (host box, pid 7), ended 2026-01-02T03:04:05.060Z; requests 12, fetched 10, failed 1, links 40; 0 claims',
      '  worker        w2 (host box, pid 7), silent since 2026-01-02T03:04:05.030Z (1 claims lapsed); requests 12, fetched 10, failed 1, links 40; 0 claims',
    ]);
    expect(stats.workers?.urlsByState.fetching).toBe(1);
  });

  it('a worker running: shown, as running', async () => {
    const lines = formatStats(await collectStats(await readerWith([worker('w0', T, undefined, { heartbeatAt: T + 5, claims: 1, counts: {} })])));
    expect(lines.slice(-3)).toEqual([
      'workers         1: 1 running, 0 ended, 0 silent (stopped without ending)',
      '  frontier      1 queued, 1 claimed',
      '  worker        w0 (host box, pid 7), running, heartbeat 2026-01-02T03:04:05.005Z; no progress reported; 1 claims',
    ]);
  });

  it('runs one after another, each ended: no section (as with one writer)', async () => {
    const stats = await collectStats(await readerWith([worker('w0', T, T + 50), worker('w1', T + 50, T + 90)]));
    expect(stats.workers).toBeUndefined();
    expect(formatStats(stats).some((line) => line.startsWith('workers'))).toBe(false);
  });
});
