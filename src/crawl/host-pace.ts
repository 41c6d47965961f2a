// Politeness that adapts to what a host says. A 429 or a 503 with
// `Retry-After` pauses the whole host — no new request to it, from any task, until
// then — not just the URL that got it; each 429 doubles the host's own least delay
// between two requests (its rate halves), and each run of RECOVER_AFTER answers in a
// row without one halves it back toward the configured delay (AIMD-like: quick to
// back off, slow to come back). One object per crawl process, asked by the host
// scheduler at each start; its figures are those of the responses the server sent.

import { MAX_RETRY_DELAY_MS, retryAfterMs } from './outcome-table.js';

/** The least delay a 429 sets when the host had none: one request a second. */
export const MIN_PENALTY_MS = 1000;
/** The largest delay repeated 429s set: one request a minute (as a `Retry-After` is capped). */
export const MAX_PENALTY_MS = 60_000;
/** Answers in a row without a 429 that halve the delay again. */
export const RECOVER_AFTER = 10;

/** What politeness did to one host during the run: the summary's `politeness` line. */
export interface HostPaceReport {
  /** The host as the scheduler knows it (its name, every port together). */
  readonly host: string;
  /** Responses whose `Retry-After` (a 429 or a 503) paused the host. */
  readonly pauses: number;
  /** The longest pause one asked for, in ms (at most MAX_RETRY_DELAY_MS). */
  readonly longestPauseMs: number;
  /** 429 responses the host sent. */
  readonly tooManyRequests: number;
  /** The longest delay between two requests the 429s set, in ms (the lowest rate); 0 when none did. */
  readonly slowestDelayMs: number;
  /** The delay the 429s left at the end, in ms (0: back to the configured one). */
  readonly delayMs: number;
}

/** A host paused now, for the progress line. */
export interface PausedHost {
  readonly host: string;
  readonly remainingMs: number;
}

/** A host whose rate is lowered now, for the progress line. */
export interface SlowedHost {
  readonly host: string;
  readonly delayMs: number;
}

interface Pace {
  pausedUntil: number;
  pauses: number;
  longestPauseMs: number;
  tooManyRequests: number;
  /** The delay the 429s set (0: none). */
  penaltyMs: number;
  slowestDelayMs: number;
  /** Answers without a 429 since the last 429 or halving. */
  streak: number;
}

export class HostPace {
  readonly #now: () => number;
  readonly #hosts = new Map<string, Pace>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * A response from `host` (its status, `undefined` when none came, and its
   * `Retry-After`): a 429 or 503 with one pauses the host (RFC 9110 §10.2.3, RFC 6585
   * §4), a 429 doubles its delay, any other answer counts toward its recovery.
   */
  answered(host: string, status: number | undefined, retryAfter: string | undefined): void {
    if (status === undefined) return;
    const isTooMany = status === 429;
    const askedMs = isTooMany || status === 503 ? retryAfterMs(retryAfter, this.#now()) : undefined;
    // A date past, or 0, asks for no pause.
    const pauseMs = askedMs !== undefined && askedMs > 0 ? Math.min(askedMs, MAX_RETRY_DELAY_MS) : undefined;
    let pace = this.#hosts.get(host);
    if (pace === undefined) {
      if (!isTooMany && pauseMs === undefined) return;
      pace = { pausedUntil: -Infinity, pauses: 0, longestPauseMs: 0, tooManyRequests: 0, penaltyMs: 0, slowestDelayMs: 0, streak: 0 };
      this.#hosts.set(host, pace);
    }
    if (pauseMs !== undefined) {
      pace.pauses++;
      pace.longestPauseMs = Math.max(pace.longestPauseMs, pauseMs);
      pace.pausedUntil = Math.max(pace.pausedUntil, this.#now() + pauseMs);
    }
    if (isTooMany) {
      pace.tooManyRequests++;
      pace.streak = 0;
      pace.penaltyMs = Math.min(MAX_PENALTY_MS, Math.max(MIN_PENALTY_MS, pace.penaltyMs * 2));
      pace.slowestDelayMs = Math.max(pace.slowestDelayMs, pace.penaltyMs);
    } else if (pauseMs === undefined && pace.penaltyMs > 0 && ++pace.streak >= RECOVER_AFTER) {
      pace.streak = 0;
      pace.penaltyMs = pace.penaltyMs / 2 < MIN_PENALTY_MS ? 0 : pace.penaltyMs / 2;
    }
  }

  /** Until when no request may start on `host` (`-Infinity`: not paused). */
  pausedUntil(host: string): number {
    return this.#hosts.get(host)?.pausedUntil ?? -Infinity;
  }

  /** The least time between two starts on `host`: `baseMs` (the configured delay, or Crawl-delay), or more after 429s. */
  delayMs(host: string, baseMs: number): number {
    return Math.max(baseMs, this.#hosts.get(host)?.penaltyMs ?? 0);
  }

  /** Hosts paused now, with the time left. */
  paused(): PausedHost[] {
    const now = this.#now();
    const hosts: PausedHost[] = [];
    for (const [host, pace] of this.#hosts) if (pace.pausedUntil > now) hosts.push({ host, remainingMs: pace.pausedUntil - now });
    return hosts;
  }

  /** Hosts whose delay the 429s raised, now. */
  slowed(): SlowedHost[] {
    const hosts: SlowedHost[] = [];
    for (const [host, pace] of this.#hosts) if (pace.penaltyMs > 0) hosts.push({ host, delayMs: pace.penaltyMs });
    return hosts;
  }

  /** Every host a pause or a 429 touched, by name. */
  report(): HostPaceReport[] {
    return [...this.#hosts]
      .map(([host, p]) => ({ host, pauses: p.pauses, longestPauseMs: p.longestPauseMs, tooManyRequests: p.tooManyRequests, slowestDelayMs: p.slowestDelayMs, delayMs: p.penaltyMs }))
      .sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  }
}
