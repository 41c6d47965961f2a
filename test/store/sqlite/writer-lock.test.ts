// The index's writer lock (src/store/sqlite/writer-lock.ts): who holds it,
// when a holder counts as gone, and that readers never touch it. The same with real
// processes: test/cli/writer-lock.test.ts.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-writer-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

async function newIndex(): Promise<string> {
  count++;
  const file = path.join(dir, `index-${count}.db`);
  const store = new SqliteStore({ path: file });
  await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
  await store.close();
  return file;
}

function setLock(file: string, row: { pid: number; host?: string; processStart?: string | null; acquiredAt?: number }): void {
  const raw = new Database(file);
  raw
    .prepare(
      `INSERT OR REPLACE INTO writer_lock (id, token, pid, host, process_start, acquired_at) VALUES (1, 'left-behind', ?, ?, ?, ?)`,
    )
    .run(row.pid, row.host ?? hostname(), row.processStart ?? null, row.acquiredAt ?? 0);
  raw.close();
}

const lockRows = (file: string): unknown[] => {
  const raw = new Database(file, { readonly: true });
  const rows = raw.prepare('SELECT pid, host FROM writer_lock').all();
  raw.close();
  return rows;
};

/** A pid that no process has now: one of a child that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('the writer lock', () => {
  it('is held while a store is open and given back on close; a second writer in the same process is refused', async () => {
    const file = await newIndex();
    const first = new SqliteStore({ path: file });
    expect(lockRows(file)).toEqual([{ pid: process.pid, host: hostname() }]);
    expect(() => new SqliteStore({ path: file })).toThrow(
      expect.objectContaining({
        code: 'ERR_STORE_LOCKED',
        message: expect.stringMatching(new RegExp(`: this process \\(pid ${process.pid}\\) on host .+, since \\d{4}-`)),
      }),
    );
    await first.close();
    expect(lockRows(file)).toEqual([]);
    const second = new SqliteStore({ path: file });
    expect(second.lockTakenOverFrom).toBeUndefined();
    await second.close();
  });

  it('a lock of a process on this host that no longer runs is taken over, and says whose it was', async () => {
    const file = await newIndex();
    const pid = deadPid();
    setLock(file, { pid, acquiredAt: 1234 });
    const store = new SqliteStore({ path: file });
    expect(store.lockTakenOverFrom).toEqual({ pid, host: hostname(), since: 1234 });
    expect(lockRows(file)).toEqual([{ pid: process.pid, host: hostname() }]);
    await store.close();
  });

  it('a lock whose pid now names a process started later (the pid was reused) is taken over', async () => {
    const file = await newIndex();
    let ownStart: string | undefined;
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      ownStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    } catch {
      return; // no /proc here: only the pid is checked
    }
    // The parent of this process runs, but did not start at this time.
    setLock(file, { pid: process.ppid, processStart: `${ownStart}0` });
    const store = new SqliteStore({ path: file });
    expect(store.lockTakenOverFrom?.pid).toBe(process.ppid);
    await store.close();
  });

  it('a lock of a running process is kept: of this host, or of another host (which cannot be checked)', async () => {
    const file = await newIndex();
    setLock(file, { pid: process.ppid, acquiredAt: Date.UTC(2025, 0, 2, 3, 4, 5) });
    expect(() => new SqliteStore({ path: file })).toThrow(
      `the index ${file} is being written by another crawl (ERR_STORE_LOCKED): pid ${process.ppid} on host ${hostname()}, since 2025-01-02T03:04:05.000Z; one writer per index`,
    );
    setLock(file, { pid: deadPid(), host: 'elsewhere.example' });
    expect(() => new SqliteStore({ path: file })).toThrow(expect.objectContaining({ code: 'ERR_STORE_LOCKED', message: expect.stringContaining('on host elsewhere.example') }));
  });

  it('a refused writer leaves the holder its claims; a reader takes no lock and requeues nothing', async () => {
    const file = await newIndex();
    const crawler = new SqliteStore({ path: file });
    expect(await crawler.claim(1)).toHaveLength(1);
    await crawler.flush();
    expect(() => new SqliteStore({ path: file })).toThrow(expect.objectContaining({ code: 'ERR_STORE_LOCKED' }));
    const reader = new SqliteStore({ path: file, readOnly: true });
    expect((await reader.stats()).urlsByState.fetching).toBe(1);
    await reader.close();
    expect(lockRows(file)).toEqual([{ pid: process.pid, host: hostname() }]);
    await crawler.close();
  });

  it('a store of this process that was never closed leaves a lock the next open takes over (its claims are requeued)', async () => {
    const file = await newIndex();
    setLock(file, { pid: process.pid });
    const raw = new Database(file);
    raw.exec(`UPDATE url SET state = 'fetching'`);
    raw.close();
    const store = new SqliteStore({ path: file });
    expect(store.lockTakenOverFrom?.pid).toBe(process.pid);
    expect((await store.stats()).urlsByState).toMatchObject({ fetching: 0, queued: 1 });
    await store.close();
  });
});
