// The crawl's progress on a terminal: one stderr line, rewritten in place.

import type { Writable } from 'node:stream';
import type { CrawlEvent, ProgressEvent } from '../crawl/index.js';

/** At most this often, so a fast crawl does not spend its time redrawing. */
const REDRAW_MS = 100;

/** ANSI EL (erase in line) to its end: what an older, longer line left is wiped after the text. */
const ERASE_TO_END = '\u001b[K';

export interface ProgressLineOptions {
  /** Whether anything is drawn: only on a terminal, so logs and pipes stay clean. */
  readonly isEnabled: boolean;
  readonly now: () => number;
}

/**
 * What to fix first, then how far along: broken pages and redirects seen so far,
 * pages done, queued and failed, requests in flight, elapsed time and the rate; no
 * ETA (the frontier grows as pages are read).
 */
export class ProgressLine {
  readonly #stream: Writable;
  readonly #isEnabled: boolean;
  readonly #now: () => number;
  readonly #startedAt: number;
  #lastDrawAt = Number.NEGATIVE_INFINITY;
  #isDrawn = false;
  /** Pages answered 4xx/5xx, and fetches that got no response, so far. */
  #broken = 0;
  /** Pages reached through redirects, so far. */
  #redirected = 0;

  constructor(stream: Writable, options: ProgressLineOptions) {
    this.#stream = stream;
    this.#isEnabled = options.isEnabled;
    this.#now = options.now;
    this.#startedAt = options.now();
  }

  /** Count what an event says is broken or redirected; redraw on a progress event. */
  see(event: CrawlEvent): void {
    if (event.type === 'page') {
      if (event.status !== undefined && event.status >= 400) this.#broken++;
      if (event.finalUrl !== event.url) this.#redirected++;
    } else if (event.type === 'error' && event.outcome === 'permanent' && event.status === undefined) {
      this.#broken++;
    } else if (event.type === 'progress') {
      this.update(event);
    }
  }

  update(event: ProgressEvent): void {
    if (!this.#isEnabled) return;
    const now = this.#now();
    // The second pass's wait is drawn whatever the rate: the crawl then sits still for seconds.
    const isWaiting = event.secondPassInMs !== undefined || event.pausedHosts !== undefined;
    if (now - this.#lastDrawAt < REDRAW_MS && !isWaiting) return;
    this.#lastDrawAt = now;
    const seconds = Math.max((now - this.#startedAt) / 1000, 0.001);
    const rate = (event.fetched + event.failed) / seconds;
    const text =
      `crawling: ${this.#broken} broken, ${this.#redirected} redirected; ${event.fetched} done, ${event.queued} queued, ` +
      `${event.failed} failed; ${event.inFlight} requests in flight, ${formatElapsed(seconds)}, ${rate.toFixed(1)} pages/s` +
      (event.secondPassInMs !== undefined ? `; second pass: ${event.secondPassUrls ?? 0} unverified links asked again in ${Math.ceil(event.secondPassInMs / 1000)} s` : '') +
      paceText(event);
    this.#write(`\r${this.#fit(text)}${ERASE_TO_END}`);
    this.#isDrawn = true;
  }

  /** Erase the line, before the summary is printed. */
  clear(): void {
    if (!this.#isDrawn) return;
    this.#write(`\r${ERASE_TO_END}`);
    this.#isDrawn = false;
  }

  // A line longer than the terminal wraps, and "\r" then rewrites only its last row.
  #fit(text: string): string {
    const columns = (this.#stream as { columns?: unknown }).columns;
    return typeof columns === 'number' && columns > 1 && text.length >= columns ? text.slice(0, columns - 1) : text;
  }

  #write(text: string): void {
    // A failed stderr is not worth stopping a crawl for: its LineWriter holds the error.
    if (!this.#stream.destroyed && this.#stream.errored === null) this.#stream.write(text);
  }
}

/** Hosts paused by a `Retry-After` (`paused 127.0.0.1 4 s`), and those whose rate 429s lowered (`127.0.0.1 at 1 request / 2 s`). */
function paceText(event: ProgressEvent): string {
  const paused = (event.pausedHosts ?? []).map((p) => `paused ${p.host} ${Math.ceil(p.remainingMs / 1000)} s`);
  const slowed = (event.slowedHosts ?? []).map((h) => `${h.host} at 1 request / ${formatSeconds(h.delayMs)} s`);
  return [...paused, ...slowed].map((text) => `; ${text}`).join('');
}

/** Milliseconds as seconds, to the millisecond and no further (`2`, `0.5`, `1.875`). */
export function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

/** Elapsed seconds as `12 s` or `3 min 05 s`. */
function formatElapsed(seconds: number): string {
  const whole = Math.floor(seconds);
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** Whether `stream` is a terminal (a tty.WriteStream sets `isTTY`). */
export function isTerminal(stream: Writable): boolean {
  return (stream as { isTTY?: unknown }).isTTY === true;
}
