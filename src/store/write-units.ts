// Units of work on an index, one at a time, committed in groups.
// A unit is all or nothing: it runs inside a savepoint, and a unit that throws
// leaves nothing behind. A group is one transaction holding many units: it is
// committed once it holds `maxLinks` links, has been open `maxMs`, or no unit
// came for `idleMs` (so a slow crawl does not hold the write lock), or on
// flush(). A fast crawl thus pays one commit per thousand links, not per page;
// a process killed before a commit loses only the uncommitted units, whose
// claims the index puts back on the frontier when it is opened again.

import { StoreError } from '../errors.js';

/** How a store opens, nests and ends transactions. */
export interface TransactionSteps {
  /** Open the group's transaction (and catch up with other writers). */
  begin(): void;
  savepoint(): void;
  release(): void;
  /** Undo the unit since its savepoint; the store drops what it mirrors in memory. */
  rollbackUnit(): void;
  commit(): void;
  /** Undo the whole group after a failed commit. */
  rollbackGroup(): void;
}

export interface GroupCommitOptions {
  /**
   * Commit once the open group holds this many links.
   * @default 1000
   */
  readonly maxLinks?: number | undefined;
  /**
   * Commit once the open group has been open this long (ms).
   * @default 50
   */
  readonly maxMs?: number | undefined;
  /**
   * Commit once no unit has come for this long (ms).
   * @default 5
   */
  readonly idleMs?: number | undefined;
}

export const GROUP_COMMIT_DEFAULTS = Object.freeze({ maxLinks: 1000, maxMs: 50, idleMs: 5 });

export class WriteUnits {
  readonly #steps: TransactionSteps;
  readonly #maxLinks: number;
  readonly #maxMs: number;
  readonly #idleMs: number;
  #tail: Promise<unknown> = Promise.resolve();
  #isOpen = false;
  #links = 0;
  #timer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  /** A commit failed: the units of its group are lost, and so is every later write. */
  #failure: unknown;
  /** A call of the running unit failed: the unit is rolled back even if its work goes on. */
  #unitFailure: { readonly error: unknown } | undefined;

  constructor(steps: TransactionSteps, options?: GroupCommitOptions) {
    this.#steps = steps;
    this.#maxLinks = options?.maxLinks ?? GROUP_COMMIT_DEFAULTS.maxLinks;
    this.#maxMs = options?.maxMs ?? GROUP_COMMIT_DEFAULTS.maxMs;
    this.#idleMs = Math.min(options?.idleMs ?? GROUP_COMMIT_DEFAULTS.idleMs, this.#maxMs);
  }

  /** Run `work` as one unit, after the units before it. Resolves when it has run (not yet committed). */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    return this.#enqueue(async () => {
      this.#open();
      this.#steps.savepoint();
      this.#unitFailure = undefined;
      let value: T;
      try {
        value = await work();
        // (Set by failUnit while the work ran: the compiler cannot see that.)
        const failed = this.#unitFailure as { readonly error: unknown } | undefined;
        if (failed !== undefined) throw failed.error;
      } catch (error) {
        this.#unitFailure = undefined;
        this.#steps.rollbackUnit();
        throw error;
      }
      this.#steps.release();
      if (this.#links >= this.#maxLinks) this.#commit();
      else this.#idleTimer?.refresh();
      return value;
    });
  }

  /**
   * A call of the running unit failed part way: the whole unit is rolled back
   * (with this error) even if its work catches it, so no call is half recorded.
   */
  failUnit(error: unknown): void {
    this.#unitFailure ??= { error };
  }

  /** Count links written by the running unit (they make the group due). */
  addLinks(count: number): void {
    this.#links += count;
  }

  /** Commit what the open group holds. Rejects when that (or an earlier) commit failed. */
  flush(): Promise<void> {
    return this.#enqueue(() => this.#commit());
  }

  /** Whether a group is open (writes not yet committed). */
  get isOpen(): boolean {
    return this.#isOpen;
  }

  #enqueue<T>(step: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(() => {
      if (this.#failure !== undefined) throw failedBefore(this.#failure);
      return step();
    });
    this.#tail = result.catch(() => {});
    return result;
  }

  #open(): void {
    if (this.#isOpen) return;
    this.#steps.begin();
    this.#isOpen = true;
    this.#links = 0;
    const commitSoon = (): void => void this.flush().catch(() => {});
    this.#timer = setTimeout(commitSoon, this.#maxMs);
    this.#idleTimer = setTimeout(commitSoon, this.#idleMs);
    this.#timer.unref?.();
    this.#idleTimer.unref?.();
  }

  #commit(): void {
    if (!this.#isOpen) return;
    clearTimeout(this.#timer);
    clearTimeout(this.#idleTimer);
    this.#isOpen = false;
    try {
      this.#steps.commit();
    } catch (error) {
      this.#failure = error;
      try {
        this.#steps.rollbackGroup();
      } catch {
        // The transaction may be gone already (SQLite rolls back on some errors).
      }
      throw error;
    }
  }
}

function failedBefore(cause: unknown): StoreError {
  const what = cause instanceof Error ? cause.message : String(cause);
  return new StoreError('ERR_STORE_WRITE_FAILED', `an earlier commit of the index failed: ${what}`, { cause });
}

/** A synchronous step as a promise: its value, or its error as a rejection. */
export function settled<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (error) {
    return Promise.reject(error);
  }
}
