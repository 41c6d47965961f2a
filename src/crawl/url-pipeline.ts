// One claimed URL, from the frontier to its rows: robots.txt, the request (a
// redirect to a URL the index settled is not followed), the retry decision of
// the outcome table, then one unit of the index — its fetch row, the protocol
// evidence of the response, and the links of its page.

import { isBodyCut, isRedirectionStatus, type FetchedResponse, type HttpMethod, type RobotsFileState, type SentRequest, type Validators } from '../fetch/index.js';
import type { ClaimedUrl, IndexWriter } from '../store/index.js';
import { errorCodeOf } from './broken-links.js';
import type { ContentEvidence } from './content-evidence.js';
import type { ClaimBook } from './claim-book.js';
import { CrawlError } from './crawl-error.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import type { PageEvent } from './crawl-summary.js';
import type { CrawlTally } from './crawl-tally.js';
import { fingerprintOf } from './evidence-ledger.js';
import type { HostBreaker } from './host-breaker.js';
import type { HostPace } from './host-pace.js';
import { originOf, schemeRung } from './origin-key.js';
import { fetchRecordOf } from './fetch-record.js';
import { isStylesheet } from './stylesheet-links.js';
import type { TaskResult } from './host-scheduler.js';
import { outcomeOfResponse, retriesFor, retryDelayMs } from './outcome-table.js';
import { PageAdmission, type AdmittedLinks, type PageAdmissionSettings, type ReadAhead } from './page-admission.js';
import { keyOf, type DeclaredVariant, type PageLinks } from './page-links.js';
import { isPrivateUrl } from './private-address.js';
import { ProtocolEvidence, type ProtocolEvidenceSettings } from './protocol-evidence.js';
import type { ParsePool } from './parse-pool.js';
import type { RobotsOutages } from './robots-outages.js';
import type { ScopeTest } from './scope.js';
import { notModifiedRecord, revalidationOf } from './recheck.js';
import type { CountedAnswer, ExternalAnswer, SecondPass } from './second-pass.js';
import { cachedFetchRecord } from './verdict-cache.js';
import { parseStatusPolicy, verdictOf, withVerdict, type StatusPolicy, type Verdict } from './verdict.js';

/** A redirect target a chain of this crawl is requesting. */
interface FollowedTarget {
  /** The claimed URL whose chain it is. */
  readonly id: number;
  /** Resolves once that URL's unit is written (or given up). */
  readonly settled: Promise<void>;
  readonly settle: () => void;
}

/** What is known of a page before its links are admitted (its findings, anchors, base chain). */
type PageFacts = Omit<PageLinks, 'entries' | 'canonicalIndex' | 'hrefFindings'>;

/** One claimed URL and how many times it has been tried. */
/** The crawl options the URL pipeline reads itself. */
type PipelineOwnSettings = Pick<ValidCrawlerOptions, 'store' | 'fetcher' | 'robots' | 'verdictCache' | 'now' | 'allowPrivate' | 'statusPolicy' | 'recheck' | 'retries' | 'retryDelayMs' | 'checkResources'>;

/**
 * The crawl options the URL pipeline takes: its own, and those of the protocol
 * evidence and the page admission it makes (the crawler hands it the whole validated set).
 */
export type UrlPipelineSettings = PipelineOwnSettings & ProtocolEvidenceSettings & PageAdmissionSettings;

export interface Job {
  readonly claimed: ClaimedUrl;
  readonly attempt: number;
}

