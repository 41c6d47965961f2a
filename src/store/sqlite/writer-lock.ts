// One writer per index (two would interleave their units, and each would put the
// other's claims back on open): a row of `writer_lock` (migration 004)
// naming the process that writes, taken in an IMMEDIATE transaction so that two
// processes cannot both take it. A row left by a process that is gone is taken over.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Database as Db } from 'better-sqlite3';
import { StoreError } from '../../errors.js';

/** Who holds an index's writer lock. */
export interface WriterLockHolder {
  readonly pid: number;
  readonly host: string;
  /** When it took the lock (Unix ms). */
  readonly since: number;
}

interface LockRow {
  token: string;
  pid: number;
  host: string;
  process_start: string | null;
  acquired_at: number;
}

/** The locks this process holds, by token: a row of this pid with another token was left by a store not closed. */
const heldHere = new Set<string>();

/** How long closing waits for SQLite's write lock to give the row back (a writer that is gone is taken over anyway). */
const RELEASE_BUSY_MS = 1000;

export class WriterLock {
  readonly #db: Db;
  readonly #token: string;
  /** The holder whose lock was taken over (a process that is gone), if one was. */
  readonly takenOverFrom: WriterLockHolder | undefined;

  private constructor(db: Db, token: string, takenOverFrom: WriterLockHolder | undefined) {
    this.#db = db;
    this.#token = token;
    this.takenOverFrom = takenOverFrom;
  }

  /**
   * Take the lock of the index open in `db`, then run `andThen` in the same
   * transaction (the writer's first writes: claims a dead crawl left). Throws
   * ERR_STORE_LOCKED, naming the holder, when a running process holds it.
   */
  static acquire(db: Db, file: string, now: () => number, andThen: () => void = () => {}): WriterLock {
    const token = randomUUID();
    const takenOverFrom = db
      .transaction((): WriterLockHolder | undefined => {
        const row = db.prepare('SELECT token, pid, host, process_start, acquired_at FROM writer_lock WHERE id = 1').get() as LockRow | undefined;
        const holder = row === undefined ? undefined : { pid: row.pid, host: row.host, since: row.acquired_at };
        if (row !== undefined && !isGone(row)) throw locked(file, holder!);
        db.prepare(
          `INSERT INTO writer_lock (id, token, pid, host, process_start, acquired_at) VALUES (1, :token, :pid, :host, :processStart, :now)
           ON CONFLICT (id) DO UPDATE SET token = excluded.token, pid = excluded.pid, host = excluded.host,
             process_start = excluded.process_start, acquired_at = excluded.acquired_at`,
        ).run({ token, pid: process.pid, host: hostname(), processStart: processStart(process.pid) ?? null, now: now() });
        andThen();
        return holder;
      })
      .immediate();
    heldHere.add(token);
    return new WriterLock(db, token, takenOverFrom);
  }

  /**
   * Remove the lock of the index open in `db`, whoever wrote it, and return its
   * holder (`undefined`: there was none). The lock of a process still running on
   * this host is kept (ERR_STORE_LOCKED); one of another host cannot be checked, and
   * is removed: that is what this is for, a machine that crashed while it wrote.
   */
  static remove(db: Db, file: string): WriterLockHolder | undefined {
    return db
      .transaction((): WriterLockHolder | undefined => {
        const row = db.prepare('SELECT token, pid, host, process_start, acquired_at FROM writer_lock WHERE id = 1').get() as LockRow | undefined;
        if (row === undefined) return undefined;
        const holder = { pid: row.pid, host: row.host, since: row.acquired_at };
        if (row.host === hostname() && !isGone(row)) throw locked(file, holder);
        db.prepare('DELETE FROM writer_lock WHERE id = 1').run();
        return holder;
      })
      .immediate();
  }

  /** Give the lock back (best effort: a row left behind is taken over as a dead process's). */
  release(): void {
    heldHere.delete(this.#token);
    if (!this.#db.open) return;
    try {
      this.#db.pragma(`busy_timeout = ${RELEASE_BUSY_MS}`);
      this.#db.prepare('DELETE FROM writer_lock WHERE token = ?').run(this.#token);
    } catch {
      // locked by another connection or read-only now: the next writer finds this process gone
    }
  }
}

function locked(file: string, holder: WriterLockHolder): StoreError {
  const who = holder.pid === process.pid && holder.host === hostname() ? `this process (pid ${holder.pid})` : `pid ${holder.pid}`;
  return new StoreError(
    'ERR_STORE_LOCKED',
    `the index ${file} is being written by another crawl (ERR_STORE_LOCKED): ${who} on host ${holder.host}, since ${new Date(holder.since).toISOString()}; one writer per index` +
      // Only the holder's own host can tell whether it still runs.
      (holder.host === hostname() ? '' : ` (if that machine is down, \`linkladder db unlock --db ${file}\` removes its lock)`),
  );
}

/** Whether the holder of `row` is known to be gone; a holder on another host cannot be checked, and is not. */
function isGone(row: LockRow): boolean {
  if (row.host !== hostname()) return false;
  if (row.pid === process.pid) return !heldHere.has(row.token);
  const start = processStart(row.pid);
  if (!isProcessRunning(row.pid)) return true;
  // Linux: the pid now names another process (started later), or a zombie.
  if (start === 'zombie') return true;
  return row.process_start !== null && start !== undefined && start !== row.process_start;
}

/** Whether process `pid` runs on this machine (EPERM: it runs, as another user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of Linux's
 * /proc/<pid>/stat), 'zombie' for a process that has ended but is not reaped yet,
 * `undefined` where /proc cannot tell.
 */
function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return 'zombie';
  return fields[19];
}
