// A worker whose PostgreSQL server went away (a restart, a failover, the network):
// each call that met the loss waits for the server to answer again, asking with
// backoff for a bounded time, and is then made again (when it may be); all calls wait
// on the one watch. Once the bound passed, the server is given up: every call after
// fails at once, so that the crawl ends with its summary instead of waiting again at
// each step of its end.

import { StoreError } from '../../errors.js';
import { isConnectionLost, type Sql } from './pg-database.js';

export interface ServerWaitOptions {
  /** How long to wait for the server to answer again before giving up. */
  readonly reconnectMs: number;
  /** The index as messages name it (no password). */
  readonly label: string;
}

/** The first pause between two attempts to reach the server, and the longest. */
const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 2000;

export class ServerWait {
  readonly #sql: Sql;
  readonly #reconnectMs: number;
  readonly #label: string;
  #isGivenUp = false;
  #watch: Promise<boolean> | undefined;

  constructor(sql: Sql, options: ServerWaitOptions) {
    this.#sql = sql;
    this.#reconnectMs = options.reconnectMs;
    this.#label = options.label;
  }

  /** Whether the server was given up (it did not answer within the bound). */
  get isGivenUp(): boolean {
    return this.#isGivenUp;
  }

  /**
   * Run `work`; when it fails because the server is gone, wait for the server and, if
   * `mayRepeat` says so, run it again. Throws what `work` threw when the server is not
   * back within the bound, or when `work` may not be repeated.
   */
  async run<T>(work: () => Promise<T>, mayRepeat: () => boolean = () => true): Promise<T> {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (!isConnectionLost(error)) throw error;
        if (!(await this.serverBack())) throw this.#gone(error);
        if (!mayRepeat()) throw error;
      }
    }
  }

  #gone(error: unknown): StoreError {
    let last = error;
    while (last instanceof StoreError && last.cause !== undefined) last = last.cause;
    const message = last instanceof Error ? last.message : String(last);
    return new StoreError('ERR_STORE_WRITE_FAILED', `the index at ${this.#label} did not answer again within ${Math.round(this.#reconnectMs / 1000)} s (${message})`, { cause: error });
  }

  /** Resolves true once the server answers again, false when it was given up. */
  serverBack(): Promise<boolean> {
    if (this.#isGivenUp) return Promise.resolve(false);
    this.#watch ??= this.#poll().finally(() => {
      this.#watch = undefined;
    });
    return this.#watch;
  }

  async #poll(): Promise<boolean> {
    const deadline = performance.now() + this.#reconnectMs;
    for (let pause = BACKOFF_FIRST_MS; ; pause = Math.min(BACKOFF_MAX_MS, pause * 2)) {
      try {
        await this.#sql`SELECT 1`;
        return true;
      } catch (error) {
        if (!isConnectionLost(error)) return true;
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        this.#isGivenUp = true;
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}
