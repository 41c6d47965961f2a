// RFC 9309 §2.3.1.4: a robots.txt that is unreachable (5xx, 429, no response) means
// "complete disallow" while it lasts. That is the host's outage, not a verdict on
// its URLs: they are not recorded as failed. The host's robots.txt is asked again
// with backoff, `retries` times; past that the host is given up for this run and
// its URLs are held, unrequested, until the run ends, when they go back to the
// frontier for the next run.

import type { RobotsFileState } from '../fetch/index.js';

/** One host whose robots.txt could not be read during the run. */
export interface RobotsOutage {
  readonly code: 'ERR_CRAWL_ROBOTS_UNREACHABLE';
  /** `scheme://host[:port]/robots.txt` */
  readonly robotsUrl: string;
  /** The status of its last answer (5xx, 429), `undefined` when none came. */
  readonly status: number | undefined;
  /** Why its last fetch failed (`ERR_FETCH_NETWORK`, a timeout …), if it did. */
  readonly errorCode: string | undefined;
  /** How many times it was requested during the run, by the pages and the sitemaps. */
  readonly attempts: number;
  /** URLs of the host left queued, unrequested, for the next run. */
  readonly urlsLeft: number;
  /** Whether it answered at last during the run (its URLs were then crawled). */
  readonly isOver: boolean;
}

interface HostOutage {
  robotsUrl: string;
  status: number | undefined;
  errorCode: string | undefined;
  urlsLeft: number;
  isOver: boolean;
  isGivenUp: boolean;
}

/** What to do with a URL whose host's robots.txt is unreachable. */
export type OutageDecision = 'retry' | 'hold';

export class RobotsOutages {
  readonly #retries: number;
  readonly #requestsTo: (robotsUrl: string) => number;
  readonly #hosts = new Map<string, HostOutage>();
  /** URLs held because their host was given up: requeued when the run ends. */
  readonly #held: number[] = [];

  /** `requestsTo`: how many requests for a robots.txt the run has sent (the tally counts them as they go). */
  constructor(retries: number, requestsTo: (robotsUrl: string) => number) {
    this.#retries = retries;
    this.#requestsTo = requestsTo;
  }

  /** Whether `robotsUrl`'s host was given up for this run: its URLs are held without asking again. */
  isGivenUp(robotsUrl: string | undefined): boolean {
    return robotsUrl !== undefined && this.#hosts.get(robotsUrl)?.isGivenUp === true;
  }

  /**
   * robots.txt answered `file` (unreachable) when asked for the `attempt`-th time
   * for one URL: retry it (the host waits its backoff, so the next ask is the
   * host's next attempt), or, once `retries` are spent, give the host up and hold the URL.
   */
  unreachable(file: RobotsFileState, urlId: number, attempt: number): OutageDecision {
    let host = this.#hosts.get(file.url);
    if (host === undefined) {
      host = { robotsUrl: file.url, status: undefined, errorCode: undefined, urlsLeft: 0, isOver: false, isGivenUp: false };
      this.#hosts.set(file.url, host);
    }
    host.status = file.status;
    host.errorCode = file.errorCode;
    host.isOver = false;
    if (attempt <= this.#retries) return 'retry';
    host.isGivenUp = true;
    this.hold(file.url, urlId);
    return 'hold';
  }

  /** Hold a URL of a given-up host until the run ends. */
  hold(robotsUrl: string, urlId: number): void {
    const host = this.#hosts.get(robotsUrl);
    if (host !== undefined) host.urlsLeft++;
    this.#held.push(urlId);
  }

  /** robots.txt of the host answered: its outage, if it had one, is over. */
  reached(robotsUrl: string | undefined): void {
    const host = robotsUrl === undefined ? undefined : this.#hosts.get(robotsUrl);
    if (host !== undefined && !host.isGivenUp) host.isOver = true;
  }

  /** The URLs held, each once (they go back to the frontier). */
  takeHeld(): number[] {
    return this.#held.splice(0);
  }

  /** Every host whose robots.txt was unreachable during the run. */
  outages(): RobotsOutage[] {
    return [...this.#hosts.values()].map(({ isGivenUp: _, ...host }) => ({
      code: 'ERR_CRAWL_ROBOTS_UNREACHABLE',
      ...host,
      attempts: this.#requestsTo(host.robotsUrl),
    }));
  }
}
