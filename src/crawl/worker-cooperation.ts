// What one worker of a shared crawl tells the others through the index's
// shared frontier: the politeness its claims keep, the Crawl-delay robots.txt gave a
// host, and its progress (about every second, and at the end). The loop asks it
// whether a claim that gave nothing means the crawl is over.

import type { FrontierIdle, SharedFrontier } from '../store/index.js';
import type { CrawlTally } from './crawl-tally.js';

export interface WorkerCooperationOptions {
  readonly shared: SharedFrontier;
  readonly tally: CrawlTally;
  readonly perHostConcurrency: number;
  readonly perHostDelayMs: number;
  /** The longest delay a host gets (a robots.txt Crawl-delay is honoured up to it). */
  readonly maxHostDelayMs: number;
  readonly now: () => number;
  /** A write to the index failed: the crawl stops. */
  readonly fail: (error: unknown) => void;
}

/**
 * A claim that gave less than it asked (hosts at their limit, or waiting on a delay)
 * while this worker has requests in flight is made again this soon, even when none of
 * them ends to trigger one.
 */
export const CLAIM_POLL_MS = 100;

/** How often the worker's counts are written. */
export const PROGRESS_EVERY_MS = 1000;

export class WorkerCooperation {
  readonly #o: WorkerCooperationOptions;
  /** The delay each host was given, by this worker (each raised once). */
  readonly #hostDelays = new Map<string, number>();
  #reportedAt: number;
  #reporting: Promise<void> | undefined;

  constructor(options: WorkerCooperationOptions) {
    this.#o = options;
    this.#reportedAt = options.now();
    options.shared.setPoliteness({ perHostConcurrency: options.perHostConcurrency, perHostDelayMs: options.perHostDelayMs });
  }

  /**
   * robots.txt told `host`'s Crawl-delay (or nothing): every worker keeps it from their
   * next claim. Resolves once the index holds it (a claim made after that keeps it).
   */
  async crawlDelayLearned(host: string, crawlDelayMs: number | undefined): Promise<void> {
    if (crawlDelayMs === undefined || crawlDelayMs <= this.#o.perHostDelayMs) return;
    const delayMs = Math.min(this.#o.maxHostDelayMs, crawlDelayMs);
    if ((this.#hostDelays.get(host) ?? 0) >= delayMs) return;
    this.#hostDelays.set(host, delayMs);
    await this.#o.shared.setHostDelay(host, delayMs).catch(this.#o.fail);
  }

  /** A claim gave nothing: whether the crawl is over, or when to claim again. */
  whenIdle(): Promise<FrontierIdle> {
    return this.#o.shared.whenIdle();
  }

  /** Write this worker's counts when a second has passed since the last time. */
  maybeReport(inFlight: number): void {
    if (this.#reporting !== undefined || this.#o.now() - this.#reportedAt < PROGRESS_EVERY_MS) return;
    this.#reporting = this.#report(inFlight)
      .catch(this.#o.fail)
      .finally(() => {
        this.#reporting = undefined;
      });
  }

  /** Write the counts as the run ends. */
  async finalReport(): Promise<void> {
    await this.#reporting;
    await this.#report(0);
  }

  async #report(inFlight: number): Promise<void> {
    this.#reportedAt = this.#o.now();
    const t = this.#o.tally;
    await this.#o.shared.reportProgress({
      requests: t.requests,
      fetched: t.fetched,
      failed: t.failed,
      links: t.links,
      queued: t.queued,
      fetchesSaved: t.fetchesSaved,
      inFlight,
    });
  }
}
