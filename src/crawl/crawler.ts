// The crawl loop: admit the seeds, claim URLs from the index as
// host slots free up, hand each to the URL pipeline, and stop when the frontier
// is empty (or `maxPages`, a signal, a fatal error). Every state lives in the
// index, so a second run on it resumes. On an index shared by cooperating
// workers (`store.shared`), the frontier is empty only when no other
// worker holds a claim; a claim that gave nothing is tried again when a host's
// slot opens.

import { availableParallelism } from 'node:os';
import type { ClaimedUrl, IndexWriter, StoreStats } from '../store/index.js';
import { ClaimBook } from './claim-book.js';
import { ContentEvidence } from './content-evidence.js';
import { runCountsOf, runOutcomeOf, runSettingsOf, seedOutcomes } from './crawl-run.js';
import { warcPathOf } from './archive-settings.js';
import { runArchived } from './archived-run.js';
import { CrawlError } from './crawl-error.js';
import { validateCrawlerOptions, type CrawlerOptions, type ValidCrawlerOptions } from './crawler-options.js';
import type { CrawlSummary, SeedOutcome, StopReason } from './crawl-summary.js';
import { CrawlTally } from './crawl-tally.js';
import { RANGES } from './crawl-settings.js';
import { HostBreaker } from './host-breaker.js';
import { HostPace } from './host-pace.js';
import { HostScheduler } from './host-scheduler.js';
import { schemeRung } from './origin-key.js';
import { ParsePool, defaultParseThreads } from './parse-pool.js';
import { RobotsOutages, type RobotsOutage } from './robots-outages.js';
import { RobotsPace } from './robots-pace.js';
import { ScopeTest } from './scope.js';
import { SecondPass } from './second-pass.js';
import { seedFromSitemaps } from './sitemap-seeds.js';
import { UrlPipeline, type Job } from './url-pipeline.js';
import { CLAIM_POLL_MS, WorkerCooperation } from './worker-cooperation.js';

/**
 * Crawl from the seeds until the frontier is empty (or `maxPages`, or `signal`),
 * fetching every resource once whatever way its links are written. Resolves with
 * what this run did; rejects only with `OptionError` (bad options, before anything
 * is done) or `CrawlError` `ERR_CRAWL_STOPPED` (a fatal error; its `summary` says
 * what was done). A bad page never rejects: it becomes a `fetch` row with a code.
 */
export async function runCrawler(options: CrawlerOptions): Promise<CrawlSummary> {
  const valid = validateCrawlerOptions(options);
  const warcPath = warcPathOf(valid);
  if (warcPath === '') return new Crawler(valid).run();
  return runArchived(valid, warcPath, (archived) => new Crawler(archived).run());
}

const MAX_HOST_DELAY_MS = RANGES.perHostDelayMs[1];

/**
 * How long requests in flight may go on once the crawl's signal asked it to stop:
 * finished, they are recorded and not requested again on resume; past it, they are cut.
 */
export const STOP_GRACE_MS = 5000;

/** How often a progress event tells the time left of a host's pause. */
const PAUSE_TICK_MS = 1000;

class Crawler {
  readonly #o: ValidCrawlerOptions;
  readonly #store: IndexWriter;
  readonly #tally: CrawlTally;
  readonly #claims = new ClaimBook();
  readonly #scheduler: HostScheduler<Job>;
  /** Each host's `Retry-After` pause and the delay its 429s set: held for every task of this process. */
  readonly #pace: HostPace;
  readonly #pipeline: UrlPipeline;
  readonly #outages: RobotsOutages;
  /** Each host's robots.txt Crawl-delay, held from its first request. */
  readonly #robotsPace: RobotsPace;
  readonly #breaker: HostBreaker;
  readonly #scope: ScopeTest;
  /** Reads long pages on other cores; stopped when the run ends. */
  readonly #pool: ParsePool;
  /** Present when the index is shared by cooperating workers. */
  readonly #cooperation: WorkerCooperation | undefined;
  /** Present with `contentEvidence`: holds predicted duplicates back until the end. */
  readonly #content: ContentEvidence | undefined;
  /** Present with `secondPass`: external links left unverified, asked once more at the end. */
  readonly #secondPass: SecondPass | undefined;
  /** Aborts requests in flight when the crawl stops (at once on a fatal error, after STOP_GRACE_MS on its signal). */
  readonly #abort = new AbortController();
  /** Ends the grace period early (the crawl is over). */
  readonly #grace = new AbortController();
  #wake: (() => void) | undefined;
  #isDirty = false;
  #isStopping = false;
  /** A write to the index failed: stop asking it (see #requeue). */
  #isIndexFailing = false;
  #fatal: { readonly error: unknown } | undefined;
  #isBudgetSpent = false;
  /** When a progress event last told a host's pause. */
  #pauseToldAt = -Infinity;
  /** URLs claimed that were or will be requested (the `maxPages` budget). */
  #committed = 0;

