// One claimed URL, from the frontier to its rows: robots.txt, the request (a
// redirect to a URL the index settled is not followed), the retry decision of
// the outcome table, then one unit of the index — its fetch row, the protocol
// evidence of the response, and the links of its page.

import type { FetchedResponse, SentRequest } from '../fetch/index.js';
import type { ClaimedUrl, IndexWriter } from '../store/index.js';
import { errorCodeOf } from './broken-links.js';
import type { ClaimBook } from './claim-book.js';
import { CrawlError } from './crawl-error.js';
import type { ValidCrawlOptions } from './crawl-options.js';
import type { CrawlTally } from './crawl-tally.js';
import { fingerprintOf } from './evidence-ledger.js';
import { fetchRecordOf } from './fetch-record.js';
import type { TaskResult } from './host-scheduler.js';
import { outcomeOfResponse, retryDelayMs } from './outcome-table.js';
import { pageLinks, type PageLinks } from './page-links.js';
import { isPrivateUrl } from './private-address.js';
import { ProtocolEvidence, type Page } from './protocol-evidence.js';
import type { ScopeTest } from './scope.js';

/** One claimed URL and how many times it has been tried. */
export interface Job {
  readonly claimed: ClaimedUrl;
  readonly attempt: number;
}

export interface UrlPipelineOptions {
  readonly options: ValidCrawlOptions;
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
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 305, 307, 308]);

export class UrlPipeline {
  readonly #o: ValidCrawlOptions;
  readonly #store: IndexWriter;
  readonly #scope: ScopeTest;
  readonly #tally: CrawlTally;
  readonly #claims: ClaimBook;
  readonly #evidence: ProtocolEvidence;
  readonly #p: UrlPipelineOptions;

  constructor(p: UrlPipelineOptions) {
    this.#p = p;
    this.#o = p.options;
    this.#store = p.options.store;
    this.#scope = p.scope;
    this.#tally = p.tally;
    this.#claims = p.claims;
    this.#evidence = new ProtocolEvidence(p);
  }

