// What one crawl() did: its counts, the events it reports as it goes, and the
// summary at the end. Injected into the loop and the pipeline, so that neither
// keeps counters of its own.

import { ALIAS_EVIDENCE, type AliasEvidence } from '../ladder/index.js';
import { MATCH_RUNGS, URL_STATES, zeroCounts, type AdmitResult, type MatchRung, type StoreStats } from '../store/index.js';
import type { SentRequest } from '../fetch/index.js';
import { brokenKindOf, errorCodeOf, noBroken, type BrokenKind } from './broken-links.js';
import { noRequests, requestTotal, type CheckCounts, type CrawlEvent, type CrawlSummary, type ProgressEvent, type RequestCounts, type SeedOutcome, type StopReason } from './crawl-summary.js';
import type { HostPace } from './host-pace.js';
import type { CountedAnswer } from './second-pass.js';
import type { FetchRecord, IndexWriter, UrlRole, Verdict } from '../store/index.js';
import { VERDICTS } from './verdict.js';

/** Whose outcome a request belongs to: a claimed URL (its id), or an origin whose sitemaps are read. */
export type RequestOwner = number | string;

type MutableRequestCounts = { -readonly [K in keyof RequestCounts]: number };

export interface CrawlTallyOptions {
  readonly onEvent: ((event: CrawlEvent) => void) | undefined;
  /** Called when `onEvent` throws: the crawl stops. */
  readonly onEventError: (error: unknown) => void;
  readonly now: () => number;
  /** The hosts' pauses and rates, shown in progress events. */
  readonly pace?: HostPace | undefined;
}

export class CrawlTally {
  readonly #options: CrawlTallyOptions;
  readonly #startedAt: number;
  /** Every HTTP request sent, by what it was for (told by the fetch layer as each is sent). */
  readonly requestsByKind: MutableRequestCounts = noRequests();
  /**
   * The requests whose outcomes are recorded in units of the index (`recordRequests`):
   * what the run's row counts while it runs, so that a run killed before its end
   * still counts every request whose outcome it committed.
   */
  readonly recordedRequests: MutableRequestCounts = noRequests();
  /** Requests sent whose owner's outcome is not recorded yet. */
  readonly #pending = new Map<RequestOwner, MutableRequestCounts>();
  /** The run's id in the index, once it is recorded. */
  runId: number | undefined;
  fetched = 0;
  failed = 0;
  reused = 0;
  fetchesSaved = 0;
  /** URLs whose own request was redirected and ended at a representation. */
  redirected = 0;
  links = 0;
  queued = 0;
  /** Requests of a re-check answered 304 Not Modified. */
  unchanged = 0;
  rejected = 0;
  revoked = 0;
  /** URLs waiting on the frontier: read from the index at the start, then kept from this run's counts. */
  frontier = 0;
  readonly linksByRung: Record<MatchRung, number> = zeroCounts(MATCH_RUNGS);
  readonly aliases: Record<AliasEvidence, number> = zeroCounts(ALIAS_EVIDENCE);
  readonly errors: Record<string, number> = {};
  /** The URLs judged broken, by kind: what the summary's `broken` line counts (with `verdicts.broken`). */
  readonly #broken: Record<BrokenKind, number> = noBroken();
  readonly checks: { -readonly [K in keyof CheckCounts]: number } = {
    resourcesChecked: 0,
    resourcesBroken: 0,
    externalChecked: 0,
    externalFromCache: 0,
    externalBroken: 0,
    secondPassAsked: 0,
    secondPassOk: 0,
    headFallbacks: 0,
    notCheckedByRobots: 0,
  };
  readonly hrefFindings: Record<string, number> = {};
  /** The verdicts of the fetch rows this run recorded (verdict.ts): each URL settled once. */
  readonly verdicts: Record<Verdict, number> = zeroCounts(VERDICTS);
  /** robots.txt requests by URL (`scheme://host[:port]/robots.txt`), whoever asked: the pages, the sitemaps. */
  readonly #robotsRequests = new Map<string, number>();

  constructor(options: CrawlTallyOptions) {
    this.#options = options;
    this.#startedAt = options.now();
  }

  emit(event: CrawlEvent): void {
    const onEvent = this.#options.onEvent;
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch (error) {
      this.#options.onEventError(error);
    }
  }

  /** Every request sent, retries, redirect hops, robots.txt and sitemaps included. */
  get requests(): number {
    return requestTotal(this.requestsByKind);
  }

