// What one crawl() did, and the events it reports as it goes.

import type { BaseLevel } from '../base/index.js';
import type { AliasEvidence } from '../ladder/index.js';
import type { FetchProtocol, MatchRung, StoreStats, UrlRole, Verdict } from '../store/index.js';
import type { BrokenKind } from './broken-links.js';
import type { ArchiveSummary } from './crawl-archive.js';
import type { Outcome } from './outcome-table.js';
import type { RobotsOutage } from './robots-outages.js';
import type { UnreachableHost } from './host-breaker.js';
import type { HostPaceReport, PausedHost, SlowedHost } from './host-pace.js';

/** What became of a seed. */
export interface SeedOutcome {
  /** The seed, at the scheme rung. */
  readonly url: string;
  /** Fetched with a usable response (status below 400, its body whole or cut at the size cap), itself or as the alias of a URL that was. */
  readonly isFetched: boolean;
  /** Why not: the error of its fetch (`ERR_*`, `HTTP_nnn`), or its state. */
  readonly reason: string | undefined;
}

/** What the crawl learned from bodies, for its summary and its run's record. */
export interface ContentEvidenceSummary {
  /** Claims held back as predicted duplicates. */
  readonly deferred: number;
  /** Of those, joined by a rule without a request. */
  readonly joined: number;
  /** Of those, fetched in the end (declared later, no proof, or their rule contradicted), samples included. */
  readonly released: number;
  /** Of those released, fetched as samples to test a rule that lacked support. */
  readonly sampled: number;
  /** The rules learned, most supported first. */
  readonly rules: readonly {
    readonly prefixes: readonly [string, string];
    readonly support: number;
    readonly contradictions: number;
    readonly provedBy: string;
  }[];
}

/**
 * Why the crawl ended. `seeds-failed`: the frontier is empty and no seed was fetched
 * with a usable response (refused, unreachable, 4xx/5xx, robots.txt): nothing was crawled.
 */
export type StopReason = 'frontier-empty' | 'max-pages' | 'signal' | 'fatal' | 'seeds-failed';

/** Every HTTP request a crawl sent, by what it was for. */
export interface RequestCounts {
  /** The first request of each URL requested. */
  readonly fetches: number;
  /** The first request of each further attempt of a URL (its retries). */
  readonly retries: number;
  /** Requests that followed a redirect (each hop's target). */
  readonly redirects: number;
  /** robots.txt requests (their redirect hops included). */
  readonly robots: number;
  /** Sitemap requests (their redirect hops included); none when the `sitemap` setting is off. */
  readonly sitemaps: number;
}

/** Counts of no request, to add to. */
export function noRequests(): { -readonly [K in keyof RequestCounts]: number } {
  return { fetches: 0, retries: 0, redirects: 0, robots: 0, sitemaps: 0 };
}

/** Every request counted in `counts`. */
export function requestTotal(counts: RequestCounts): number {
  return counts.fetches + counts.retries + counts.redirects + counts.robots + counts.sitemaps;
}

