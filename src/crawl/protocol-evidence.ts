// RFC 3986 §6.2.4, the ladder's protocol rung: what a server proves about its URLs,
// learned as the crawl goes — a redirect chain, a negotiated Content-Location,
// a canonical link — recorded as aliases with their evidence, scoped to their
// origin, and revoked when contradicted (protocol evidence can lie: a later
// response may contradict an earlier one).

import type { FetchedResponse } from '../fetch/index.js';
import { resourceKey } from '../ladder/index.js';
import type { ClaimedUrl, FetchRecord, IndexWriter, UrlState } from '../store/index.js';
import { serialize, type AbsoluteUri } from '../uri/index.js';
import { errorCodeOf } from './broken-links.js';
import type { ClaimBook } from './claim-book.js';
import type { CrawlTally } from './crawl-tally.js';
import type { ValidCrawlerOptions } from './crawler-options.js';
import { EvidenceLedger, type Claim } from './evidence-ledger.js';
import { fetchRecordOf } from './fetch-record.js';
import { isNegotiatedVariant } from './negotiated-variant.js';
import { originKey } from './origin-key.js';
import { keyOf } from './page-links.js';
import { describeVerdict, type ScopeTest } from './scope.js';
import { parseStatusPolicy, withVerdict, type StatusPolicy } from './verdict.js';

/** The URL whose representation a response is, and whether it is new to the index. */
/** The crawl options protocol evidence reads (the crawler hands it the whole validated set). */
export type ProtocolEvidenceSettings = Pick<ValidCrawlerOptions, 'statusPolicy' | 'contentLocationAlias'>;

export interface Page {
  readonly id: number;
  /** Its retrieval URL (after redirects). */
  readonly url: string;
  readonly depth: number;
  /** Its representation is fetched for the first time: read its links and evidence. */
  readonly isFresh: boolean;
  /** The fetch row that stands for it. */
  readonly record: FetchRecord;
}

export interface ProtocolEvidenceOptions {
  readonly options: ProtocolEvidenceSettings;
  readonly scope: ScopeTest;
  readonly tally: CrawlTally;
  readonly claims: ClaimBook;
}

export class ProtocolEvidence {
  readonly #o: ProtocolEvidenceSettings;
  readonly #scope: ScopeTest;
  readonly #tally: CrawlTally;
  readonly #claims: ClaimBook;
  readonly #ledger = new EvidenceLedger();
  readonly #policy: StatusPolicy;

  constructor({ options, scope, tally, claims }: ProtocolEvidenceOptions) {
    this.#o = options;
    this.#scope = scope;
    this.#tally = tally;
    this.#claims = claims;
    this.#policy = parseStatusPolicy(options.statusPolicy);
  }