export interface UrlPipelineOptions {
  readonly options: UrlPipelineSettings;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  readonly claims: ClaimBook;
  /** Aborts requests in flight when the crawl stops. */
  readonly signal: AbortSignal;
  /** Whether the crawl is stopping: claimed URLs go back to the frontier unrequested. */
  readonly isStopping: () => boolean;
  /** Put a URL back on the frontier (the crawl stops, or evidence was contradicted). */
  readonly requeue: (id: number) => Promise<void>;
  /** A fatal error: the crawl stops. */
  readonly fail: (error: unknown) => void;
  /** robots.txt answered for a claimed URL: its host's Crawl-delay is held from here (robots-pace.ts). @default nothing */
  readonly robotsAnswered?: ((claimed: ClaimedUrl) => Promise<void>) | undefined;
  /** A request for a claimed URL was sent (robots-pace.ts: its host's delay counts from there). @default nothing */
  readonly requestSent?: ((claimed: ClaimedUrl, request: SentRequest) => void) | undefined;
  /** Whether a claimed URL may be requested: false when it is to be given back, claimed before its host's Crawl-delay was held. @default always */
  readonly mayRequest?: ((claimed: ClaimedUrl) => boolean) | undefined;
  /** Hosts whose robots.txt is unreachable, and their URLs held for the next run. */
  readonly outages: RobotsOutages;
  /** With `contentEvidence`: what fetched bodies teach (content-evidence.ts). */
  readonly content: ContentEvidence | undefined;
  /** Hosts that did not answer, paused for the run (host-breaker.ts). */
  readonly breaker: HostBreaker;
  /** Each host's `Retry-After` pause and the delay its 429s set (host-pace.ts): told of every response. */
  readonly pace: HostPace;
  /** With `secondPass`: the external links left unverified, asked once more at the end (second-pass.ts). */
  readonly secondPass: SecondPass | undefined;
  /** Reads long pages on other cores (parse-pool.ts). @default undefined */
  readonly pool?: ParsePool | undefined;
}

export class UrlPipeline {
  readonly #o: PipelineOwnSettings;
  readonly #store: IndexWriter;
  readonly #tally: CrawlTally;
  readonly #claims: ClaimBook;
  readonly #evidence: ProtocolEvidence;
  readonly #outages: RobotsOutages;
  readonly #admission: PageAdmission;
  readonly #breaker: HostBreaker;
  readonly #p: UrlPipelineOptions;
  /** What the verdict of each fetch row says of a status (src/crawl/verdict.ts). */
  readonly #policy: StatusPolicy;
  /** Redirect targets (keys) being requested by a chain of this crawl: the claimed URL whose chain it is, settled when its unit is. */
  readonly #following = new Map<string, FollowedTarget>();

  constructor(p: UrlPipelineOptions) {
    this.#p = p;
    this.#o = p.options;
    this.#store = p.options.store;
    this.#tally = p.tally;
    this.#claims = p.claims;
    this.#evidence = new ProtocolEvidence(p);
    this.#outages = p.outages;
    this.#breaker = p.breaker;
    this.#policy = parseStatusPolicy(p.options.statusPolicy);
    this.#admission = new PageAdmission({ options: p.options, scope: p.scope, tally: p.tally, evidence: this.#evidence, pool: p.pool });
  }

