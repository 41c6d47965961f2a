// The clocks of one retrieval: the caller's abort, one deadline for the whole of it
// (every hop, connect to last body byte), and per hop, once its headers are in, a
// whole-body deadline and a minimum transfer rate. Each cuts the request with its
// own reason, which becomes the fetch's code.

import type { FetchErrorCode } from '../errors.js';

/** Why a request was cut before its end. */
export type CutReason = 'caller' | 'request-deadline' | 'body-deadline' | 'too-slow';

/** The fetch code of each reason. */
export const CUT_CODES: Readonly<Record<CutReason, FetchErrorCode>> = Object.freeze({
  caller: 'ERR_FETCH_ABORTED',
  'request-deadline': 'ERR_FETCH_REQUEST_TIMEOUT',
  'body-deadline': 'ERR_FETCH_BODY_TIMEOUT',
  'too-slow': 'ERR_FETCH_TOO_SLOW',
});

/** The reason a signal was aborted with, as an Error for whoever reads it. */
class CutError extends Error {
  readonly reason: CutReason;

  constructor(reason: CutReason) {
    super(`request cut: ${reason}`);
    this.name = 'CutError';
    this.reason = reason;
  }
}

/** A signal that remembers the first reason it was aborted for, and follows a parent. */
class CutSignal {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal | undefined;
  readonly #onParentAbort: () => void;
  readonly #timers: NodeJS.Timeout[] = [];
  #reason: CutReason | undefined;

  constructor(parent: AbortSignal | undefined, parentReason: () => CutReason) {
    this.#parent = parent;
    this.#onParentAbort = () => this.cut(parentReason());
    if (parent?.aborted === true) this.cut(parentReason());
    else parent?.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get reason(): CutReason | undefined {
    return this.#reason;
  }

  cut(reason: CutReason): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller.abort(new CutError(reason));
  }

  after(ms: number, reason: CutReason): void {
    this.#timers.push(setTimeout(() => this.cut(reason), ms));
  }

  every(ms: number, tick: () => void): void {
    this.#timers.push(setInterval(tick, ms));
  }

  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#parent?.removeEventListener('abort', this.#onParentAbort);
  }
}

/** One retrieval: the caller's signal and `requestTimeoutMs` for all of its hops. */
export class RequestDeadline {
  readonly #cut: CutSignal;

  constructor(caller: AbortSignal | undefined, requestTimeoutMs: number) {
    this.#cut = new CutSignal(caller, () => 'caller');
    this.#cut.after(requestTimeoutMs, 'request-deadline');
  }

  get signal(): AbortSignal {
    return this.#cut.signal;
  }

  get reason(): CutReason | undefined {
    return this.#cut.reason;
  }

  dispose(): void {
    this.#cut.dispose();
  }
}

/** One hop of a retrieval: its deadline, plus the body's own clocks once the headers are in. */
export class HopSignal {
  readonly #cut: CutSignal;

  constructor(request: RequestDeadline) {
    this.#cut = new CutSignal(request.signal, () => request.reason ?? 'caller');
  }

  get signal(): AbortSignal {
    return this.#cut.signal;
  }

  /** Why this hop was cut (its own clocks, or the retrieval's), or `undefined`. */
  get reason(): CutReason | undefined {
    return this.#cut.reason;
  }

  /** The whole-body deadline: a server that drips one byte a second is cut too. */
  startBodyDeadline(ms: number): void {
    this.#cut.after(ms, 'body-deadline');
  }

  /**
   * The minimum transfer rate: each `windowMs` of the body must bring at least
   * `bytesPerSecond` · `windowMs` / 1000 bytes on the wire (the first window is the
   * grace a server has to start). Returns the counter to call with each chunk's size;
   * `bytesPerSecond` 0 checks nothing.
   */
  watchRate(bytesPerSecond: number, windowMs: number): (bytes: number) => void {
    if (bytesPerSecond === 0) return () => undefined;
    const least = (bytesPerSecond * windowMs) / 1000;
    let inWindow = 0;
    this.#cut.every(windowMs, () => {
      if (inWindow < least) this.#cut.cut('too-slow');
      inWindow = 0;
    });
    return (bytes) => {
      inWindow += bytes;
    };
  }

  dispose(): void {
    this.#cut.dispose();
  }
}
