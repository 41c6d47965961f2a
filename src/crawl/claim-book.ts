// The URLs this crawl has claimed from the index and not yet settled: waiting
// for their turn (a host slot, a retry's backoff) or in flight.

import type { UrlState } from '../store/index.js';

export class ClaimBook {
  /** Claimed and waiting (for a host slot, or a retry's backoff). */
  readonly waiting = new Set<number>();
  /** Being requested. */
  readonly inFlight = new Set<number>();
  /** Held back as predicted duplicates, to be fetched last (content-evidence.ts). */
  readonly held = new Set<number>();

  /** Whether a URL in this state has not been (and is not being) fetched, so another response may stand for it. */
  isUnfetched(id: number, state: UrlState): boolean {
    return state === 'queued' || state === 'skipped' || (state === 'fetching' && (this.waiting.has(id) || this.held.has(id)));
  }
}