  /**
   * An external URL whose answer the verdict cache keeps (`CrawlRuntime.verdictCache`):
   * recorded from it in one unit, with the time it was really asked, and no request.
   * Resolves with whether it was.
   */
  async answerFromCache(claimed: ClaimedUrl): Promise<boolean> {
    const answer = claimed.role === 'external' ? this.#o.verdictCache?.get(claimed.key) : undefined;
    if (answer === undefined) return false;
    // Judged again by this run's status policy: the answer is the earlier run's, the verdict this run's.
    const record = withVerdict(cachedFetchRecord(claimed.id, answer), 'external', this.#policy);
    await this.#unit(claimed, async (tx) => {
      await tx.recordFetch(record);
      this.#tally.countFromCache(record);
    });
    this.#emitExternal(claimed, {
      finalUrl: record.finalUrl ?? claimed.key,
      status: record.status,
      contentType: record.contentType,
      attempts: 0,
      errorCode: record.errorCode,
      method: record.method,
      isFromCache: true,
    });
    return true;
  }

  async process(job: Job): Promise<TaskResult> {
    try {
      return await this.#process(job);
    } catch (error) {
      // The index's server went away while this URL's unit was written, and answers again:
      // the unit was rolled back, and the URL is tried again (its claim, if it lapsed
      // meanwhile, is another worker's, and this one's results are then refused).
      if ((error as { code?: unknown } | null)?.code !== 'ERR_STORE_CONNECTION_LOST' || this.#p.isStopping()) throw error;
      this.#claims.waiting.add(job.claimed.id);
      return { kind: 'retry', afterMs: 0 };
    }
  }

  async #process(job: Job): Promise<TaskResult> {
    const { claimed, attempt } = job;
    this.#claims.waiting.delete(claimed.id);
    // Settled while it waited: the end of a redirect chain, or a Content-Location, was this URL.
    // A store that knows nothing touched it since its claim saves the read (a round trip to a server).
    const isUntouched = attempt === 1 && this.#store.isClaimUntouched?.(claimed.id) === true;
    if (!isUntouched && (await this.#store.getUrl(claimed.id))?.state !== 'fetching') return { kind: 'refund' };
    // A redirect chain of this crawl is requesting it now: waiting for its turn, it is settled by that chain.
    const chain = this.#following.get(claimed.key);
    if (chain !== undefined && chain.id !== claimed.id) {
      this.#claims.waiting.add(claimed.id);
      await chain.settled;
      this.#claims.waiting.delete(claimed.id);
      if ((await this.#store.getUrl(claimed.id))?.state !== 'fetching') return { kind: 'refund' };
    }
    this.#claims.inFlight.add(claimed.id);
    try {
      const robots = this.#o.robots;
      const origin = originOf(claimed.key);
      const onRequest = (request: SentRequest): void => {
        this.#tally.countRequest(request, attempt, claimed.id);
        this.#p.requestSent?.(claimed, request);
      };
      // A host given up for this run (its robots.txt stayed unreachable): held, not asked again.
      if (robots !== undefined && this.#outages.isGivenUp(robots.robotsFile?.(claimed.key)?.url)) {
        this.#outages.hold(robots.robotsFile!(claimed.key)!.url, claimed.id);
        return { kind: 'refund' };
      }
      // A host paused for this run (it did not answer): recorded, not requested.
      if (origin !== undefined && this.#breaker.isPaused(origin)) {
        this.#breaker.notChecked(origin);
        await this.#unit(claimed, (tx) => this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_HOST_UNREACHABLE', undefined));
        return { kind: 'refund' };
      }
      if (robots !== undefined) {
        let isAllowed: boolean;
        try {
          isAllowed = await robots.isAllowed(claimed.key, { onRequest });
        } catch {
          await this.#unit(claimed, (tx) => this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_FETCHER_THREW', undefined));
          return { kind: 'done' };
        }
        await this.#p.robotsAnswered?.(claimed);
        const file = robots.robotsFile?.(claimed.key);
        // Its robots.txt request is one to the host: an external host that does not answer is paused as well.
        if (file?.status !== undefined) this.#breaker.answered(origin);
        else if (file?.verdict === 'unreachable' && claimed.role === 'external') this.#breaker.failed(origin, file.errorCode ?? 'ERR_FETCH_NETWORK');
        if (!isAllowed && file?.verdict === 'unreachable' && claimed.role === 'external') return this.#externalRobotsUnreachable(job, file);
        if (!isAllowed && file?.verdict === 'unreachable') return this.#robotsUnreachable(job, file);
        this.#outages.reached(file?.url);
        if (!isAllowed) {
          // Not checked, and said so: recorded as refused, not as broken.
          this.#tally.checks.notCheckedByRobots++;
          await this.#unit(claimed, (tx) => this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_ROBOTS_DISALLOWED', undefined));
          return { kind: 'refund' };
        }
      }
      if (this.#p.isStopping() || this.#p.mayRequest?.(claimed) === false) {
        await this.#p.requeue(claimed.id);
        return { kind: 'refund' };
      }
      // A re-check sends the validators of the last response (recheck.ts); an external link is checked afresh.
      const revalidation = this.#o.recheck && claimed.role !== 'external' ? await revalidationOf(this.#store, claimed.id) : undefined;
      // The second pass asks once, with the method that gave the first answer, and no retries.
      const isSecondPass = this.#p.secondPass?.isAsking(claimed.id) === true;
      const fetched =
        claimed.role === 'external'
          ? await this.#check(claimed, origin, onRequest, isSecondPass ? this.#p.secondPass!.methodOf(claimed.id) : undefined)
          : await this.#fetch(claimed, origin, 'GET', onRequest, revalidation?.validators);
      const response = unsolicitedNotModified(fetched, revalidation !== undefined);
      if (this.#p.isStopping() && response.errorCode === 'ERR_FETCH_ABORTED') {
        await this.#p.requeue(claimed.id);
        return { kind: 'done' };
      }
      const outcome = outcomeOfResponse(response.errorCode, response.status);
      // Not tried again once its host is paused: recorded with its own failure.
      if (outcome === 'retry' && !isSecondPass && attempt <= retriesFor(response.errorCode, this.#o.retries) && !this.#breaker.isPaused(origin)) {
        // Stopping: tried again on resume rather than recorded as failed.
        if (this.#p.isStopping()) {
          await this.#p.requeue(claimed.id);
          return { kind: 'done' };
        }
        const afterMs = retryDelayMs(attempt, this.#o.retryDelayMs, response.headers['retry-after'], this.#o.now());
        const code = response.errorCode ?? `HTTP_${response.status}`;
        this.#tally.emit({ type: 'error', url: claimed.key, code, outcome, attempt, retryInMs: afterMs, status: response.status });
        this.#claims.waiting.add(claimed.id);
        return { kind: 'retry', afterMs };
      }
      // RFC 9110 §15.4.5: not modified, the page stays as recorded (its links too).
      if (response.status === 304 && revalidation !== undefined && response.hops.length === 0) {
        await this.#unit(claimed, async (tx) => {
          const record = withVerdict(notModifiedRecord(claimed, response, revalidation, attempt), claimed.role, this.#policy);
          await tx.recordFetch(record);
          this.#tally.countVerdict(record);
          this.#tally.fetched++;
          this.#tally.unchanged++;
        });
        return { kind: 'done' };
      }
      // Its references read on another core before its turn to write comes, so that
      // the units before it are not kept waiting (parse-pool.ts).
      const read = await this.#admission.readAhead(claimed, response);
      // One unit per response: its fetch row, aliases and links are recorded together, or not at all.
      await this.#unit(claimed, (tx) => this.#settle(tx, claimed, response, attempt, read));
      if (outcome === 'fatal') this.#p.fail(new CrawlError('ERR_CRAWL_STOPPED', `fetch returned ${response.errorCode}`, {}));
      return { kind: 'done' };
    } finally {
      this.#claims.inFlight.delete(claimed.id);
      if (this.#following.size > 0) {
        for (const [key, chain] of this.#following) {
          if (chain.id !== claimed.id) continue;
          this.#following.delete(key);
          chain.settle();
        }
      }
    }
  }

  /**
   * One unit of the index for what became of the claimed URL, with the requests it
   * took (crawl-tally.ts `recordRequests`). On a frontier shared by workers the claim
   * is checked first and held until the unit commits: a claim whose lease lapsed (this
   * worker stalled) may be another worker's now, and nothing of this response is
   * recorded; the requests were sent all the same, and are counted.
   */
  async #unit(claimed: ClaimedUrl, work: (tx: IndexWriter) => Promise<void>): Promise<void> {
    try {
      await this.#store.transact(async (tx) => {
        if (tx.holdClaim === undefined || (await tx.holdClaim(claimed.id))) await work(tx);
        await this.#tally.recordRequests(tx, claimed.id);
      });
    } catch (error) {
      // A claim held without waiting for its answer (PostgreSQL) that was not this
      // worker's: the unit was rolled back before anything of it was counted. Its
      // requests were sent all the same, and are counted in a unit of their own.
      if ((error as { code?: unknown } | null)?.code !== 'ERR_STORE_CLAIM_LOST') throw error;
      await this.#store.transact((tx) => this.#tally.recordRequests(tx, claimed.id, true));
    }
  }

  /** One request of the claimed URL, redirects vetted hop by hop; what a fetcher that threw leaves, if it did. */
  async #fetch(claimed: ClaimedUrl, origin: string | undefined, method: HttpMethod, onRequest: (request: SentRequest) => void, validators?: Validators): Promise<FetchedResponse> {
    const isExternal = claimed.role === 'external';
    try {
      const response = await this.#o.fetcher.fetch(claimed.key, this.#p.signal, {
        // An external link's redirects are followed to its final status, and no further
        // than the private-address guard allows; they are not evidence about the crawl's URLs.
        beforeRedirect: (hop) => (isExternal ? this.#beforeExternalRedirect(hop.to) : this.#beforeRedirect(hop.to, claimed.id)),
        onRequest,
        ...(method === 'HEAD' ? { method } : {}),
        ...(validators === undefined ? {} : { validators }),
      });
      // The host that sent the answer paces itself by it: the URL's own, or the one a redirect ended at.
      this.#p.pace.answered(schemeRung(response.finalUrl)?.host ?? claimed.host ?? '', response.status, response.headers['retry-after']);
      // A failure after redirects is another host's (the URL's own host answered).
      if (response.status !== undefined || response.hops.length > 0) this.#breaker.answered(origin);
      else if (response.errorCode !== undefined) this.#breaker.failed(origin, response.errorCode);
      return response.method === undefined ? { ...response, method } : response;
    } catch {
      return thrownResponse(claimed.key, this.#o.now());
    }
  }

  /**
   * An external link checked: HEAD, and GET where HEAD answers an
   * error status or gets no answer at all — servers that mishandle HEAD exist (405,
   * 501, but also 403 or 404 where GET answers 200), so a link is called broken only
   * on GET's word. Not after a 429 (RFC 6585 §4: asking again at once is what it
   * asks not to do). Neither body is read (the fetcher reads only HTML and CSS
   * bodies, and the crawl does not parse them for an external link).
   */
  async #check(claimed: ClaimedUrl, origin: string | undefined, onRequest: (request: SentRequest) => void, method?: HttpMethod): Promise<FetchedResponse> {
    if (method === 'GET') return this.#fetch(claimed, origin, 'GET', onRequest);
    const head = await this.#fetch(claimed, origin, 'HEAD', onRequest);
    const isRefused = head.status !== undefined && head.status >= 400 && head.status !== 429;
    const isUnanswered = head.status === undefined && !NO_FALLBACK.has(head.errorCode ?? '');
    if (!isRefused && !isUnanswered) return head;
    // The host did not answer the requests before this one either: GET would not fare better.
    if (this.#p.isStopping() || this.#breaker.isPaused(origin)) return head;
    this.#tally.checks.headFallbacks++;
    return this.#fetch(claimed, origin, 'GET', onRequest);
  }

  /** A redirect of an external link: followed, unless into a private address the crawl may not reach (RFC 3986 §7.4). */
  #beforeExternalRedirect(to: string): 'follow' | 'stop' {
    return !this.#o.allowPrivate && isPrivateUrl(to) ? 'stop' : 'follow';
  }

  /**
   * An external link whose host's robots.txt is unreachable (RFC 9309 §2.3.1.4): it
   * is not requested. A host that gave no answer at all is a broken link's target
   * (its robots.txt's error is the link's: the same host would not answer the link
   * either); one that answered 5xx or 429 is not checked (`ERR_CRAWL_ROBOTS_UNREACHABLE`,
   * refused, not broken). Neither is held for another run, as a page of the crawl's own
   * hosts would be: an external link is not the crawl's to wait for.
   */
  async #externalRobotsUnreachable(job: Job, file: RobotsFileState): Promise<TaskResult> {
    const { claimed, attempt } = job;
    const code = file.status === undefined ? (file.errorCode ?? 'ERR_FETCH_NETWORK') : 'ERR_CRAWL_ROBOTS_UNREACHABLE';
    const verdict = verdictOf({ status: undefined, errorCode: code, role: 'external' }, this.#policy);
    await this.#unit(claimed, async (tx) => {
      await this.#recordFailure(tx, claimed, attempt, code, undefined);
      if (file.status === undefined) this.#tally.countChecked('external', verdict);
      else this.#tally.checks.notCheckedByRobots++;
    });
    // Unverified: the second pass asks its robots.txt again (RFC 9309 §2.3.1.4: a fact of the moment).
    const isChecked = file.status === undefined;
    const counted = { isFailed: true, error: code, isRedirected: false, isChecked, isNotCheckedByRobots: !isChecked, verdict };
    this.#externalAnswered(claimed, attempt, { status: file.status, errorCode: code, method: undefined, retryAfter: undefined }, counted);
    return { kind: 'done' };
  }

  /**
   * RFC 9309 §2.3.1.4: the host's robots.txt is unreachable, so nothing of it may be
   * fetched now; that is the host's outage, not this URL's verdict. The URL is
   * tried again after a backoff (the host waits, other hosts go on), and once the
   * retries are spent it is held until the run ends and left queued for the next.
   */
  async #robotsUnreachable(job: Job, file: RobotsFileState): Promise<TaskResult> {
    const { claimed, attempt } = job;
    const decision = this.#outages.unreachable(file, claimed.id, attempt);
    const afterMs = decision === 'retry' ? retryDelayMs(attempt, this.#o.retryDelayMs, undefined, this.#o.now()) : undefined;
    this.#tally.emit({
      type: 'error',
      url: claimed.key,
      code: 'ERR_CRAWL_ROBOTS_UNREACHABLE',
      outcome: 'retry',
      attempt,
      retryInMs: afterMs,
      status: file.status,
    });
    if (afterMs === undefined) return { kind: 'refund' };
    if (this.#p.isStopping()) {
      await this.#p.requeue(claimed.id);
      return { kind: 'refund' };
    }
    this.#claims.waiting.add(claimed.id);
    return { kind: 'retry', afterMs };
  }

  /**
   * Whether the fetcher should request a redirect's target: not when it is a
   * private address the crawl may not reach (RFC 3986 §7.4; refused before any
   * connection), nor when the index already has it fetched, in flight (here, or
   * claimed by another worker sharing the index), or proved an alias — the chain
   * then ends there, and its URLs become aliases of that target without another
   * request for it. A redirect to another spelling of the URL being fetched is
   * followed: that is how its representation comes.
   */
  async #beforeRedirect(to: string, claimedId: number): Promise<'follow' | 'stop'> {
    if (!this.#o.allowPrivate && isPrivateUrl(to)) return 'stop';
    const known = await this.#store.findUrl(to);
    if (known?.id === claimedId) return 'follow';
    // A URL this crawl claimed but that still waits for its turn is settled by this chain;
    // one claimed and not waiting here is being requested, by this crawl or another worker.
    const state = known?.state;
    if (state === 'done' || state === 'failed' || state === 'alias' || (state === 'fetching' && !this.#claims.isUnfetched(known!.id, state))) return 'stop';
    // Another chain of this crawl is requesting it now (the index learns it when that chain's unit commits).
    const key = keyOf(to);
    if (key === undefined) return 'follow';
    const chain = this.#following.get(key);
    if (chain !== undefined) return chain.id === claimedId ? 'follow' : 'stop';
    let settle = (): void => {};
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.#following.set(key, { id: claimedId, settled, settle });
    return 'follow';
  }

  /** A URL that got no response: a `failed` fetch row with its code. */
  async #recordFailure(tx: IndexWriter, claimed: ClaimedUrl, attempt: number, code: string, response: FetchedResponse | undefined): Promise<void> {
    const record =
      response === undefined
        ? { urlId: claimed.id, outcome: 'failed' as const, startedAt: this.#o.now(), errorCode: code, attempts: attempt, representsUrlId: claimed.id }
        : fetchRecordOf(claimed.id, response, 'failed', { attempts: attempt, errorCode: code });
    const judged = withVerdict(response === undefined ? record : { ...record, method: response.method ?? 'GET' }, claimed.role, this.#policy);
    await tx.recordFetch(judged);
    this.#tally.countVerdict(judged);
    this.#tally.failed++;
    this.#tally.countError(code);
    // A request was made: a resource or an external link was checked, and is broken.
    if (response !== undefined) this.#tally.countChecked(claimed.role, judged.verdict);
    if (response !== undefined && claimed.role === 'external') this.#externalResponse(claimed, response, code, attempt, true, judged.verdict);
    this.#tally.emit({ type: 'error', url: claimed.key, code, outcome: 'permanent', attempt, retryInMs: undefined, status: response?.status });
  }

  /** Record a response and learn from it, in one unit of the index. */
  async #settle(tx: IndexWriter, claimed: ClaimedUrl, response: FetchedResponse, attempt: number, read?: ReadAhead): Promise<void> {
    // RFC 3986 §7.4: the fetcher followed a redirect into a private address, or its
    // connection guard refused a host that resolves to one (the URL's own, or a hop's).
    const isRefused = response.errorCode === 'ERR_FETCH_PRIVATE_ADDRESS';
    if (isRefused || (!this.#o.allowPrivate && response.hops.some((hop) => hop.to !== undefined && isPrivateUrl(hop.to)))) {
      return this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_PRIVATE_ADDRESS', response);
    }
    const status = response.status;
    // A redirect that could not be followed (loop, too many, no Location) leaves no representation.
    if (status === undefined || (response.errorCode !== undefined && isRedirectionStatus(status))) {
      return this.#recordFailure(tx, claimed, attempt, response.errorCode ?? 'ERR_FETCH_NETWORK', response);
    }
    // A body cut short (still so after the retries) is no representation: its links past the cut are unknown.
    if (isBodyCut(response.errorCode)) return this.#recordFailure(tx, claimed, attempt, response.errorCode!, response);
    // RFC 9110 §15.4.5: a 304 that answered no conditional request names no representation to keep.
    if (response.errorCode === UNSOLICITED_304) return this.#recordFailure(tx, claimed, attempt, UNSOLICITED_304, response);
    if (claimed.role === 'external') return this.#settleExternal(tx, claimed, response, attempt);
    const record = withVerdict({ ...fetchRecordOf(claimed.id, response, 'done', { attempts: attempt }), method: response.method ?? 'GET' }, claimed.role, this.#policy);
    // A crash before the unit commits leaves the URL in `fetching` with nothing of
    // its page recorded, and the index requeues it when opened again.
    const page = await this.#evidence.redirectChain(tx, claimed, response, record);
    let details: PageFacts | undefined;
    let links: AdmittedLinks | undefined;
    let stylesheet: readonly string[] | undefined;
    if (page.isFresh) {
      // A re-check: the links recorded from the page's former representation make way for this one's.
      if (this.#o.recheck) await tx.dropLinks(page.id);
      const fingerprint = fingerprintOf(response);
      await this.#evidence.ownResponse(tx, page.id, fingerprint);
      const isOk = status >= 200 && status < 300;
      if (isOk && this.#o.checkResources && isStylesheet(response)) {
        const css = await this.#admission.stylesheet(tx, page, response);
        stylesheet = css.isQueueCapped ? [...css.findings, 'PAGE_QUEUE_CAPPED'] : css.findings;
        links = css;
      } else if (isOk && claimed.role === 'page') {
        const reader = await this.#admission.pageLinks(page, response, read);
        details = reader.facts();
        await this.#evidence.contentLocation(tx, page, response, details.chain.contentLocation, fingerprint);
        links = await this.#admission.links(tx, page, reader);
        for (const report of reader.hrefFindings) for (const code of report.codes) this.#tally.countHrefFinding(code);
        if (this.#p.content !== undefined && response.body !== undefined) await this.#bodyEvidence(tx, page.id, page.url, fingerprint, reader.alternates);
        if (links.isQueueCapped) details = { ...details, pageFindings: [...details.pageFindings, 'PAGE_QUEUE_CAPPED'] };
      }
    }
    // A body cut at the size cap was read up to the cut: the page says so.
    if (response.errorCode === 'ERR_FETCH_BODY_TOO_LARGE') {
      if (details !== undefined) details = { ...details, pageFindings: [...details.pageFindings, 'PAGE_BODY_CAPPED'] };
      else if (stylesheet !== undefined) stylesheet = [...stylesheet, 'PAGE_BODY_CAPPED'];
    }
    const queued = links?.queued ?? 0;
    // For the audit: which URL's representation this is, what the page itself does
    // wrong, and the fragments it can be the target of.
    const represented = { ...record, representsUrlId: page.id };
    await tx.recordFetch(
      details !== undefined
        ? { ...represented, findings: details.pageFindings, anchors: details.anchors }
        : stylesheet !== undefined && stylesheet.length > 0
          ? { ...represented, findings: stylesheet }
          : represented,
    );
    this.#tally.countVerdict(record);
    this.#tally.fetched++;
    const error = errorCodeOf(response.errorCode, status);
    if (error !== undefined) this.#tally.countError(error);
    this.#tally.countChecked(claimed.role, record.verdict);
    if (response.hops.length > 0) this.#tally.redirected++;
    this.#tally.emit({
      type: 'page',
      url: claimed.key,
      finalUrl: response.finalUrl,
      status,
      contentType: response.contentType,
      depth: claimed.depth,
      attempts: attempt,
      links: links?.count ?? 0,
      queued,
      baseLevel: details?.chain.level,
      baseLevelsDiffer: details?.baseLevelsDiffer ?? false,
      hrefFindings: links?.hrefFindings ?? [],
      pageFindings: details?.pageFindings ?? stylesheet ?? [],
      errorCode: response.errorCode,
      role: claimed.role,
      method: record.method,
      ...(record.protocol === undefined ? {} : { protocol: record.protocol }),
    });
  }

  /** Content evidence: the page's body, as the URL its representation stands for after aliases. */
  async #bodyEvidence(tx: IndexWriter, pageId: number, url: string, digest: string, alternates: readonly DeclaredVariant[]): Promise<void> {
    const key = keyOf(url);
    if (key === undefined) return;
    const row = await tx.getUrl(pageId);
    await this.#p.content!.pageFetched(tx, { id: row?.aliasOf ?? pageId, key }, digest, alternates);
  }

  /**
   * An external link's answer: its status after the redirects,
   * which are recorded hop by hop in its fetch row and nothing more — no URL of the
   * chain is admitted, no alias learned, nothing read.
   */
  async #settleExternal(tx: IndexWriter, claimed: ClaimedUrl, response: FetchedResponse, attempt: number): Promise<void> {
    const record = withVerdict({ ...fetchRecordOf(claimed.id, response, 'done', { attempts: attempt }), method: response.method ?? 'GET' }, 'external', this.#policy);
    await tx.recordFetch(record);
    this.#tally.countVerdict(record);
    this.#tally.fetched++;
    const error = errorCodeOf(response.errorCode, response.status);
    if (error !== undefined) this.#tally.countError(error);
    this.#tally.countChecked('external', record.verdict);
    if (response.hops.length > 0) this.#tally.redirected++;
    this.#externalResponse(claimed, response, record.errorCode, attempt, false, record.verdict);
    this.#emitExternal(claimed, {
      finalUrl: response.finalUrl,
      status: response.status,
      contentType: response.contentType,
      attempts: attempt,
      errorCode: response.errorCode,
      method: record.method,
      protocol: record.protocol,
    });
  }

  /** The page event of an external link's answer: no links, no base, no findings of a page. */
  #emitExternal(
    claimed: ClaimedUrl,
    answer: Pick<PageEvent, 'finalUrl' | 'status' | 'contentType' | 'attempts' | 'errorCode' | 'method' | 'isFromCache' | 'protocol'>,
  ): void {
    const { finalUrl, status, contentType, attempts, errorCode, method, isFromCache, protocol } = answer;
    this.#tally.emit({
      type: 'page',
      url: claimed.key,
      finalUrl,
      status,
      contentType,
      depth: claimed.depth,
      attempts,
      links: 0,
      queued: 0,
      baseLevel: undefined,
      baseLevelsDiffer: false,
      hrefFindings: [],
      pageFindings: [],
      errorCode,
      role: 'external',
      method,
      ...(isFromCache === true ? { isFromCache } : {}),
      ...(protocol === undefined ? {} : { protocol }),
    });
  }


  /**
   * An external URL's answer was recorded: an unverified first answer waits for the
   * second pass; a second-pass answer replaces the first in the tally.
   */
  #externalResponse(claimed: ClaimedUrl, response: FetchedResponse, errorCode: string | undefined, attempt: number, isFailed: boolean, verdict: Verdict | undefined): void {
    const answer = { status: response.status, errorCode, method: response.method ?? 'GET', retryAfter: response.headers['retry-after'] } as const;
    const error = errorCodeOf(errorCode, response.status);
    this.#externalAnswered(claimed, attempt, answer, { isFailed, error, isRedirected: !isFailed && response.hops.length > 0, isChecked: true, isNotCheckedByRobots: false, verdict });
  }

  /** What the second pass is told of an answer, and what the tally counted of it (taken back when it is replaced). */
  #externalAnswered(
    claimed: ClaimedUrl,
    attempt: number,
    answer: Pick<ExternalAnswer, 'status' | 'errorCode' | 'method' | 'retryAfter'>,
    counted: CountedAnswer,
  ): void {
    const pass = this.#p.secondPass;
    if (pass === undefined) return;
    const first = pass.answered({ id: claimed.id, key: claimed.key, origin: originOf(claimed.key), attempts: attempt, ...answer, ...counted });
    if (first === undefined) return;
    this.#tally.retractExternal(first);
    this.#tally.checks.secondPassAsked++;
    if (counted.error === undefined) this.#tally.checks.secondPassOk++;
  }
}