/** What one `crawl()` did (this run only, except `index`); the checks of resources and external links are `CheckCounts`. */
export interface CrawlSummary extends CheckCounts {
  readonly stoppedBy: StopReason;
  /** What became of each seed. */
  readonly seeds: readonly SeedOutcome[];
  /** Every HTTP request sent: the sum of `requestsByKind` (fetches, retries, redirect hops, robots.txt, sitemaps). */
  readonly requests: number;
  readonly requestsByKind: RequestCounts;
  /** URLs fetched and recorded with a response (whatever its status). */
  readonly pagesFetched: number;
  /** URLs recorded as failed: no usable response, robots.txt, a redirect into a private address. */
  readonly pagesFailed: number;
  /**
   * URLs that got no request of their own because another URL's response was
   * theirs: the end of a redirect chain, or the `Content-Location` of a response
   * (RFC 3986 §6.2.4: the server proved them one resource).
   */
  readonly representationsReused: number;
  /**
   * Requests avoided: URLs the crawl meant to request (named by a followed link) that it
   * never requested because, before the request, the index had joined them to a
   * resource already known — a new spelling the syntax or scheme rung folded, or a
   * queued URL whose representation came with another URL's response. A URL that
   * became an alias after its own request saved nothing.
   */
  readonly fetchesSaved: number;
  /** Links recorded (one per reference found, in pages and in `Link` headers). */
  readonly links: number;
  /** Those links by the rung at which their target met a URL already known: `new` is a new URL. */
  readonly linksByRung: Readonly<Record<MatchRung, number>>;
  /** URLs put on the frontier by this run's links. */
  readonly queued: number;
  /** Protocol-rung evidence recorded, by kind (canonical links are recorded, never followed). */
  readonly aliasesLearned: Readonly<Record<AliasEvidence, number>>;
  /** Evidence not accepted (another origin, a Content-Location outside the negotiation pattern, contradicted). */
  readonly evidenceRejected: number;
  /** Aliases undone by contradicting evidence. */
  readonly evidenceRevoked: number;
  /**
   * URLs settled with an error, by code: a failure or a cut body (`ERR_FETCH_*`,
   * `ERR_CRAWL_*`), or an HTTP status of 400 or more (`HTTP_nnn`) — what `stats`
   * counts as errors (`errorCodeOf`, broken-links.ts).
   */
  readonly errorsByCode: Readonly<Record<string, number>>;
  /** Broken links: URLs whose answer was a 4xx, a 5xx, or none (a network failure, a timeout, a redirect leading nowhere). */
  readonly broken: Readonly<Record<BrokenKind, number>>;
  /**
   * The URLs this run settled (each once: pages, resources, external links, refusals
   * included), by the verdict recorded on their fetch rows (src/crawl/verdict.ts):
   * `ok`, `broken` (what `LINK_BROKEN` reports), `unverified` (`LINK_UNVERIFIED`).
   */
  readonly verdicts: Readonly<Record<Verdict, number>>;
  /** URLs whose own request was redirected and ended at a representation. */
  readonly redirected: number;
  /** Browser-style href fixes by finding code (`HREF_*` of the findings catalog, src/findings.ts), for the audit. */
  readonly hrefFindings: Readonly<Record<string, number>>;
  /**
   * Hosts whose robots.txt was unreachable (RFC 9309 §2.3.1.4: nothing of them is
   * fetched meanwhile), with the URLs left queued for the next run.
   */
  readonly robotsOutages: readonly RobotsOutage[];
  /**
   * Hosts paused for the rest of the run after requests in a row got no answer
   * (host-breaker.ts): the failure that paused each, and its URLs recorded
   * `ERR_CRAWL_HOST_UNREACHABLE` without a request.
   */
  readonly hostsUnreachable: readonly UnreachableHost[];
  /**
   * Hosts that paused the crawl (a 429 or 503 with `Retry-After`) or got it to slow
   * down (429s), by name, with the figures of the responses they sent (host-pace.ts);
   * `[]` when none did. Absent in summaries made before it was kept.
   */
  readonly politeness?: readonly HostPaceReport[] | undefined;
  /** With `contentEvidence` only: predicted duplicates held back, joined and fetched, and the rules learned (heuristic). */
  readonly contentEvidence?: ContentEvidenceSummary | undefined;
  /** With `warc`: what the archive kept (its files, records, index) and its first failure. */
  readonly archive?: ArchiveSummary | undefined;
  /** The whole index at the end (all runs): duplicates avoided per rung are `index.linksByRung`. */
  readonly index: StoreStats;
  readonly durationMs: number;
}

/** What one run checked beyond the pages it crawled: resources, external links, and what robots.txt kept it from. */
export interface CheckCounts {
  /** URLs of the `resource` role (in scope, used by a page: images, stylesheets, scripts, …) requested once each. */
  readonly resourcesChecked: number;
  /** Of those, broken: a 4xx, a 5xx, or no usable response. */
  readonly resourcesBroken: number;
  /** URLs of the `external` role (out of scope) requested once each (HEAD, else GET). */
  readonly externalChecked: number;
  /**
   * URLs of the `external` role answered from the verdict cache of an earlier run
   * (`CrawlRuntime.verdictCache`): recorded without any request.
   */
  readonly externalFromCache: number;
  /** Of the external links checked or answered from the cache, broken: a 4xx, a 5xx, or no usable response (a host that did not answer included). */
  readonly externalBroken: number;
  /**
   * External links whose answer this run was unverified (timeout, network error, 5xx,
   * 429, a bot wall) asked once more by the second pass (`secondPass`), after a polite wait.
   */
  readonly secondPassAsked: number;
  /** Of those, how many answered without an error the second time. */
  readonly secondPassOk: number;
  /** External links requested with HEAD and, HEAD failing or answering an error, again with GET. */
  readonly headFallbacks: number;
  /** URLs not requested because robots.txt disallows them (any role): recorded as `ERR_CRAWL_ROBOTS_DISALLOWED`, not checked. */
  readonly notCheckedByRobots: number;
}