  /**
   * An HTTP request was sent (the fetch layer says so as it sends it): the one place
   * "requests" is counted. The first request of a URL's second or later attempt is a retry.
   */
  countRequest(request: SentRequest, attempt: number, owner: RequestOwner): void {
    const kind = request.kind;
    this.#count(kind === 'robots' ? 'robots' : kind === 'redirect' ? 'redirects' : attempt > 1 ? 'retries' : 'fetches', owner);
    if (kind === 'robots') this.#robotsRequests.set(request.url, (this.#robotsRequests.get(request.url) ?? 0) + 1);
  }

  /** A request for a sitemap of `origin` was sent (a redirect hop of one too); robots.txt asked on the way is `countRequest`'s. */
  countSitemapRequest(origin: string): void {
    this.#count('sitemaps', origin);
  }

  #count(key: keyof RequestCounts, owner: RequestOwner): void {
    this.requestsByKind[key]++;
    let pending = this.#pending.get(owner);
    if (pending === undefined) this.#pending.set(owner, (pending = noRequests()));
    pending[key]++;
  }

  /**
   * Called in the unit that records `owner`'s outcome: its requests are recorded,
   * and the run's counts in the index say so in the same unit (committed with the
   * outcome, or lost with it and sent again on resume).
   */
  async recordRequests(tx: IndexWriter, owner: RequestOwner, isRetry = false): Promise<void> {
    const pending = this.#pending.get(owner);
    if (this.runId === undefined || (pending === undefined && !isRetry)) return;
    this.#pending.delete(owner);
    const r = this.recordedRequests;
    // A retry writes the run's totals again: those of a unit rolled back after they were added.
    if (pending !== undefined) for (const key of Object.keys(r) as (keyof RequestCounts)[]) r[key] += pending[key];
    await tx.recordRunCounts(this.runId, { requests: requestTotal(r), requestsByKind: { ...r } });
  }

  /** How many requests for `robotsUrl` this run sent (its redirect hops not included). */
  robotsRequestsTo(robotsUrl: string): number {
    return this.#robotsRequests.get(robotsUrl) ?? 0;
  }

  /** URLs that an admission or a requeue put on the frontier. */
  addQueued(results: readonly AdmitResult[]): number {
    let queued = 0;
    for (const result of results) if (result.isQueued) queued++;
    this.frontier += queued;
    return queued;
  }

  /**
   * A request the crawl meant to make and did not, because before it was made the
   * index had joined its URL to a resource already known: the one
   * place "fetches saved" is counted. See `addLinks` and ProtocolEvidence#derive.
   */
  saveFetch(): void {
    this.fetchesSaved++;
  }

  /** A page's links were admitted (`follows[i]`: whether link i is followed). */
  addLinks(results: readonly AdmitResult[], follows: readonly boolean[]): number {
    results.forEach((result, i) => {
      if (result.rung !== undefined) this.linksByRung[result.rung]++;
      // A followed link whose spelling is new to the index but that the syntax or scheme rung
      // joined to a URL already followed: a crawler keyed on strings would request it.
      const isNewSpelling = result.ladderRung === 'syntax' || result.ladderRung === 'scheme';
      if (isNewSpelling && follows[i] === true && !result.isQueued) this.saveFetch();
    });
    this.links += results.length;
    const queued = this.addQueued(results);
    this.queued += queued;
    return queued;
  }

  /**
   * A URL of `role` was requested and recorded with `verdict`: resources and external
   * links are counted as checked, and broken.
   */
  countChecked(role: UrlRole, verdict: Verdict | undefined): void {
    if (role === 'page') return;
    const isBroken = verdict === 'broken';
    if (role === 'resource') {
      this.checks.resourcesChecked++;
      if (isBroken) this.checks.resourcesBroken++;
    } else {
      this.checks.externalChecked++;
      if (isBroken) this.checks.externalBroken++;
    }
  }

  /** An external URL answered from the verdict cache: no request. */
  countFromCache(record: FetchRecord): void {
    this.checks.externalFromCache++;
    this.countVerdict(record);
    const error = errorCodeOf(record.errorCode, record.status);
    if (error !== undefined) this.countError(error);
    if (record.verdict === 'broken') this.checks.externalBroken++;
  }

  /**
   * An external URL's first answer, replaced by its second-pass answer: what it
   * counted is taken back, so that each URL counts once, with its last answer.
   */
  retractExternal(first: CountedAnswer): void {
    if (first.isFailed) this.failed--;
    else this.fetched--;
    if (first.isRedirected) this.redirected--;
    if (first.isChecked) this.checks.externalChecked--;
    if (first.isNotCheckedByRobots) this.checks.notCheckedByRobots--;
    if (first.verdict !== undefined) this.verdicts[first.verdict]--;
    if (first.verdict === 'broken') {
      this.#broken[brokenKindOf(first.error)]--;
      if (first.isChecked) this.checks.externalBroken--;
    }
    if (first.error === undefined) return;
    const left = (this.errors[first.error] ?? 0) - 1;
    if (left > 0) this.errors[first.error] = left;
    else delete this.errors[first.error];
  }

  /** A fetch row was recorded, judged: its verdict counted, and a broken one by kind. */
  countVerdict(record: Pick<FetchRecord, 'verdict' | 'errorCode' | 'status'>): void {
    const { verdict } = record;
    if (verdict === undefined) return;
    this.verdicts[verdict]++;
    if (verdict === 'broken') this.#broken[brokenKindOf(errorCodeOf(record.errorCode, record.status))]++;
  }

  countError(code: string): void {
    this.errors[code] = (this.errors[code] ?? 0) + 1;
  }

  countHrefFinding(code: string): void {
    this.hrefFindings[code] = (this.hrefFindings[code] ?? 0) + 1;
  }

  learned(evidence: AliasEvidence, from: string, to: string, detail: string): void {
    this.aliases[evidence]++;
    this.emit({ type: 'evidence', action: 'learned', evidence, from, to, detail, reason: undefined });
  }

  rejectedEvidence(evidence: AliasEvidence, from: string, to: string, detail: string, reason: string): void {
    this.rejected++;
    this.emit({ type: 'evidence', action: 'rejected', evidence, from, to, detail, reason });
  }

  revokedEvidence(evidence: AliasEvidence, from: string, to: string, reason: string): void {
    this.revoked++;
    this.emit({ type: 'evidence', action: 'revoked', evidence, from, to, detail: undefined, reason });
  }

  /** Counts after each URL is settled; with `secondPass`, the wait before the second pass and its URLs. */
  progress(inFlight: number, secondPass?: { readonly waitMs: number; readonly urls: number }): void {
    this.emit({
      type: 'progress',
      requests: this.requests,
      fetched: this.fetched,
      failed: this.failed,
      queued: Math.max(0, this.frontier),
      inFlight,
      ...(secondPass === undefined ? {} : { secondPassInMs: secondPass.waitMs, secondPassUrls: secondPass.urls }),
      ...this.#paceNow(),
    });
  }

  #paceNow(): Pick<ProgressEvent, 'pausedHosts' | 'slowedHosts'> {
    const paused = this.#options.pace?.paused() ?? [];
    const slowed = this.#options.pace?.slowed() ?? [];
    return { ...(paused.length === 0 ? {} : { pausedHosts: paused }), ...(slowed.length === 0 ? {} : { slowedHosts: slowed }) };
  }

  summary(stoppedBy: StopReason, index: StoreStats | undefined, seeds: readonly SeedOutcome[]): Omit<CrawlSummary, 'robotsOutages' | 'hostsUnreachable'> {
    return {
      stoppedBy,
      seeds,
      requests: this.requests,
      requestsByKind: { ...this.requestsByKind },
      pagesFetched: this.fetched,
      pagesFailed: this.failed,
      representationsReused: this.reused,
      fetchesSaved: this.fetchesSaved,
      links: this.links,
      linksByRung: { ...this.linksByRung },
      queued: this.queued,
      aliasesLearned: { ...this.aliases },
      evidenceRejected: this.rejected,
      evidenceRevoked: this.revoked,
      errorsByCode: { ...this.errors },
      broken: { ...this.#broken },
      verdicts: { ...this.verdicts },
      redirected: this.redirected,
      ...this.checks,
      hrefFindings: { ...this.hrefFindings },
      index: index ?? emptyStats(),
      durationMs: this.#options.now() - this.#startedAt,
    };
  }
}

function emptyStats(): StoreStats {
  return {
    urlsByState: zeroCounts(URL_STATES),
    links: 0,
    linksByRung: zeroCounts(MATCH_RUNGS),
    linksWithoutTarget: 0,
    aliasesByEvidence: zeroCounts(ALIAS_EVIDENCE),
    fetches: 0,
  };
}