/**
 * HEAD failures not worth a GET: the guard refused the address (GET would be refused
 * too), no connection was made (a name that does not resolve, a refused connection,
 * no connection in time: the method is never sent), the crawl stopped it, or the
 * fetcher broke its contract.
 */
const NO_FALLBACK: ReadonlySet<string> = new Set([
  'ERR_FETCH_PRIVATE_ADDRESS',
  'ERR_FETCH_DNS',
  'ERR_FETCH_DNS_TEMPORARY',
  'ERR_FETCH_CONNECTION_REFUSED',
  'ERR_FETCH_CONNECT_TIMEOUT',
  'ERR_FETCH_ABORTED',
  'ERR_CRAWL_FETCHER_THREW',
]);

const UNSOLICITED_304 = 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED';

/**
 * RFC 9110 §15.4.5: a 304 answers a conditional request. One that answered a request
 * sent without validators (or a redirect hop's, which never carries them) is a
 * protocol error, whether or not the fetcher said so: never "unchanged", never a page.
 */
function unsolicitedNotModified(response: FetchedResponse, isConditional: boolean): FetchedResponse {
  if (response.status !== 304 || response.errorCode !== undefined || (isConditional && response.hops.length === 0)) return response;
  return { ...response, errorCode: UNSOLICITED_304 };
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
