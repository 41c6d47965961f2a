// Politeness: a "host ready at" schedule in front of one p-queue. The p-queue runs
// tasks with the global concurrency; a task reaches it only when its host has a
// free slot (perHostConcurrency) and its delay since the host's last start has
// passed, so a slow or delayed host never holds a global slot while it waits.

import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';

/** How a task ended, for its host's schedule. */
export type TaskResult =
  /** It made its request (or tried to): the host's delay stands. */
  | { readonly kind: 'done' }
  /** It made no request (robots.txt said no, or the URL was settled meanwhile): the delay it reserved is given back. */
  | { readonly kind: 'refund' }
  /** Try it again in `afterMs`; the host waits that long too (backoff). */
  | { readonly kind: 'retry'; readonly afterMs: number };

export interface HostSchedulerOptions<T> {
  readonly concurrency: number;
  readonly perHostConcurrency: number;
  /**
   * Whether a host is answered without a network (a folder on disk): only the global
   * limit holds it, no per-host one. Asked once per host line.
   * @default () => false
   */
  readonly isLocalHost?: (host: string, item: T) => boolean;
  /** The least time between two starts on `host`, read at each start (robots.txt may raise it). */
  readonly delayMs: (host: string, item: T) => number;
  readonly now: () => number;
  /**
   * Until when no task may start on `host`, whatever its own schedule says (a
   * `Retry-After` pause, host-pace.ts); read at each pump, so a pause set while the
   * host's tasks were in flight holds the ones waiting.
   * @default () => -Infinity
   */
  readonly pausedUntil?: (host: string) => number;
  /**
   * Whether `host`'s pace is known (its robots.txt answered, and a Crawl-delay it gives
   * held): until it is, one task at a time runs on the host, so that no second request
   * starts before its Crawl-delay (a non-standard line, RFC 9309 §2.2.4) is known. Read at each pump: call `hold`, then pump,
   * once it is known.
   * @default () => true
   */
  readonly isPaceKnown?: (host: string, item: T) => boolean;
  /** Runs one task. It must not reject: the scheduler would stop. */
  readonly run: (item: T) => Promise<TaskResult>;
  /** Called after a task ended and its host's schedule was updated. */
  readonly onSettled: (item: T, result: TaskResult) => void;
  /** Called with a retried item before it goes back to its host's line. */
  readonly onRetry: (item: T) => T;
  /** Called if running a task or its bookkeeping threw (a bug): the caller should stop. */
  readonly onError: (error: unknown) => void;
}

interface HostLine<T> {
  readonly pending: T[];
  /** Its concurrency: perHostConcurrency, or the global one for a local host. */
  readonly concurrency: number;
  inFlight: number;
  /** Earliest time the next task may start. */
  readyAt: number;
  /** Bumped at each start, so a refund only undoes the reservation it made. */
  starts: number;
}

export class HostScheduler<T> {
  readonly #options: HostSchedulerOptions<T>;
  readonly #queue: PQueue;
  readonly #hosts = new Map<string, HostLine<T>>();
  #pending = 0;
  #inFlight = 0;

  constructor(options: HostSchedulerOptions<T>) {
    this.#options = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
  }

  /** Tasks waiting for their host (or the global limit). */
  get pending(): number {
    return this.#pending;
  }

  /** Tasks running. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Add a task for `host`, behind the ones already waiting there (or in front, for a retry). */
  push(host: string, item: T, isFirst = false): void {
    const line = this.#line(host, item);
    if (isFirst) line.pending.unshift(item);
    else line.pending.push(item);
    this.#pending++;
  }

  /**
   * A request made outside the queue (a sitemap, read before the loop) takes its turn
   * on `host`: it waits until the host is ready, then holds the host for `delayMs` as a
   * task's start does. Resolves early when `signal` aborts.
   */
  async takeTurn(host: string, delayMs: number, signal: AbortSignal): Promise<void> {
    const line = this.#line(host);
    const wait = this.#readyAt(host, line) - this.#options.now();
    if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
    line.readyAt = this.#options.now() + delayMs;
  }

  /**
   * A task of `host` is about to make its request now (its pace just learned): the
   * host's next start waits `delayMs` from now. A refund of that task gives it back.
   */
  hold(host: string, delayMs: number): void {
    const line = this.#hosts.get(host);
    if (line !== undefined) line.readyAt = Math.max(line.readyAt, this.#options.now() + delayMs);
  }

  /** Remove every waiting task and return them (the crawl is stopping). */
  drain(): T[] {
    const items: T[] = [];
    for (const line of this.#hosts.values()) items.push(...line.pending.splice(0));
    this.#pending = 0;
    return items;
  }

  /**
   * Start every task that may start now, hosts taken in turn. Returns the ms until
   * the next delayed host becomes ready, when some task waits only on a delay.
   */
  pump(): number | undefined {
    const now = this.#options.now();
    let wait: number | undefined;
    let isStarting = true;
    // One task per host per round, so that one host's long line does not starve the others.
    while (isStarting && this.#inFlight < this.#options.concurrency) {
      isStarting = false;
      for (const [host, line] of this.#hosts) {
        if (this.#inFlight >= this.#options.concurrency) break;
        if (line.pending.length === 0) {
          if (line.inFlight === 0 && line.readyAt <= now) this.#hosts.delete(host);
          continue;
        }
        if (line.inFlight >= (this.#options.isPaceKnown?.(host, line.pending[0]!) === false ? 1 : line.concurrency)) continue;
        const readyAt = this.#readyAt(host, line);
        if (readyAt > now) {
          wait = Math.min(wait ?? Infinity, readyAt - now);
          continue;
        }
        this.#start(host, line, now);
        isStarting = true;
      }
    }
    return wait;
  }

  /** Resolves when no task runs. */
  onIdle(): Promise<void> {
    return this.#queue.onIdle();
  }

  #readyAt(host: string, line: HostLine<T>): number {
    const paused = this.#options.pausedUntil?.(host);
    return paused === undefined ? line.readyAt : Math.max(line.readyAt, paused);
  }

  #line(host: string, item?: T): HostLine<T> {
    let line = this.#hosts.get(host);
    if (line === undefined) {
      const isLocal = item !== undefined && this.#options.isLocalHost?.(host, item) === true;
      const concurrency = isLocal ? this.#options.concurrency : this.#options.perHostConcurrency;
      line = { pending: [], concurrency, inFlight: 0, readyAt: -Infinity, starts: 0 };
      this.#hosts.set(host, line);
    }
    return line;
  }

  #start(host: string, line: HostLine<T>, now: number): void {
    const item = line.pending.shift()!;
    this.#pending--;
    line.inFlight++;
    this.#inFlight++;
    const before = line.readyAt;
    line.readyAt = now + this.#options.delayMs(host, item);
    const start = ++line.starts;
    void this.#queue.add(async () => {
      const result = await this.#options.run(item);
      line.inFlight--;
      this.#inFlight--;
      if (result.kind === 'refund') {
        if (line.starts === start) line.readyAt = before;
      } else {
        // robots.txt may have told the host's Crawl-delay only during this task.
        line.readyAt = Math.max(line.readyAt, now + this.#options.delayMs(host, item));
      }
      if (result.kind === 'retry') {
        line.readyAt = Math.max(line.readyAt, this.#options.now() + result.afterMs);
        // The line may have been dropped while empty: push re-creates it.
        if (this.#hosts.get(host) !== line) this.#hosts.set(host, line);
        this.push(host, this.#options.onRetry(item), true);
      }
      this.#options.onSettled(item, result);
    }).catch(this.#options.onError);
  }
}
