// A host that does not answer is paid for once, not once per link: after a few
// requests in a row to it got no answer at all (a name that does not resolve, a
// refused connection, a deadline), it is paused for the rest of the run. Its URLs
// still claimed are recorded, not requested: ERR_CRAWL_HOST_UNREACHABLE, with the
// failure that paused the host in the summary. An answer of any status starts the
// count again; so does a failure that says the host is there (TLS, a bad response).

/** Failures that say nothing answered: the host, its name or its port is not there, or not now. */
export const HOST_FAILURES: ReadonlySet<string> = new Set([
  'ERR_FETCH_DNS',
  'ERR_FETCH_DNS_TEMPORARY',
  'ERR_FETCH_CONNECTION_REFUSED',
  'ERR_FETCH_CONNECT_TIMEOUT',
  'ERR_FETCH_HEADERS_TIMEOUT',
  'ERR_FETCH_REQUEST_TIMEOUT',
  'ERR_FETCH_NETWORK',
]);

/** Failures that say the host is there, though what it sent is wrong. */
const HOST_PRESENT: ReadonlySet<string> = new Set([
  'ERR_FETCH_TLS',
  'ERR_FETCH_TLS_CERT_EXPIRED',
  'ERR_FETCH_TLS_SELF_SIGNED',
  'ERR_FETCH_TLS_HOSTNAME',
  'ERR_FETCH_TLS_UNTRUSTED',
  'ERR_FETCH_PROTOCOL',
]);

/** Requests in a row without an answer that pause a host (at least one URL's tries: `limitFor`). */
export const HOST_FAILURE_LIMIT = 3;

/** A host paused for the run. */
export interface UnreachableHost {
  readonly code: 'ERR_CRAWL_HOST_UNREACHABLE';
  /** `scheme://host[:port]` */
  readonly origin: string;
  /** The failure of the last request to it (`ERR_FETCH_DNS`, `ERR_FETCH_CONNECTION_REFUSED`, a timeout …). */
  readonly errorCode: string;
  /** Requests in a row that got no answer, when it was paused. */
  readonly failures: number;
  /** Its URLs recorded as not checked, without a request. */
  readonly urlsNotChecked: number;
}

interface HostState {
  failures: number;
  errorCode: string | undefined;
  isPaused: boolean;
  urlsNotChecked: number;
}

export class HostBreaker {
  readonly #limit: number;
  readonly #hosts = new Map<string, HostState>();

  /** The limit for a crawl with `retries`: a URL's own tries come first, so a host is never paused within its first URL's retries. */
  static limitFor(retries: number): number {
    return Math.max(HOST_FAILURE_LIMIT, retries + 1);
  }

  constructor(limit: number) {
    this.#limit = limit;
  }

  isPaused(origin: string | undefined): boolean {
    return origin !== undefined && this.#hosts.get(origin)?.isPaused === true;
  }

  /**
   * A request to `origin` failed with `code`: counted when nothing answered; a TLS or
   * protocol failure says the host is there; others (an abort, the private-address
   * guard) say nothing of it.
   */
  failed(origin: string | undefined, code: string): void {
    if (origin === undefined) return;
    if (HOST_PRESENT.has(code)) return this.answered(origin);
    if (!HOST_FAILURES.has(code)) return;
    const host = this.#state(origin);
    if (host.isPaused) return;
    host.failures++;
    host.errorCode = code;
    if (host.failures >= this.#limit) host.isPaused = true;
  }

  /** `origin` answered (any status): its count starts again. */
  answered(origin: string | undefined): void {
    const host = origin === undefined ? undefined : this.#hosts.get(origin);
    if (host !== undefined && !host.isPaused) host.failures = 0;
  }

  /** A URL of the paused `origin` was recorded without a request. */
  notChecked(origin: string): void {
    this.#state(origin).urlsNotChecked++;
  }

  /** The hosts paused during the run. */
  hosts(): UnreachableHost[] {
    return [...this.#hosts]
      .filter(([, host]) => host.isPaused)
      .map(([origin, host]) => ({
        code: 'ERR_CRAWL_HOST_UNREACHABLE',
        origin,
        errorCode: host.errorCode ?? 'ERR_FETCH_NETWORK',
        failures: host.failures,
        urlsNotChecked: host.urlsNotChecked,
      }));
  }

  #state(origin: string): HostState {
    let host = this.#hosts.get(origin);
    if (host === undefined) {
      host = { failures: 0, errorCode: undefined, isPaused: false, urlsNotChecked: 0 };
      this.#hosts.set(origin, host);
    }
    return host;
  }
}
