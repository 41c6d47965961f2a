// The crawl loop (DESIGN.md §1): claim URLs from the index, fetch them politely,
// record what came back, learn protocol-rung evidence from redirects and
// Content-Location (§2 rung 4), and admit each page's links in one batch.
// Every state lives in the index, so a second crawl() on it resumes.

import { ALIAS_EVIDENCE, resourceKey, type AliasEvidence } from '../ladder/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import { MATCH_RUNGS, URL_STATES, type ClaimedUrl, type FetchRecord, type IndexStore, type MatchRung, type StoreStats, type UrlState } from '../store/index.js';
import { resolveReference, serialize } from '../uri/index.js';
import { CrawlError } from './crawl-error.js';
import { validateCrawlOptions, type CrawlOptions, type ValidCrawlOptions } from './crawl-options.js';
import type { CrawlEvent, CrawlSummary, StopReason } from './crawl-summary.js';
import { EvidenceLedger, fingerprintOf, type Claim } from './evidence-ledger.js';
import { HostScheduler, type TaskResult } from './host-scheduler.js';
import { outcomeOfResponse, retryDelayMs } from './outcome-table.js';
import { isNegotiatedVariant } from './negotiated-variant.js';
import { originKey } from './origin-key.js';
import { keyOf, pageLinks, type PageLinks } from './page-links.js';
import { isPrivateUrl } from './private-address.js';
import { ScopeTest, describeVerdict } from './scope.js';

/**
 * Crawl from the seeds until the frontier is empty (or `maxPages`, or `signal`),
 * fetching every resource once whatever way its links are written. Resolves with
 * what this run did; rejects only with `OptionError` (bad options, before anything
 * is done) or `CrawlError` `ERR_CRAWL_STOPPED` (a fatal error; its `summary` says
 * what was done). A bad page never rejects: it becomes a `fetch` row with a code.
 */
export async function crawl(options: CrawlOptions): Promise<CrawlSummary> {
  return new Crawler(validateCrawlOptions(options)).run();
}

/** One claimed URL and how many times it has been tried. */
interface Job {
  readonly claimed: ClaimedUrl;
  readonly attempt: number;
}

/** The URL whose representation a response is, and whether it is new to the index. */
interface Page {
  readonly id: number;
  /** Its retrieval URL (after redirects). */
  readonly url: string;
  readonly depth: number;
  /** Its representation is fetched for the first time: read its links and evidence. */
  readonly isFresh: boolean;
  /** The fetch row that stands for it. */
  readonly record: FetchRecord;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 305, 307, 308]);

class Crawler {
  readonly #o: ValidCrawlOptions;
  readonly #store: IndexStore;
  readonly #scope: ScopeTest;
  readonly #ledger = new EvidenceLedger();
  readonly #scheduler: HostScheduler<Job>;
  /** Aborts fetches in flight and waits, when the crawl stops. */
  readonly #abort = new AbortController();
  /** Claimed and waiting (for a host slot, or a retry's backoff). */
  readonly #waiting = new Set<number>();
  readonly #inFlight = new Set<number>();
  readonly #startedAt: number;
  #wake: (() => void) | undefined;
  #isDirty = false;
  #isStopping = false;
  /** A write to the index failed: stop asking it (see #requeue). */
  #isIndexFailing = false;
  #fatal: { readonly error: unknown } | undefined;
  #isBudgetSpent = false;
  /** URLs claimed that were or will be requested (the `maxPages` budget). */
  #committed = 0;
  #frontier = 0;
  // Counts of this run.
  #requests = 0;
  #fetched = 0;
  #failed = 0;
  #reused = 0;
  #links = 0;
  #queued = 0;
  #rejected = 0;
  #revoked = 0;
  readonly #linksByRung: Record<MatchRung, number> = zero(MATCH_RUNGS);
  readonly #aliases: Record<AliasEvidence, number> = zero(ALIAS_EVIDENCE);
  readonly #errors: Record<string, number> = {};
  readonly #hrefFindings: Record<string, number> = {};