  constructor(options: ValidCrawlerOptions) {
    this.#o = options;
    this.#store = options.store;
    this.#pace = new HostPace(options.now);
    this.#tally = new CrawlTally({ onEvent: options.onEvent, onEventError: (error) => this.#fail(error), now: options.now, pace: this.#pace });
    const shared = options.store.shared;
    this.#cooperation =
      shared === undefined
        ? undefined
        : new WorkerCooperation({
            shared,
            tally: this.#tally,
            perHostConcurrency: options.perHostConcurrency,
            perHostDelayMs: options.perHostDelayMs,
            maxHostDelayMs: MAX_HOST_DELAY_MS,
            now: options.now,
            fail: (error) => this.#fail(error),
          });
    this.#scheduler = new HostScheduler<Job>({
      concurrency: options.concurrency,
      perHostConcurrency: options.perHostConcurrency,
      // A folder read from disk has no server to spare: no per-host limit, no delay.
      isLocalHost: (_host, job) => options.fetcher.isLocal?.(job.claimed.key) === true,
      delayMs: (host, job) => this.#requestDelayMs(host, job.claimed.key),
      pausedUntil: (host) => this.#pace.pausedUntil(host),
      // Until robots.txt answered for a host, one task at a time (robots-pace.ts).
      isPaceKnown: (host, job) => options.robots === undefined || options.fetcher.isLocal?.(job.claimed.key) === true || this.#robotsPace.isKnown(host),
      now: options.now,
      run: (job) =>
        this.#pipeline.process(job).catch((error: unknown) => {
          this.#fail(error);
          return { kind: 'done' } as const;
        }),
      onSettled: (job, result) => {
        // A URL settled meanwhile, or refused by robots.txt, made no request: its place in the budget is given back.
        if (result.kind === 'refund' && job.attempt === 1) this.#committed--;
        // After the task left the in-flight set: the counts are those of a settled URL.
        // A retry is shown too when it paused its host: the progress line says for how long.
        if (result.kind !== 'retry' || this.#pace.paused().length > 0) this.#tally.progress(this.#claims.inFlight.size);
        if (result.kind !== 'retry') this.#robotsPace.settled(job.claimed.id);
        this.#wakeUp();
      },
      onRetry: (job) => ({ claimed: job.claimed, attempt: job.attempt + 1 }),
      onError: (error) => this.#fail(error),
    });
    const cooperation = this.#cooperation;
    this.#robotsPace = new RobotsPace({
      delayMs: (host, url) => this.#pace.delayMs(host, this.#hostDelayMs(url)),
      crawlDelayMs: (url) => options.robots?.crawlDelayMs(url),
      perHostDelayMs: options.perHostDelayMs,
      hold: (host, delayMs) => this.#scheduler.hold(host, delayMs),
      // Its Crawl-delay holds for every worker.
      share: cooperation === undefined ? undefined : (host, crawlDelayMs) => cooperation.crawlDelayLearned(host, crawlDelayMs),
      wake: () => this.#wakeUp(),
    });
    this.#outages = new RobotsOutages(options.retries, (robotsUrl) => this.#tally.robotsRequestsTo(robotsUrl));
    this.#breaker = new HostBreaker(HostBreaker.limitFor(options.retries));
    this.#scope = new ScopeTest(options.scopeRoots === undefined ? options : { ...options, seeds: options.scopeRoots });
    // On a shared frontier a held claim would keep its host's slots from the other
    // workers: there content evidence makes digest aliases and rules, and holds nothing.
    this.#content = options.contentEvidence
      ? new ContentEvidence({ tally: this.#tally, claims: this.#claims, mayHold: shared === undefined, release: (claims) => this.#fetchHeld(claims) })
      : undefined;
    this.#secondPass = options.secondPass ? new SecondPass(options.now) : undefined;
    this.#pool = new ParsePool({ threads: options.parseThreads ?? defaultParseThreads(availableParallelism()) });
    this.#pipeline = new UrlPipeline({
      secondPass: this.#secondPass,
      pool: this.#pool,
      content: this.#content,
      outages: this.#outages,
      breaker: this.#breaker,
      pace: this.#pace,
      options,
      scope: this.#scope,
      tally: this.#tally,
      claims: this.#claims,
      signal: this.#abort.signal,
      isStopping: () => this.#isStopping,
      requeue: (id) => this.#requeue(id),
      fail: (error) => this.#fail(error),
      robotsAnswered: (claimed) => this.#robotsPace.answered(claimed.host ?? '', claimed.key),
      mayRequest: (claimed) => this.#robotsPace.mayRequest(claimed.id, claimed.host ?? '', claimed.key),
      // A host's delay counts from each request's own start, not from its task's start a
      // few awaits before it: a task slow to reach its request (a GC pause, a busy loop)
      // would otherwise let the next one start less than the delay after it.
      requestSent: (claimed, request) => {
        if (request.kind === 'robots') return;
        const host = schemeRung(request.url)?.host ?? claimed.host ?? '';
        this.#scheduler.hold(host, this.#requestDelayMs(host, request.url));
      },
    });
  }

  async run(): Promise<CrawlSummary> {
    const signal = this.#o.signal;
    const onAbort = (): void => this.#stopGracefully();
    signal?.addEventListener('abort', onAbort, { once: true });
    let runId: number | undefined;
    try {
      runId = await this.#store.startRun({ startedAt: this.#o.now(), seeds: this.#o.seeds, settings: runSettingsOf(this.#o) });
      this.#tally.runId = runId;
      // A re-check queues every URL fetched again (recheck.ts), and finds and reads every
      // sitemap again, once: a crawl that finds one in progress (another worker's, or one
      // killed) joins it and queues nothing. Without it, a crawl on an index resumes.
      if (this.#o.recheck) await this.#store.requeueFetched({ runId, sitemaps: this.#o.sitemap });
      const seeds = await this.#store.admit(this.#o.seeds.map((seed) => ({ rawHref: seed, target: seed, depth: 0 })));
      this.#tally.queued += seeds.filter((r) => r.isQueued).length;
      // Sitemaps are a frontier in the index (sitemap-seeds.ts): each run reads those not
      // read yet, so a resumed crawl reads none twice and misses none a stop or an outage left.
      if (this.#o.sitemap && this.#o.seeds.length > 0 && signal?.aborted !== true) {
        const stop = this.#abort.signal;
        // A sitemap request waits its host's turn and delay, as a page's does.
        const takeTurn = (host: string, url: string): Promise<void> => this.#scheduler.takeTurn(host, this.#pace.delayMs(host, this.#hostDelayMs(url)), stop);
        await seedFromSitemaps({ options: this.#o, scope: this.#scope, tally: this.#tally, runId, signal: stop, isStopping: () => this.#isStopping, takeTurn });
      }
      this.#tally.frontier = (await this.#store.stats()).urlsByState.queued;
      if (signal?.aborted === true) this.#stopGracefully();
      await this.#loop();
    } catch (error) {
      this.#fail(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    await this.#scheduler.onIdle();
    await this.#pool.close();
    this.#grace.abort();
    await this.#release();
    // URLs of hosts whose robots.txt stayed unreachable: queued again, for the next run.
    for (const id of this.#outages.takeHeld()) await this.#requeue(id);
    let index: StoreStats | undefined;
    let seeds: SeedOutcome[] = [];
    try {
      if (this.#fatal === undefined) await this.#cooperation?.finalReport();
      await this.#store.flush();
      index = await this.#store.stats();
      seeds = await seedOutcomes(this.#store, this.#o.seeds);
    } catch (error) {
      this.#fatal ??= { error };
    }
    const outages = this.#outages.outages();
    seeds = seeds.map((seed) => (seed.isFetched ? seed : this.#withOutage(seed, outages)));
    let stopReason = this.#stopReason(index);
    // Nothing was crawled: no seed got a usable response.
    if (stopReason === 'frontier-empty' && seeds.length > 0 && seeds.every((seed) => !seed.isFetched)) stopReason = 'seeds-failed';
    const summary: CrawlSummary = {
      ...this.#tally.summary(stopReason, index, seeds),
      robotsOutages: outages,
      hostsUnreachable: this.#breaker.hosts(),
      politeness: this.#pace.report(),
      ...(this.#content === undefined ? {} : { contentEvidence: this.#content.summary() }),
    };
    if (runId !== undefined && this.#fatal === undefined) {
      try {
        await this.#store.endRun(runId, { endedAt: this.#o.now(), stoppedBy: summary.stoppedBy, outcome: runOutcomeOf(summary), counts: { ...runCountsOf(summary), unchanged: this.#tally.unchanged } });
        await this.#store.flush();
      } catch (error) {
        this.#fatal ??= { error };
      }
    }
    if (this.#fatal !== undefined) {
      const cause = this.#fatal.error;
      const code = (cause as { code?: unknown } | null)?.code;
      const what = `${typeof code === 'string' ? `${code}: ` : ''}${cause instanceof Error ? cause.message : String(cause)}`;
      throw new CrawlError('ERR_CRAWL_STOPPED', `the crawl stopped on a fatal error: ${what}`, { cause, summary });
    }
    return summary;
  }

  async #loop(): Promise<void> {
    for (;;) {
      const claim = this.#isStopping ? undefined : await this.#refill();
      let wait = this.#isStopping ? undefined : this.#scheduler.pump();
      // While a host is paused the crawl may sit still: its progress (the time left) is told each second.
      if (!this.#isStopping && this.#pace.paused().length > 0) {
        if (this.#o.now() - this.#pauseToldAt >= PAUSE_TICK_MS) {
          this.#pauseToldAt = this.#o.now();
          this.#tally.progress(this.#claims.inFlight.size);
        }
        wait = Math.min(wait ?? PAUSE_TICK_MS, PAUSE_TICK_MS);
      }
      const isIdle = this.#scheduler.inFlight === 0 && (this.#isStopping || this.#scheduler.pending === 0);
      // Nothing left but the predicted duplicates held back (content evidence): claim
      // until the frontier is empty, then join what is proved and fetch the rest.
      if (isIdle && !this.#isStopping && !this.#isBudgetSpent && (this.#content?.heldCount ?? 0) > 0) {
        if (claim === 'empty') while (this.#content!.heldCount > 0 && (await this.#content!.settle(this.#store)) === 0);
        continue;
      }
      const cooperation = this.#cooperation;
      if (cooperation === undefined || this.#isStopping || this.#isBudgetSpent) {
        if (isIdle && claim !== 'cached' && !(await this.#startSecondPass())) return;
        if (!isIdle) await this.#sleep(wait);
        continue;
      }
      cooperation.maybeReport(this.#scheduler.inFlight);
      // A shared frontier that gave less than asked (hosts busy, or waiting on a delay) is
      // asked again soon, even while this worker's requests are in flight. With nothing
      // in flight: over when no worker holds a claim, else asked again when a host's slot opens.
      // All it claimed was answered from the verdict cache: claim again at once.
      let retry = claim === undefined ? undefined : claim === 'cached' ? 0 : CLAIM_POLL_MS;
      if (isIdle && claim !== 'cached') {
        const idle = await cooperation.whenIdle();
        if (idle.isOver && !(await this.#startSecondPass())) return;
        retry = idle.isOver ? 0 : idle.retryInMs;
      }
      await this.#sleep(wait === undefined ? retry : Math.min(wait, retry ?? wait));
    }
  }

  // Claim enough to keep every slot busy, never past the maxPages budget: a URL is
  // claimed only when it will be requested (or found settled), so a crawl stopped
  // by maxPages leaves nothing in `fetching`. Claims come in batches of at least
  // `concurrency`, not one for each settled URL. On a shared frontier a claim holds a
  // host slot for every worker: only what can start now is claimed, so that URLs
  // waiting here do not keep the other workers from their hosts. Resolves with how a
  // claim made went: `empty`, `short` (less than asked), or `undefined` (all asked, or
  // none made). `maxPages` is this worker's own budget on a shared index.
  async #refill(): Promise<'empty' | 'short' | 'cached' | undefined> {
    const isShared = this.#cooperation !== undefined;
    const room = isShared
      ? this.#o.concurrency - this.#scheduler.inFlight - this.#scheduler.pending
      : this.#o.concurrency * 2 - this.#claims.waiting.size;
    if (room < (isShared ? 1 : this.#o.concurrency)) return undefined;
    const budget = this.#o.maxPages - this.#committed;
    if (budget <= 0) {
      this.#isBudgetSpent = true;
      return undefined;
    }
    const asked = Math.min(room, budget);
    const claim = this.#robotsPace.nextClaim();
    const claims = await this.#store.claim(asked);
    let cached = 0;
    for (const claimed of claims) {
      this.#tally.frontier--;
      // An external link the verdict cache answers: recorded at once, no request, no host slot.
      if (await this.#pipeline.answerFromCache(claimed)) {
        cached++;
        continue;
      }
      if (this.#content?.hold(claimed) === true) continue;
      this.#claims.waiting.add(claimed.id);
      this.#committed++;
      this.#robotsPace.claimed(claimed.id, claim);
      this.#scheduler.push(claimed.host ?? '', { claimed, attempt: this.#secondPass?.attemptOf(claimed.id) ?? 1 });
    }
    if (cached > 0) this.#tally.progress(this.#claims.inFlight.size);
    // All it claimed was answered from the cache: the frontier may hold more (`cached`: claim again).
    if (claims.length > 0 && cached === claims.length) return 'cached';
    return claims.length === 0 ? 'empty' : claims.length < asked ? 'short' : undefined;
  }

  async #sleep(wait: number | undefined): Promise<void> {
    if (this.#isDirty) {
      this.#isDirty = false;
      return;
    }
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    if (wait === undefined) await woken;
    else {
      const timer = new AbortController();
      await Promise.race([woken, this.#o.sleep(wait, timer.signal)]);
      timer.abort();
    }
    this.#wake = undefined;
    this.#isDirty = false;
  }

  /**
   * The second pass (`secondPass`), when the frontier is empty: the external links this
   * run left unverified wait politely (the longest `Retry-After` they sent, else
   * SECOND_PASS_DEFAULT_WAIT_MS; a stop ends the wait at once), then go back on the
   * frontier, each once per run, within the `maxPages` budget. Resolves with whether
   * any did.
   */
  async #startSecondPass(): Promise<boolean> {
    const pass = this.#secondPass;
    if (pass === undefined || this.#isStopping || this.#fatal !== undefined) return false;
    const wave = pass.takeWave(this.#o.maxPages - this.#committed, (origin) => this.#breaker.isPaused(origin));
    if (wave.ids.length === 0) return false;
    this.#tally.progress(0, { waitMs: wave.waitMs, urls: wave.ids.length });
    // Nothing is in flight: only a stop wakes the loop during the wait.
    this.#isDirty = false;
    if (wave.waitMs > 0) await this.#sleep(wave.waitMs);
    if (this.#isStopping) {
      for (const id of wave.ids) pass.forget(id);
      return false;
    }
    // Requeued after the wait: a crawl killed while it waits leaves them as they were recorded.
    for (const id of wave.ids) await this.#requeue(id);
    return true;
  }

  /** The least time between the start of a request for `url` on `host` and the next one's there (none on a local file tree). */
  #requestDelayMs(host: string, url: string): number {
    return this.#o.fetcher.isLocal?.(url) === true ? 0 : this.#pace.delayMs(host, this.#hostDelayMs(url));
  }

  /** The least time between two requests to the host of `url`: a robots.txt Crawl-delay is honoured up to the longest delay an option may ask (one hour). */
  #hostDelayMs(url: string): number {
    return Math.min(MAX_HOST_DELAY_MS, Math.max(this.#o.perHostDelayMs, this.#o.robots?.crawlDelayMs(url) ?? 0));
  }

  #wakeUp(): void {
    this.#isDirty = true;
    this.#wake?.();
  }

  /**
   * Back to the frontier, unrecorded: claimed but not fetched when the crawl stopped,
   * or contradicted evidence. Once the index fails a write (locked by another
   * writer, disk full) it is not asked again: each ask would wait out its busy
   * timeout, and the index puts `fetching` rows back on the frontier when it is
   * opened again.
   */
  async #requeue(id: number): Promise<void> {
    if (this.#isIndexFailing) return;
    try {
      await this.#store.requeue(id);
      this.#tally.frontier++;
    } catch (error) {
      this.#isIndexFailing = true;
      this.#fail(error);
    }
  }

  /** Release what waits in the scheduler, and what content evidence held back (the crawl stops). */
  async #release(): Promise<void> {
    for (const job of this.#scheduler.drain()) {
      this.#claims.waiting.delete(job.claimed.id);
      await this.#requeue(job.claimed.id);
    }
    for (const claimed of this.#content?.drain() ?? []) await this.#requeue(claimed.id);
  }

  /** Claims content evidence held back, to be fetched now (within the `maxPages` budget; past it, back to the frontier). */
  #fetchHeld(claims: readonly ClaimedUrl[]): void {
    for (const claimed of claims) {
      if (this.#isStopping || this.#committed >= this.#o.maxPages) {
        void this.#requeue(claimed.id);
        continue;
      }
      this.#claims.waiting.add(claimed.id);
      this.#committed++;
      this.#scheduler.push(claimed.host ?? '', { claimed, attempt: 1 });
    }
    this.#wakeUp();
  }

  #stop(): void {
    this.#abort.abort();
    this.#stopClaiming();
  }

  // The crawl's signal (Ctrl-C, SIGTERM): no more claims, and what waits goes back to
  // the frontier; requests in flight get STOP_GRACE_MS to finish.
  #stopGracefully(): void {
    if (this.#isStopping) return;
    this.#stopClaiming();
    void this.#o.sleep(STOP_GRACE_MS, this.#grace.signal).then(() => {
      if (!this.#grace.signal.aborted) this.#abort.abort();
    });
  }

  #stopClaiming(): void {
    if (this.#isStopping) return;
    this.#isStopping = true;
    void this.#release();
    this.#wakeUp();
  }

  #fail(error: unknown): void {
    this.#fatal ??= { error };
    this.#stop();
  }

  /**
   * A seed left queued because its host's robots.txt stayed unreachable says so (RFC
   * 9309 §2.3.1.4): by the network failure of that request when no answer came (DNS,
   * refused, TLS, a timeout: the seed's own request would have met it too), else by
   * the outage's code (robots.txt answered 5xx or 429).
   */
  #withOutage(seed: SeedOutcome, outages: readonly RobotsOutage[]): SeedOutcome {
    const robotsUrl = this.#o.robots?.robotsFile?.(seed.url)?.url;
    const outage = outages.find((each) => !each.isOver && each.robotsUrl === robotsUrl);
    if (outage === undefined) return seed;
    return { ...seed, reason: outage.status === undefined && outage.errorCode !== undefined ? outage.errorCode : outage.code };
  }

  #stopReason(index: StoreStats | undefined): StopReason {
    if (this.#fatal !== undefined) return 'fatal';
    if (this.#o.signal?.aborted === true) return 'signal';
    if (this.#isBudgetSpent && (index?.urlsByState.queued ?? 0) > 0) return 'max-pages';
    return 'frontier-empty';
  }
}
