// Pages read on the other cores: a pool of worker threads (parse-worker.ts), each
// extracting and resolving the references of the pages it is sent, while the main
// thread admits what earlier pages gave into the index (the store has one writer).
// What a worker gives is what the main thread would have computed (page-reading.ts);
// a page the pool cannot read — no worker script, a worker that died or stopped
// answering — is answered `undefined`, and the caller reads it in its own thread as
// it would without a pool: nothing is lost, and nothing waits on a dead worker.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PackedReading, PageReadRequest } from './page-reading.js';
import type { ParseAnswer, ParseJob } from './parse-worker.js';

export interface ParsePoolOptions {
  /** Worker threads at most (started when the first page comes); 0: none (every page is read by the caller). */
  readonly threads: number;
  /**
   * Pages shorter than this (UTF-16 code units) are left to the caller: sending
   * them costs more than reading them.
   * @default PARSE_POOL_DEFAULTS.minLength
   */
  readonly minLength?: number | undefined;
  /**
   * A worker with pages to read that answers none for this long is taken for hung:
   * it is stopped, its pages are left to the caller, and another takes its place.
   * @default PARSE_POOL_DEFAULTS.hangMs
   */
  readonly hangMs?: number | undefined;
  /**
   * The worker script.
   * @default `./parse-worker.js` beside this module (the built one, or the bundle's copy)
   */
  readonly workerUrl?: URL | undefined;
}

export const PARSE_POOL_DEFAULTS = Object.freeze({
  /**
   * A page of 2 KiB reads in ~0.1 ms; handing it over costs the main thread a few
   * µs (measured: bench/crawl-page-reading.bench.ts).
   */
  minLength: 2 * 1024,
  /** A page of 10 MiB (the body cap) reads in well under a second; a loaded machine may take ten times that. */
  hangMs: 30_000,
  /** Workers that die before their first answer: past this the pool stops starting them. */
  maxStartFailures: 3,
});

interface Pending {
  readonly resolve: (packed: PackedReading | undefined) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  hasAnswered: boolean;
  /** Its script has loaded: the hang clock runs only from then (starting may be slow on a loaded machine). */
  isOnline: boolean;
  /** Set while pages are pending: fires when none was answered for `hangMs`. */
  watchdog: NodeJS.Timeout | undefined;
}

/** What the pool did: pages sent to a worker, and those left to the caller after a worker failed. */
export interface ParsePoolStats {
  readonly sent: number;
  readonly fellBack: number;
  readonly workersLost: number;
}

export class ParsePool {
  readonly #threads: number;
  readonly #minLength: number;
  readonly #hangMs: number;
  readonly #workerUrl: URL;
  readonly #workers: PoolWorker[] = [];
  #isOff: boolean;
  #nextId = 0;
  #startFailures = 0;
  #sent = 0;
  #fellBack = 0;
  #workersLost = 0;

  constructor(options: ParsePoolOptions) {
    this.#threads = options.threads;
    this.#minLength = options.minLength ?? PARSE_POOL_DEFAULTS.minLength;
    this.#hangMs = options.hangMs ?? PARSE_POOL_DEFAULTS.hangMs;
    this.#workerUrl = options.workerUrl ?? new URL('./parse-worker.js', import.meta.url);
    // Run from the TypeScript sources (tests), there is no worker script: pages are read in-thread.
    this.#isOff = this.#threads <= 0 || !existsSync(fileURLToPath(this.#workerUrl));
  }

  /** Whether a page of this length would go to a worker. */
  takes(length: number): boolean {
    return !this.#isOff && length >= this.#minLength;
  }

  /**
   * The page read by a worker, or `undefined`: the caller reads it (the pool is off,
   * the page is short, or its worker failed).
   */
  read(request: PageReadRequest): Promise<PackedReading | undefined> {
    if (!this.takes(request.body.length)) return Promise.resolve(undefined);
    const slot = this.#pick();
    if (slot === undefined) return Promise.resolve(undefined);
    const id = this.#nextId++;
    this.#sent++;
    return new Promise((resolve) => {
      slot.pending.set(id, { resolve });
      if (slot.isOnline) slot.watchdog ??= this.#watch(slot);
      slot.worker.postMessage({ id, request } satisfies ParseJob);
    });
  }

  stats(): ParsePoolStats {
    return { sent: this.#sent, fellBack: this.#fellBack, workersLost: this.#workersLost };
  }

  /** Stop the workers; pages still pending are left to their callers. */
  async close(): Promise<void> {
    this.#isOff = true;
    const workers = this.#workers.splice(0);
    for (const slot of workers) this.#release(slot);
    await Promise.all(workers.map((slot) => slot.worker.terminate()));
  }

  // The worker with the fewest pages pending; a new one while there are fewer than `threads` and all are busy.
  #pick(): PoolWorker | undefined {
    let best: PoolWorker | undefined;
    for (const slot of this.#workers) if (best === undefined || slot.pending.size < best.pending.size) best = slot;
    if ((best === undefined || best.pending.size > 0) && this.#workers.length < this.#threads) return this.#start() ?? best;
    return best;
  }

  #start(): PoolWorker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(this.#workerUrl);
    } catch {
      this.#isOff = true;
      return undefined;
    }
    // Pages pending keep the process alive through their watchdogs, not the worker itself.
    worker.unref();
    const slot: PoolWorker = { worker, pending: new Map(), hasAnswered: false, isOnline: false, watchdog: undefined };
    worker.on('online', () => {
      slot.isOnline = true;
      if (slot.pending.size > 0) slot.watchdog ??= this.#watch(slot);
    });
    worker.on('message', (answer: ParseAnswer) => this.#answered(slot, answer));
    worker.on('error', () => this.#lose(slot));
    worker.on('exit', () => this.#lose(slot));
    this.#workers.push(slot);
    return slot;
  }

  #answered(slot: PoolWorker, answer: ParseAnswer): void {
    slot.hasAnswered = true;
    const pending = slot.pending.get(answer.id);
    if (pending === undefined) return;
    slot.pending.delete(answer.id);
    if (slot.pending.size === 0) {
      clearTimeout(slot.watchdog);
      slot.watchdog = undefined;
    } else slot.watchdog?.refresh();
    if ('error' in answer) {
      this.#fellBack++;
      pending.resolve(undefined);
    } else pending.resolve({ strings: answer.strings, ints: answer.ints, digest: answer.digest });
  }

  #watch(slot: PoolWorker): NodeJS.Timeout {
    return setTimeout(() => {
      this.#lose(slot);
      void slot.worker.terminate();
    }, this.#hangMs);
  }

  // A worker died, failed or hung: its pages go back to their callers, and the next page starts another.
  #lose(slot: PoolWorker): void {
    const at = this.#workers.indexOf(slot);
    if (at === -1) return;
    this.#workers.splice(at, 1);
    this.#workersLost++;
    if (!slot.hasAnswered && ++this.#startFailures >= PARSE_POOL_DEFAULTS.maxStartFailures) this.#isOff = true;
    this.#fellBack += slot.pending.size;
    this.#release(slot);
  }

  #release(slot: PoolWorker): void {
    clearTimeout(slot.watchdog);
    slot.watchdog = undefined;
    for (const pending of slot.pending.values()) pending.resolve(undefined);
    slot.pending.clear();
  }
}

/** The pool's default size: a thread per core beside the main thread's, at most 4. */
export function defaultParseThreads(cores: number): number {
  return Math.max(0, Math.min(4, cores - 1));
}