  constructor(options: ValidCrawlOptions) {
    this.#o = options;
    this.#store = options.store;
    this.#startedAt = options.now();
    this.#scope = new ScopeTest(options);
    this.#scheduler = new HostScheduler<Job>({
      concurrency: options.concurrency,
      perHostConcurrency: options.perHostConcurrency,
      delayMs: (_host, job) => Math.max(options.perHostDelayMs, options.robots?.crawlDelayMs(job.claimed.key) ?? 0),
      now: options.now,
      run: (job) => this.#run(job),
      onSettled: (_job, result) => {
        // After the task left the in-flight set: the counts are those of a settled URL.
        if (result.kind !== 'retry') this.#progress();
        this.#wakeUp();
      },
      onRetry: (job) => ({ claimed: job.claimed, attempt: job.attempt + 1 }),
      onError: (error) => this.#fail(error),
    });
  }

  async run(): Promise<CrawlSummary> {
    const signal = this.#o.signal;
    const onAbort = (): void => this.#stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      this.#admitSeeds();
      this.#frontier = this.#store.stats().urlsByState.queued;
      if (signal?.aborted === true) this.#stop();
      await this.#loop();
    } catch (error) {
      this.#fail(error);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    await this.#scheduler.onIdle();
    this.#release();
    const summary = this.#summary();
    if (this.#fatal !== undefined) {
      const cause = this.#fatal.error;
      const code = (cause as { code?: unknown } | null)?.code;
      const what = `${typeof code === 'string' ? `${code}: ` : ''}${cause instanceof Error ? cause.message : String(cause)}`;
      throw new CrawlError('ERR_CRAWL_STOPPED', `the crawl stopped on a fatal error: ${what}`, { cause, summary });
    }
    return summary;
  }

  #admitSeeds(): void {
    const results = this.#store.admit(this.#o.seeds.map((seed) => ({ rawHref: seed, target: seed, depth: 0 })));
    this.#queued += results.filter((r) => r.isQueued).length;
  }

  async #loop(): Promise<void> {
    for (;;) {
      if (!this.#isStopping) this.#refill();
      const wait = this.#isStopping ? undefined : this.#scheduler.pump();
      if (this.#scheduler.inFlight === 0 && (this.#isStopping || this.#scheduler.pending === 0)) return;
      await this.#sleep(wait);
    }
  }

  // Claim enough to keep every slot busy, never past the maxPages budget: a URL is
  // claimed only when it will be requested (or found settled), so a crawl stopped
  // by maxPages leaves nothing in `fetching`.
  #refill(): void {
    const room = this.#o.concurrency * 2 - this.#waiting.size;
    if (room <= 0) return;
    const budget = this.#o.maxPages - this.#committed;
    if (budget <= 0) {
      this.#isBudgetSpent = true;
      return;
    }
    for (const claimed of this.#store.claim(Math.min(room, budget))) {
      this.#waiting.add(claimed.id);
      this.#committed++;
      this.#frontier--;
      this.#scheduler.push(claimed.host ?? '', { claimed, attempt: 1 });
    }
  }

  async #sleep(wait: number | undefined): Promise<void> {
    if (this.#isDirty) {
      this.#isDirty = false;
      return;
    }
    const timer = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    await Promise.race(wait === undefined ? [woken] : [woken, this.#o.sleep(wait, timer.signal)]);
    timer.abort();
    this.#wake = undefined;
    this.#isDirty = false;
  }

  #wakeUp(): void {
    this.#isDirty = true;
    this.#wake?.();
  }

  async #run(job: Job): Promise<TaskResult> {
    try {
      return await this.#process(job);
    } catch (error) {
      this.#fail(error);
      return { kind: 'done' };
    }
  }

  async #process(job: Job): Promise<TaskResult> {
    const { claimed, attempt } = job;
    const store = this.#store;
    this.#waiting.delete(claimed.id);
    // Settled while it waited: the end of a redirect chain, or a Content-Location, was this URL.
    if (store.getUrl(claimed.id)?.state !== 'fetching') {
      if (attempt === 1) this.#committed--;
      return { kind: 'refund' };
    }
    this.#inFlight.add(claimed.id);
    try {
      const robots = this.#o.robots;
      if (robots !== undefined) {
        let isAllowed: boolean;
        try {
          isAllowed = await robots.isAllowed(claimed.key);
        } catch {
          this.#recordFailure(claimed, attempt, 'ERR_CRAWL_FETCHER_THREW', undefined);
          return { kind: 'done' };
        }
        if (!isAllowed) {
          if (attempt === 1) this.#committed--;
          this.#recordFailure(claimed, attempt, 'ERR_CRAWL_ROBOTS_DISALLOWED', undefined);
          return { kind: 'refund' };
        }
      }
      if (this.#isStopping) {
        this.#requeue(claimed.id);
        return { kind: 'refund' };
      }
      this.#requests++;
      let response: FetchedResponse;
      try {
        response = await this.#o.fetcher.fetch(claimed.key, this.#abort.signal, { beforeRedirect: (hop) => this.#beforeRedirect(hop.to, claimed.id) });
      } catch {
        response = thrownResponse(claimed.key, this.#o.now());
      }
      if (this.#isStopping && response.errorCode === 'ERR_FETCH_ABORTED') {
        this.#requeue(claimed.id);
        return { kind: 'done' };
      }
      const outcome = outcomeOfResponse(response.errorCode, response.status);
      if (outcome === 'retry' && attempt <= this.#o.retries && !this.#isStopping) {
        const afterMs = retryDelayMs(attempt, this.#o.retryDelayMs, response.headers['retry-after'], this.#o.now());
        this.#emit({
          type: 'error',
          url: claimed.key,
          code: response.errorCode ?? `HTTP_${response.status}`,
          outcome,
          attempt,
          retryInMs: afterMs,
          status: response.status,
        });
        this.#waiting.add(claimed.id);
        return { kind: 'retry', afterMs };
      }
      // One transaction per page: its fetch row, aliases and links are recorded together, or not at all.
      this.#store.atomically(() => this.#settle(claimed, response, attempt));
      if (outcome === 'fatal') this.#fail(new CrawlError('ERR_CRAWL_STOPPED', `fetch returned ${response.errorCode}`, {}));
      return { kind: 'done' };
    } finally {
      this.#inFlight.delete(claimed.id);
    }
  }

  /** A URL that got no response: a `failed` fetch row with its code. */
  #recordFailure(claimed: ClaimedUrl, attempt: number, code: string, response: FetchedResponse | undefined): void {
    this.#store.recordFetch({
      urlId: claimed.id,
      outcome: 'failed',
      startedAt: response?.startedAt ?? this.#o.now(),
      durationMs: response?.durationMs,
      status: response?.status,
      contentType: response?.contentType,
      bytes: response?.bytes,
      errorCode: code,
      finalUrl: response?.finalUrl,
      redirects: response?.hops.map((hop) => ({ from: hop.from, to: hop.to, status: hop.status })),
      attempts: attempt,
      representsUrlId: claimed.id,
    });
    this.#failed++;
    this.#count(this.#errors, code);
    this.#emit({ type: 'error', url: claimed.key, code, outcome: 'permanent', attempt, retryInMs: undefined, status: response?.status });
  }

  /** Record a response and learn from it. Synchronous: no claim can come between its store calls. */
  #settle(claimed: ClaimedUrl, response: FetchedResponse, attempt: number): void {
    // RFC 3986 §7.4: the fetcher followed a redirect into a private address.
    if (!this.#o.allowPrivate && response.hops.some((hop) => hop.to !== undefined && isPrivateUrl(hop.to))) {
      this.#recordFailure(claimed, attempt, 'ERR_CRAWL_PRIVATE_ADDRESS', response);
      return;
    }
    const status = response.status;
    // A redirect that could not be followed (loop, too many, no Location) leaves no representation.
    const hasResponse = status !== undefined && !(response.errorCode !== undefined && REDIRECT_STATUSES.has(status));
    if (!hasResponse) {
      this.#recordFailure(claimed, attempt, response.errorCode ?? 'ERR_FETCH_NETWORK', response);
      return;
    }
    const record: FetchRecord = {
      urlId: claimed.id,
      outcome: 'done',
      startedAt: response.startedAt,
      durationMs: response.durationMs,
      status,
      contentType: response.contentType,
      bytes: response.bytes,
      errorCode: response.errorCode,
      finalUrl: response.finalUrl,
      redirects: response.hops.map((hop) => ({ from: hop.from, to: hop.to, status: hop.status })),
      attempts: attempt,
      representsUrlId: claimed.id,
    };
    // The caller runs this in one store transaction: a crash before it commits leaves
    // the URL in `fetching` with nothing of its page recorded, and the index requeues
    // it when opened again (DESIGN.md §5).
    const page = this.#pageOf(claimed, response, record);
    let links = 0;
    let queued = 0;
    let details: (PageLinks & { readonly queued: number }) | undefined;
    if (page.isFresh) {
      const fingerprint = fingerprintOf(response);
      for (const claim of this.#ledger.fetched(page.id, fingerprint)) this.#revokeClaim(claim, page.id, 'the response fetched at that URL itself differs');
      if (status >= 200 && status < 300) {
        this.#learnContentLocation(page, response, fingerprint);
        details = this.#admitLinks(page, response);
        links = details.entries.length;
        queued = details.queued;
      }
    }
    // For the audit: what the page itself does wrong, and the fragments it can be the target of.
    // The response stands for the representation of the URL its redirects ended at (#pageOf).
    const represented = { ...record, representsUrlId: page.id };
    this.#store.recordFetch(details === undefined ? represented : { ...represented, findings: details.pageFindings, anchors: details.anchors });
    this.#fetched++;
    if (response.errorCode !== undefined) this.#count(this.#errors, response.errorCode);
    this.#emit({
      type: 'page',
      url: claimed.key,
      finalUrl: response.finalUrl,
      status,
      contentType: response.contentType,
      depth: claimed.depth,
      attempts: attempt,
      links,
      queued,
      baseLevel: details?.chain.level,
      baseLevelsDiffer: details?.baseLevelsDiffer ?? false,
      hrefFindings: details?.hrefFindings ?? [],
      pageFindings: details?.pageFindings ?? [],
      errorCode: response.errorCode,
    });
  }

  /**
   * Whether the fetcher should request a redirect's target: not when it is a
   * private address the crawl may not reach (RFC 3986 §7.4; refused before any
   * connection), nor when the index already has it fetched, in flight, or
   * proved an alias — the chain then ends there, and its URLs become aliases of
   * that target without another request for it. A redirect to another spelling
   * of the URL being fetched is followed: that is how its representation comes.
   */
  #beforeRedirect(to: string, claimedId: number): 'follow' | 'stop' {
    if (!this.#o.allowPrivate && isPrivateUrl(to)) return 'stop';
    const known = this.#store.findUrl(to);
    if (known === undefined || known.id === claimedId) return 'follow';
    // A URL claimed but still waiting for its turn is settled by this chain (#pageOf); one in flight is not.
    const isInFlight = known.state === 'fetching' && this.#inFlight.has(known.id);
    return known.state === 'done' || known.state === 'failed' || known.state === 'alias' || isInFlight ? 'stop' : 'follow';
  }

  /**
   * DESIGN.md §2 rung 4, redirects: every URL of the chain is an alias of the last
   * one, whose representation this is — so the last one is not fetched again.
   * Only hops of the final URL's origin become aliases (evidence stays scoped to
   * its origin, §4); every hop is recorded in the fetch row either way.
   */
  #pageOf(claimed: ClaimedUrl, response: FetchedResponse, record: FetchRecord): Page {
    const own: Page = { id: claimed.id, url: response.finalUrl, depth: claimed.depth, isFresh: true, record };
    // A chain the crawl stopped (see #beforeRedirect) ends at the target it declined.
    const finalUrl = response.redirectStopped === true ? (response.hops.at(-1)?.to ?? response.finalUrl) : response.finalUrl;
    const finalKey = keyOf(finalUrl);
    if (response.hops.length === 0 || finalKey === undefined || finalKey === claimed.key) return own;
    const verdict = this.#scope.check(finalUrl);
    const hopUrls = [...new Set(response.hops.map((hop) => hop.from))].filter((url) => keyOf(url) !== finalKey);
    const results = this.#store.admit([
      { rawHref: finalUrl, target: finalUrl, follow: verdict === undefined, depth: claimed.depth },
      ...hopUrls.map((url) => ({ rawHref: url, target: url, follow: false, depth: claimed.depth })),
    ]);
    for (const result of results) if (result.isQueued) this.#frontier++;
    const targetId = results[0]?.urlId;
    const notFresh: Page = { ...own, id: targetId ?? claimed.id, isFresh: false };
    if (targetId === undefined) return notFresh;
    const finalOrigin = originKey(finalUrl);
    for (const url of hopUrls) {
      const row = this.#store.findUrl(url);
      if (row === undefined || row.id === targetId || row.aliasOf === targetId) continue;
      const detail = String(response.hops.find((hop) => hop.from === url)?.status ?? '');
      if (originKey(url) !== finalOrigin) {
        this.#reject('redirect', url, finalUrl, detail, 'the redirect leads to another origin: evidence stays scoped to its origin');
        continue;
      }
      this.#store.addAlias({ fromId: row.id, toId: targetId, evidence: 'redirect', detail });
      this.#learned('redirect', url, finalUrl, detail);
    }
    if (targetId === claimed.id) return own;
    if (verdict !== undefined) return notFresh;
    const target = this.#store.getUrl(targetId);
    if (target === undefined || !this.#isUnfetched(targetId, target.state)) return notFresh;
    return { id: targetId, url: finalUrl, depth: claimed.depth, isFresh: true, record: this.#derive(targetId, target.state, response) };
  }

  /** Whether a URL in this state has not been (and is not being) fetched, so another response may stand for it. */
  #isUnfetched(id: number, state: UrlState): boolean {
    return state === 'queued' || state === 'skipped' || (state === 'fetching' && this.#waiting.has(id));
  }

  /**
   * Mark `id` fetched from another URL's response: a fetch row with that response's
   * facts, its final URL, no duration and no redirects (what tells it from a request of its own).
   */
  #derive(id: number, state: UrlState, response: FetchedResponse): FetchRecord {
    const record: FetchRecord = {
      urlId: id,
      outcome: 'done',
      startedAt: response.startedAt,
      status: response.status,
      contentType: response.contentType,
      bytes: response.bytes,
      errorCode: response.errorCode,
      finalUrl: response.finalUrl,
      representsUrlId: id,
    };
    this.#store.recordFetch(record);
    this.#reused++;
    if (state === 'queued') this.#frontier--;
    return record;
  }

  /**
   * DESIGN.md §2 rung 4, Content-Location (RFC 9110 §8.7): the representation
   * fetched at the page is that of the URL named, so the page becomes its alias and
   * that URL counts as fetched. Accepted only from the same origin, in the
   * negotiation pattern (`contentLocationAlias`), and unless contradicted (§4).
   */
  #learnContentLocation(page: Page, response: FetchedResponse, fingerprint: string): void {
    const value = response.headers['content-location'];
    if (this.#o.contentLocationAlias === 'off' || value === undefined) return;
    const resolved = resolveReference(value.trim(), response.finalUrl);
    if (!resolved.ok) return;
    const named = serialize({ ...resolved.value, fragment: undefined });
    if (resourceKey(resolved.value) === keyOf(page.url)) return;
    if (originKey(named) !== originKey(page.url)) {
      this.#reject('content-location', page.url, named, value, 'another origin: evidence stays scoped to its origin');
      return;
    }
    if (this.#o.contentLocationAlias === 'negotiated' && !isNegotiatedVariant(page.url, named)) {
      this.#reject('content-location', page.url, named, value, 'not a negotiated variant of the URL (a file of its directory extending its last segment)');
      return;
    }
    const verdict = this.#scope.check(named);
    if (verdict !== undefined) {
      this.#reject('content-location', page.url, named, value, describeVerdict(verdict));
      return;
    }
    const [admitted] = this.#store.admit([{ rawHref: value, target: named, depth: page.depth }]);
    if (admitted?.isQueued === true) this.#frontier++;
    const targetId = admitted?.urlId;
    if (targetId === undefined || targetId === page.id) return;
    const claim: Claim = { fromId: page.id, record: page.record };
    const decision = this.#ledger.claim(targetId, claim, fingerprint);
    if (decision.kind === 'reject') {
      this.#reject('content-location', page.url, named, value, decision.reason);
      return;
    }
    if (decision.kind === 'contradict') {
      for (const earlier of decision.revoke) this.#revokeClaim(earlier, targetId, decision.reason);
      if (decision.requeueTarget) this.#requeue(targetId);
      this.#reject('content-location', page.url, named, value, decision.reason);
      return;
    }
    this.#store.addAlias({ fromId: page.id, toId: targetId, evidence: 'content-location', detail: value });
    this.#learned('content-location', page.url, named, value);
    const target = this.#store.getUrl(targetId);
    if (target !== undefined && this.#isUnfetched(targetId, target.state)) {
      this.#derive(targetId, target.state, response);
      this.#ledger.markDerived(targetId);
    }
  }

  /** Undo a Content-Location alias; its URL keeps the fetch it had (recorded again: the store queues a revoked alias). */
  #revokeClaim(claim: Claim, targetId: number, reason: string): void {
    this.#store.revokeAlias(claim.fromId);
    this.#store.recordFetch(claim.record);
    this.#revoked++;
    this.#emit({
      type: 'evidence',
      action: 'revoked',
      evidence: 'content-location',
      from: this.#store.getUrl(claim.fromId)?.key ?? String(claim.fromId),
      to: this.#store.getUrl(targetId)?.key ?? String(targetId),
      detail: undefined,
      reason,
    });
  }

  /** The page's references in one admit batch, and its canonical link as evidence. */
  #admitLinks(page: Page, response: FetchedResponse): PageLinks & { readonly queued: number } {
    const depth = page.depth + 1;
    const details = pageLinks(response, {
      id: page.id,
      url: page.url,
      depth,
      baseMode: this.#o.baseMode,
      follow: this.#o.follow,
      mayFollow: (target) => depth <= this.#o.maxDepth && this.#scope.check(target) === undefined,
    });
    for (const report of details.hrefFindings) for (const code of report.codes) this.#count(this.#hrefFindings, code);
    if (details.entries.length === 0) return { ...details, queued: 0 };
    const results = this.#store.admit(details.entries);
    let queued = 0;
    for (const result of results) {
      if (result.rung !== undefined) this.#linksByRung[result.rung]++;
      if (result.isQueued) queued++;
    }
    this.#links += results.length;
    this.#queued += queued;
    this.#frontier += queued;
    const canonical = details.canonicalIndex === undefined ? undefined : results[details.canonicalIndex]?.urlId;
    if (canonical !== undefined && canonical !== page.id) {
      const entry = details.entries[details.canonicalIndex!]!;
      this.#store.addAlias({ fromId: page.id, toId: canonical, evidence: 'canonical', detail: entry.rawHref });
      this.#learned('canonical', page.url, entry.target ?? entry.rawHref, entry.rawHref);
    }
    return { ...details, queued };
  }

  #learned(evidence: AliasEvidence, from: string, to: string, detail: string): void {
    this.#aliases[evidence]++;
    this.#emit({ type: 'evidence', action: 'learned', evidence, from, to, detail, reason: undefined });
  }

  #reject(evidence: AliasEvidence, from: string, to: string, detail: string, reason: string): void {
    this.#rejected++;
    this.#emit({ type: 'evidence', action: 'rejected', evidence, from, to, detail, reason });
  }

  /**
   * Back to the frontier, unrecorded: claimed but not fetched when the crawl stopped,
   * or contradicted evidence. Once the index fails a write (locked by another
   * writer, disk full) it is not asked again: each ask would wait out its busy
   * timeout, and the index puts `fetching` rows back on the frontier when it is
   * opened again.
   */
  #requeue(id: number): void {
    if (this.#isIndexFailing) return;
    try {
      this.#store.requeue(id);
      this.#frontier++;
    } catch (error) {
      this.#isIndexFailing = true;
      this.#fail(error);
    }
  }


  /** Release what waits in the scheduler (the crawl stops). */
  #release(): void {
    for (const job of this.#scheduler.drain()) {
      this.#waiting.delete(job.claimed.id);
      this.#requeue(job.claimed.id);
    }
  }

  #stop(): void {
    if (this.#isStopping) return;
    this.#isStopping = true;
    this.#abort.abort();
    this.#release();
    this.#wakeUp();
  }

  #fail(error: unknown): void {
    this.#fatal ??= { error };
    this.#stop();
  }

  #emit(event: CrawlEvent): void {
    const onEvent = this.#o.onEvent;
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch (error) {
      this.#fail(error);
    }
  }

  #progress(): void {
    this.#emit({
      type: 'progress',
      requests: this.#requests,
      fetched: this.#fetched,
      failed: this.#failed,
      queued: Math.max(0, this.#frontier),
      inFlight: this.#inFlight.size,
    });
  }

  #count(counts: Record<string, number>, code: string): void {
    counts[code] = (counts[code] ?? 0) + 1;
  }

  #summary(): CrawlSummary {
    let index: StoreStats;
    try {
      index = this.#store.stats();
    } catch {
      index = emptyStats();
    }
    let stoppedBy: StopReason = 'frontier-empty';
    if (this.#fatal !== undefined) stoppedBy = 'fatal';
    else if (this.#o.signal?.aborted === true) stoppedBy = 'signal';
    else if (this.#isBudgetSpent && index.urlsByState.queued > 0) stoppedBy = 'max-pages';
    return {
      stoppedBy,
      requests: this.#requests,
      pagesFetched: this.#fetched,
      pagesFailed: this.#failed,
      representationsReused: this.#reused,
      links: this.#links,
      linksByRung: { ...this.#linksByRung },
      queued: this.#queued,
      aliasesLearned: { ...this.#aliases },
      evidenceRejected: this.#rejected,
      evidenceRevoked: this.#revoked,
      errorsByCode: { ...this.#errors },
      hrefFindings: { ...this.#hrefFindings },
      index,
      durationMs: this.#o.now() - this.#startedAt,
    };
  }
}

function zero<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

function emptyStats(): StoreStats {
  return {
    urlsByState: zero(URL_STATES),
    links: 0,
    linksByRung: zero(MATCH_RUNGS),
    linksWithoutTarget: 0,
    aliasesByEvidence: zero(ALIAS_EVIDENCE),
    fetches: 0,
  };
}

/** What a Fetcher that broke its contract (it threw) leaves. */
function thrownResponse(url: string, now: number): FetchedResponse {
  return {
    requestUrl: url,
    finalUrl: url,
    hops: [],
    status: undefined,
    headers: {},
    contentType: undefined,
    charset: undefined,
    body: undefined,
    bytes: 0,
    startedAt: now,
    durationMs: 0,
    errorCode: 'ERR_CRAWL_FETCHER_THREW',
  };
}