  async process(job: Job): Promise<TaskResult> {
    const { claimed, attempt } = job;
    this.#claims.waiting.delete(claimed.id);
    // Settled while it waited: the end of a redirect chain, or a Content-Location, was this URL.
    if ((await this.#store.getUrl(claimed.id))?.state !== 'fetching') return { kind: 'refund' };
    this.#claims.inFlight.add(claimed.id);
    try {
      const robots = this.#o.robots;
      const onRequest = (request: SentRequest): void => this.#tally.countRequest(request.kind, attempt);
      if (robots !== undefined) {
        let isAllowed: boolean;
        try {
          isAllowed = await robots.isAllowed(claimed.key, { onRequest });
        } catch {
          await this.#store.transact((tx) => this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_FETCHER_THREW', undefined));
          return { kind: 'done' };
        }
        if (!isAllowed) {
          await this.#store.transact((tx) => this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_ROBOTS_DISALLOWED', undefined));
          return { kind: 'refund' };
        }
      }
      if (this.#p.isStopping()) {
        await this.#p.requeue(claimed.id);
        return { kind: 'refund' };
      }
      let response: FetchedResponse;
      try {
        response = await this.#o.fetcher.fetch(claimed.key, this.#p.signal, {
          beforeRedirect: (hop) => this.#beforeRedirect(hop.to, claimed.id),
          onRequest,
        });
      } catch {
        response = thrownResponse(claimed.key, this.#o.now());
      }
      if (this.#p.isStopping() && response.errorCode === 'ERR_FETCH_ABORTED') {
        await this.#p.requeue(claimed.id);
        return { kind: 'done' };
      }
      const outcome = outcomeOfResponse(response.errorCode, response.status);
      if (outcome === 'retry' && attempt <= this.#o.retries) {
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
      // One unit per response: its fetch row, aliases and links are recorded together, or not at all.
      await this.#store.transact((tx) => this.#settle(tx, claimed, response, attempt));
      if (outcome === 'fatal') this.#p.fail(new CrawlError('ERR_CRAWL_STOPPED', `fetch returned ${response.errorCode}`, {}));
      return { kind: 'done' };
    } finally {
      this.#claims.inFlight.delete(claimed.id);
    }
  }

  /**
   * Whether the fetcher should request a redirect's target: not when it is a
   * private address the crawl may not reach (RFC 3986 §7.4; refused before any
   * connection), nor when the index already has it fetched, in flight, or
   * proved an alias — the chain then ends there, and its URLs become aliases of
   * that target without another request for it. A redirect to another spelling
   * of the URL being fetched is followed: that is how its representation comes.
   */
  async #beforeRedirect(to: string, claimedId: number): Promise<'follow' | 'stop'> {
    if (!this.#o.allowPrivate && isPrivateUrl(to)) return 'stop';
    const known = await this.#store.findUrl(to);
    if (known === undefined || known.id === claimedId) return 'follow';
    // A URL claimed but still waiting for its turn is settled by this chain; one in flight is not.
    const { state } = known;
    return state === 'done' || state === 'failed' || state === 'alias' || this.#claims.isInFlight(known.id, state) ? 'stop' : 'follow';
  }

  /** A URL that got no response: a `failed` fetch row with its code. */
  async #recordFailure(tx: IndexWriter, claimed: ClaimedUrl, attempt: number, code: string, response: FetchedResponse | undefined): Promise<void> {
    const record =
      response === undefined
        ? { urlId: claimed.id, outcome: 'failed' as const, startedAt: this.#o.now(), errorCode: code, attempts: attempt, representsUrlId: claimed.id }
        : fetchRecordOf(claimed.id, response, 'failed', { attempts: attempt, errorCode: code });
    await tx.recordFetch(record);
    this.#tally.failed++;
    this.#tally.countError(code);
    this.#tally.emit({ type: 'error', url: claimed.key, code, outcome: 'permanent', attempt, retryInMs: undefined, status: response?.status });
  }

  /** Record a response and learn from it, in one unit of the index. */
  async #settle(tx: IndexWriter, claimed: ClaimedUrl, response: FetchedResponse, attempt: number): Promise<void> {
    // RFC 3986 §7.4: the fetcher followed a redirect into a private address.
    if (!this.#o.allowPrivate && response.hops.some((hop) => hop.to !== undefined && isPrivateUrl(hop.to))) {
      return this.#recordFailure(tx, claimed, attempt, 'ERR_CRAWL_PRIVATE_ADDRESS', response);
    }
    const status = response.status;
    // A redirect that could not be followed (loop, too many, no Location) leaves no representation.
    if (status === undefined || (response.errorCode !== undefined && REDIRECT_STATUSES.has(status))) {
      return this.#recordFailure(tx, claimed, attempt, response.errorCode ?? 'ERR_FETCH_NETWORK', response);
    }
    const record = fetchRecordOf(claimed.id, response, 'done', { attempts: attempt });
    // A crash before the unit commits leaves the URL in `fetching` with nothing of
    // its page recorded, and the index requeues it when opened again (DESIGN.md §5).
    const page = await this.#evidence.redirectChain(tx, claimed, response, record);
    let details: PageLinks | undefined;
    let queued = 0;
    if (page.isFresh) {
      const fingerprint = fingerprintOf(response);
      await this.#evidence.ownResponse(tx, page.id, fingerprint);
      if (status >= 200 && status < 300) {
        details = this.#pageLinks(page, response);
        await this.#evidence.contentLocation(tx, page, response, details.chain.contentLocation, fingerprint);
        queued = await this.#admitLinks(tx, page, details);
      }
    }
    // For the audit: which URL's representation this is, what the page itself does
    // wrong, and the fragments it can be the target of.
    const represented = { ...record, representsUrlId: page.id };
    await tx.recordFetch(details === undefined ? represented : { ...represented, findings: details.pageFindings, anchors: details.anchors });
    this.#tally.fetched++;
    const error = errorCodeOf(response.errorCode, status);
    if (error !== undefined) this.#tally.countError(error);
    if (response.hops.length > 0) this.#tally.redirected++;
    this.#tally.emit({
      type: 'page',
      url: claimed.key,
      finalUrl: response.finalUrl,
      status,
      contentType: response.contentType,
      depth: claimed.depth,
      attempts: attempt,
      links: details?.entries.length ?? 0,
      queued,
      baseLevel: details?.chain.level,
      baseLevelsDiffer: details?.baseLevelsDiffer ?? false,
      hrefFindings: details?.hrefFindings ?? [],
      pageFindings: details?.pageFindings ?? [],
      errorCode: response.errorCode,
    });
  }

  /** The page's references, resolved against its base chain (pure). */
  #pageLinks(page: Page, response: FetchedResponse): PageLinks {
    const depth = page.depth + 1;
    const details = pageLinks(response, {
      id: page.id,
      url: page.url,
      depth,
      baseMode: this.#o.baseMode,
      follow: this.#o.follow,
      mayFollow: (_target, link) => depth <= this.#o.maxDepth && this.#scope.checkLink(link) === undefined,
    });
    for (const report of details.hrefFindings) for (const code of report.codes) this.#tally.countHrefFinding(code);
    return details;
  }

  /** The page's references in one admit batch, and its canonical link as evidence. Returns how many URLs they queued. */
  async #admitLinks(tx: IndexWriter, page: Page, details: PageLinks): Promise<number> {
    if (details.entries.length === 0) return 0;
    const results = await tx.admit(details.entries);
    const queued = this.#tally.addLinks(results, details.entries.map((entry) => entry.follow !== false));
    const index = details.canonicalIndex;
    const canonicalId = index === undefined ? undefined : results[index]?.urlId;
    if (canonicalId !== undefined) {
      const entry = details.entries[index!]!;
      await this.#evidence.canonical(tx, page, canonicalId, entry.target ?? entry.rawHref, entry.rawHref);
    }
    return queued;
  }
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