/** An href that needed browser-style clean-up, or could not be used. */
export interface HrefFindingReport {
  readonly rawHref: string;
  readonly codes: readonly string[];
}

/** A page was fetched (or its representation came with another URL's response) and its links admitted. */
export interface PageEvent {
  readonly type: 'page';
  /** The URL claimed from the frontier (its key). */
  readonly url: string;
  /** The retrieval URL after redirects (RFC 3986 §5.1.3). */
  readonly finalUrl: string;
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly depth: number;
  readonly attempts: number;
  /** Links recorded from this response (0 when it had none, or its page was already known). */
  readonly links: number;
  /** URLs these links put on the frontier. */
  readonly queued: number;
  /** The base-chain level that resolved the page's links. */
  readonly baseLevel: BaseLevel | undefined;
  /** Whether `rfc3986` and `browser` base modes resolve this page's relative links differently. */
  readonly baseLevelsDiffer: boolean;
  /** Hrefs that were cleaned up or unusable, with their finding codes. */
  readonly hrefFindings: readonly HrefFindingReport[];
  /** Findings about the page and its base chain (`HTML_*`, `BASE_*` of the findings catalog, src/findings.ts). */
  readonly pageFindings: readonly string[];
  /** The request ended with a code but kept a response (a cut body). */
  readonly errorCode: string | undefined;
  /** What the URL is to the crawl: a `page` read for links, a `resource` checked (a stylesheet read for url()), an `external` link checked. */
  readonly role?: UrlRole | undefined;
  /** The method of the request that gave the answer. */
  readonly method?: 'GET' | 'HEAD' | undefined;
  /** The answer was taken from the verdict cache of an earlier run: no request was made. */
  readonly isFromCache?: boolean | undefined;
  /** The protocol the answer came over (`http/1.1`, or `h2` when the server chose HTTP/2); absent when none said. */
  readonly protocol?: FetchProtocol | undefined;
}

/** A URL could not be fetched, or will be tried again. */
export interface ErrorEvent {
  readonly type: 'error';
  readonly url: string;
  readonly code: string;
  readonly outcome: Outcome;
  readonly attempt: number;
  /** When it will be tried again; `undefined` when it was recorded. */
  readonly retryInMs: number | undefined;
  readonly status: number | undefined;
}

/** Protocol-rung evidence learned, rejected or revoked. */
export interface EvidenceEvent {
  readonly type: 'evidence';
  readonly action: 'learned' | 'rejected' | 'revoked';
  readonly evidence: AliasEvidence;
  readonly from: string;
  readonly to: string;
  /** The status of a redirect hop, or the header value or href as written. */
  readonly detail: string | undefined;
  /** Why it was rejected or revoked. */
  readonly reason: string | undefined;
}

/** Counts after each URL is settled. */
export interface ProgressEvent {
  readonly type: 'progress';
  readonly requests: number;
  readonly fetched: number;
  readonly failed: number;
  /** URLs waiting on the frontier (an estimate kept from this run's counts). */
  readonly queued: number;
  readonly inFlight: number;
  /**
   * The second pass (`secondPass`) waits this long (ms) before it asks `secondPassUrls`
   * external links again; absent otherwise.
   */
  readonly secondPassInMs?: number | undefined;
  readonly secondPassUrls?: number | undefined;
  /** Hosts paused now by a `Retry-After`, with the ms left; absent when none is. */
  readonly pausedHosts?: readonly PausedHost[] | undefined;
  /** Hosts whose rate 429s lowered, with the delay between two requests now (ms); absent when none is. */
  readonly slowedHosts?: readonly SlowedHost[] | undefined;
}

export type CrawlEvent = PageEvent | ErrorEvent | EvidenceEvent | ProgressEvent;
