// A host's pace from its first request: robots.txt's Crawl-delay (a non-standard line,
// RFC 9309 §2.2.4) is learned when the first task on a host reads it, and until then
// the host runs one task at a time (host-scheduler.ts `isPaceKnown`), so that no second
// request starts before the delay is known. The task that learns it holds the host for
// the delay before making its request (HostScheduler.hold); every request sent holds
// its host again from its own start (crawler.ts `requestSent`).
//
// On a shared frontier the delay is written to the index (setHostDelay) before that
// request, so that every worker's claims keep it from then on. URLs a worker claimed
// before the index held it (its own, or another worker's claimed at the same time) may
// not keep it between workers: each is given back, to be claimed again under it.

export interface RobotsPaceOptions {
  /** The host's least delay between starts (options and Crawl-delay), for `url`. */
  readonly delayMs: (host: string, url: string) => number;
  /** The host's Crawl-delay as robots.txt gave it, for `url`. */
  readonly crawlDelayMs: (url: string) => number | undefined;
  /** The crawl's own least delay between starts on a host. */
  readonly perHostDelayMs: number;
  /** The host's next start waits `delayMs` from now (HostScheduler.hold). */
  readonly hold: (host: string, delayMs: number) => void;
  /** Present on a shared frontier: write the delay for every worker; resolves once the index holds it. */
  readonly share: ((host: string, crawlDelayMs: number | undefined) => Promise<void>) | undefined;
  /** The host's pace is known: start what waits on it. */
  readonly wake: () => void;
}

export class RobotsPace {
  readonly #o: RobotsPaceOptions;
  /** Claims asked of the index so far, each numbered. */
  #claims = 0;
  /** The claim each URL waiting or in flight came from. */
  readonly #claimOf = new Map<number, number>();
  /** Hosts whose pace is known, with the last claim asked before the index held it. */
  readonly #known = new Map<string, number>();
  /** Hosts whose pace is being written to the index. */
  readonly #learning = new Set<string>();

  constructor(options: RobotsPaceOptions) {
    this.#o = options;
  }

  /** A claim is about to be asked: its number. */
  nextClaim(): number {
    return ++this.#claims;
  }

  /** URL `id` came from claim `claim`. */
  claimed(id: number, claim: number): void {
    this.#claimOf.set(id, claim);
  }

  /** URL `id` left this worker (recorded, or given back). */
  settled(id: number): void {
    this.#claimOf.delete(id);
  }

  /** Whether `host`'s pace is known: more than one task may run on it. */
  isKnown(host: string): boolean {
    return this.#known.has(host);
  }

  /**
   * robots.txt answered for the task of URL `url` on `host` (whatever the answer):
   * the first time, the host is held for its delay from now (the task's request comes
   * next), the delay is shared, and the tasks waiting on the host may start.
   */
  async answered(host: string, url: string): Promise<void> {
    if (this.#known.has(host) || this.#learning.has(host)) return;
    this.#learning.add(host);
    try {
      this.#o.hold(host, this.#o.delayMs(host, url));
      await this.#o.share?.(host, this.#o.crawlDelayMs(url));
    } finally {
      this.#learning.delete(host);
      this.#known.set(host, this.#claims);
      this.#o.wake();
    }
  }

  /**
   * Whether the task of URL `id` may make its request: on a shared frontier, not when
   * the host has a Crawl-delay beyond the crawl's own and the URL was claimed before
   * the index held it (it is to be given back, and claimed again under it).
   */
  mayRequest(id: number, host: string, url: string): boolean {
    if (this.#o.share === undefined) return true;
    const heldFrom = this.#known.get(host);
    if (heldFrom === undefined || (this.#o.crawlDelayMs(url) ?? 0) <= this.#o.perHostDelayMs) return true;
    return (this.#claimOf.get(id) ?? Infinity) > heldFrom;
  }
}
