// The polite second pass (`secondPass`): external links whose answer this run left
// unverified (a timeout, a refused connection, 5xx, 429, a bot wall) are asked once
// more when the frontier is empty — after a wait, so that a host that was busy or
// restarting has time to come back — and their new answer replaces the first.
// Once per URL per run; an answer taken from the verdict cache is never re-asked.

import type { Verdict } from './verdict.js';
import type { FetchMethod } from '../store/index.js';
import { retryDelayMs, MAX_RETRY_DELAY_MS } from './outcome-table.js';

/** The wait before the second pass when no answer sent `Retry-After`. */
export const SECOND_PASS_DEFAULT_WAIT_MS = 5000;

/** What a URL's first answer added to the tally: taken back when its second answer is recorded. */
export interface CountedAnswer {
  /** Recorded `failed` (no usable response), else `done`. */
  readonly isFailed: boolean;
  /** `errorCodeOf` of the answer. */
  readonly error: string | undefined;
  /** The URL's own request was redirected. */
  readonly isRedirected: boolean;
  /** Counted in `externalChecked` (a request of its own, or its host's robots.txt, got no answer). */
  readonly isChecked: boolean;
  /** Counted in `notCheckedByRobots` (its host's robots.txt answered 5xx or 429). */
  readonly isNotCheckedByRobots: boolean;
  /** The verdict recorded on its fetch row: an unverified first answer is asked again. */
  readonly verdict: Verdict | undefined;
}

/** An external URL's answer as the pipeline recorded it. */
export interface ExternalAnswer extends CountedAnswer {
  readonly id: number;
  readonly key: string;
  readonly origin: string | undefined;
  readonly status: number | undefined;
  readonly errorCode: string | undefined;
  /** The method of the request that gave it: the second pass asks with it (GET after a HEAD that failed). */
  readonly method: FetchMethod | undefined;
  /** The attempts it took: the second pass's request is the next one. */
  readonly attempts: number;
  readonly retryAfter: string | undefined;
}

/** The URLs the second pass asks again, and how long it waits first. */
export interface SecondPassWave {
  readonly ids: readonly number[];
  readonly waitMs: number;
}

interface Candidate {
  readonly answer: ExternalAnswer;
  /** When its `Retry-After` allows asking again (Unix ms); `undefined`: it sent none. */
  readonly notBefore: number | undefined;
}

export class SecondPass {
  readonly #now: () => number;
  /** Unverified answers of this run, waiting for the second pass. */
  readonly #candidates = new Map<number, Candidate>();
  /** URLs the second pass asks (or asked): never a third time. */
  readonly #asking = new Map<number, ExternalAnswer>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Whether `id` is being asked by the second pass (it gets no retries of its own). */
  isAsking(id: number): boolean {
    return this.#asking.has(id);
  }

  /** The method its first answer came with, for the second pass's request. */
  methodOf(id: number): FetchMethod | undefined {
    return this.#asking.get(id)?.method;
  }

  /** The attempt number of its second-pass request (after the first answer's attempts). */
  attemptOf(id: number): number | undefined {
    const first = this.#asking.get(id);
    return first === undefined ? undefined : first.attempts + 1;
  }

  /**
   * An external URL's answer was recorded. A first answer that is unverified becomes a
   * candidate; a second-pass answer resolves with what the first one counted, to be
   * taken back from the tally (the URL is counted once, with its last answer).
   */
  answered(answer: ExternalAnswer): CountedAnswer | undefined {
    const first = this.#asking.get(answer.id);
    if (first !== undefined) return first;
    if (answer.verdict !== 'unverified') return undefined;
    const now = this.#now();
    const notBefore = answer.retryAfter === undefined ? undefined : now + retryDelayMs(1, 0, answer.retryAfter, now);
    this.#candidates.set(answer.id, { answer, notBefore });
    return undefined;
  }

  /**
   * The candidates to ask now (at most `limit`, none of a host `isPaused`), moved out
   * of the candidates: the wait is the latest `Retry-After` they sent (RFC 9110 §10.2.3),
   * at most `MAX_RETRY_DELAY_MS`, else `SECOND_PASS_DEFAULT_WAIT_MS`.
   */
  takeWave(limit: number, isPaused: (origin: string | undefined) => boolean): SecondPassWave {
    const ids: number[] = [];
    let notBefore: number | undefined;
    for (const [id, candidate] of this.#candidates) {
      if (ids.length >= limit) break;
      this.#candidates.delete(id);
      // Its host did not answer requests in a row: paused for the run, not asked again.
      if (isPaused(candidate.answer.origin)) continue;
      ids.push(id);
      this.#asking.set(id, candidate.answer);
      if (candidate.notBefore !== undefined) notBefore = Math.max(notBefore ?? 0, candidate.notBefore);
    }
    const waitMs = notBefore === undefined ? SECOND_PASS_DEFAULT_WAIT_MS : Math.min(MAX_RETRY_DELAY_MS, Math.max(0, notBefore - this.#now()));
    return { ids, waitMs };
  }

  /** A URL taken for the second pass went back unasked (the crawl stopped): it does not count as asked. */
  forget(id: number): void {
    this.#asking.delete(id);
  }
}