  /**
   * Redirects: every URL of the chain is an alias of the last one, whose
   * representation this is — so the last one is not fetched again. Only hops of
   * the final URL's origin become aliases (evidence stays scoped to its origin,
   * §4); every hop is recorded in the fetch row either way. Returns the URL the
   * response stands for.
   */
  async redirectChain(tx: IndexWriter, claimed: ClaimedUrl, response: FetchedResponse, record: FetchRecord): Promise<Page> {
    const own: Page = { id: claimed.id, url: response.finalUrl, depth: claimed.depth, isFresh: true, record };
    // A chain the crawl stopped (see UrlPipeline#beforeRedirect) ends at the target it declined.
    const finalUrl = response.redirectStopped === true ? (response.hops.at(-1)?.to ?? response.finalUrl) : response.finalUrl;
    const finalKey = keyOf(finalUrl);
    if (response.hops.length === 0 || finalKey === undefined || finalKey === claimed.key) return own;
    const verdict = this.#scope.check(finalUrl);
    const hopUrls = [...new Set(response.hops.map((hop) => hop.from))].filter((url) => keyOf(url) !== finalKey);
    const results = await tx.admit([
      { rawHref: finalUrl, target: finalUrl, follow: verdict === undefined, depth: claimed.depth, role: verdict === undefined ? claimed.role : 'external' },
      ...hopUrls.map((url) => ({ rawHref: url, target: url, follow: false, depth: claimed.depth, role: claimed.role })),
    ]);
    this.#tally.addQueued(results);
    const targetId = results[0]?.urlId;
    const notFresh: Page = { ...own, id: targetId ?? claimed.id, isFresh: false };
    if (targetId === undefined) return notFresh;
    const finalOrigin = originKey(finalUrl);
    for (const url of hopUrls) {
      const row = await tx.findUrl(url);
      if (row === undefined || row.id === targetId || row.aliasOf === targetId) continue;
      const detail = String(response.hops.find((hop) => hop.from === url)?.status ?? '');
      if (originKey(url) !== finalOrigin) {
        this.#tally.rejectedEvidence('redirect', url, finalUrl, detail, 'the redirect leads to another origin: evidence stays scoped to its origin');
        continue;
      }
      await tx.addAlias({ fromId: row.id, toId: targetId, evidence: 'redirect', detail });
      this.#tally.learned('redirect', url, finalUrl, detail);
    }
    if (targetId === claimed.id) return own;
    // A chain stopped before its target carries no representation of it (the 3xx is the response).
    if (verdict !== undefined || response.redirectStopped === true) return notFresh;
    const target = await tx.getUrl(targetId);
    if (target === undefined || !this.#claims.isUnfetched(targetId, target.state)) return notFresh;
    const wasWanted = results[0]?.isQueued !== true && target.state !== 'skipped';
    return { id: targetId, url: finalUrl, depth: claimed.depth, isFresh: true, record: await this.#derive(tx, targetId, target.state, response, wasWanted) };
  }

  /** The page was fetched at its own URL: revoke the claims its response contradicts. */
  async ownResponse(tx: IndexWriter, pageId: number, fingerprint: string): Promise<void> {
    for (const claim of this.#ledger.fetched(pageId, fingerprint)) {
      await this.#revoke(tx, claim, pageId, 'the response fetched at that URL itself differs');
    }
  }

  /**
   * Content-Location (RFC 9110 §8.7), as the base chain read it: the
   * representation fetched at the page is that of the URL named, so the page
   * becomes its alias and that URL counts as fetched. Accepted only from the same
   * origin, in the negotiation pattern (`contentLocationAlias`), and unless
   * contradicted (§4).
   */
  async contentLocation(
    tx: IndexWriter,
    page: Page,
    response: FetchedResponse,
    contentLocation: AbsoluteUri | undefined,
    fingerprint: string,
  ): Promise<void> {
    const value = response.headers['content-location'];
    if (this.#o.contentLocationAlias === 'off' || value === undefined || contentLocation === undefined) return;
    if (resourceKey(contentLocation) === keyOf(page.url)) return;
    const named = serialize(contentLocation);
    const reject = (reason: string): void => this.#tally.rejectedEvidence('content-location', page.url, named, value, reason);
    if (originKey(named) !== originKey(page.url)) return reject('another origin: evidence stays scoped to its origin');
    if (this.#o.contentLocationAlias === 'negotiated' && !isNegotiatedVariant(page.url, named)) {
      return reject('not a negotiated variant of the URL (a file of its directory extending its last segment)');
    }
    const verdict = this.#scope.check(named);
    if (verdict !== undefined) return reject(describeVerdict(verdict));
    const admitted = await tx.admit([{ rawHref: value, target: named, depth: page.depth }]);
    this.#tally.addQueued(admitted);
    const targetId = admitted[0]?.urlId;
    if (targetId === undefined || targetId === page.id) return;
    const claim: Claim = { fromId: page.id, record: page.record };
    const decision = this.#ledger.claim(targetId, claim, fingerprint);
    if (decision.kind === 'reject') return reject(decision.reason);
    if (decision.kind === 'contradict') {
      for (const earlier of decision.revoke) await this.#revoke(tx, earlier, targetId, decision.reason);
      if (decision.requeueTarget) {
        await tx.requeue(targetId);
        this.#tally.frontier++;
      }
      return reject(decision.reason);
    }
    await tx.addAlias({ fromId: page.id, toId: targetId, evidence: 'content-location', detail: value });
    this.#tally.learned('content-location', page.url, named, value);
    const target = await tx.getUrl(targetId);
    if (target !== undefined && this.#claims.isUnfetched(targetId, target.state)) {
      const wasWanted = admitted[0]?.isQueued !== true && target.state !== 'skipped';
      await this.#derive(tx, targetId, target.state, response, wasWanted);
      this.#ledger.markDerived(targetId);
    }
  }

  /** `<link rel=canonical>` (or a Link header one): a claim of the page, recorded, never followed. */
  async canonical(tx: IndexWriter, page: Page, canonicalId: number, target: string, rawHref: string): Promise<void> {
    if (canonicalId === page.id) return;
    await tx.addAlias({ fromId: page.id, toId: canonicalId, evidence: 'canonical', detail: rawHref });
    this.#tally.learned('canonical', page.url, target, rawHref);
  }

  /**
   * Mark `id` fetched from another URL's response: a fetch row with that
   * response's facts and none of a request's own (see fetchRecordOf). `wasWanted`:
   * a followed link had put it on the frontier before this response: its request is saved.
   */
  async #derive(tx: IndexWriter, id: number, state: UrlState, response: FetchedResponse, wasWanted: boolean): Promise<FetchRecord> {
    // In scope (a chain or a Content-Location out of scope makes no row): judged as the crawl's own host.
    const record = withVerdict(fetchRecordOf(id, response, 'done', undefined), 'page', this.#policy);
    await tx.recordFetch(record);
    this.#tally.countVerdict(record);
    this.#tally.reused++;
    if (wasWanted) this.#tally.saveFetch();
    const error = errorCodeOf(record.errorCode, record.status);
    if (error !== undefined) this.#tally.countError(error);
    if (state === 'queued') this.#tally.frontier--;
    return record;
  }

  /** Undo a Content-Location alias; its URL keeps the fetch it had (recorded again: the store queues a revoked alias). */
  async #revoke(tx: IndexWriter, claim: Claim, targetId: number, reason: string): Promise<void> {
    await tx.revokeAlias(claim.fromId);
    await tx.recordFetch(claim.record);
    const [from, to] = await Promise.all([tx.getUrl(claim.fromId), tx.getUrl(targetId)]);
    this.#tally.revokedEvidence('content-location', from?.key ?? String(claim.fromId), to?.key ?? String(targetId), reason);
  }
}
