// The rows reports read from the index: URLs, fetches, aliases, links, edges and
// the rest. Everything streams: async iterables over cursors, never whole tables in memory.

import type { BaseLevel } from '../base/index.js';
import type { AliasEvidence } from '../ladder/index.js';
import type { UrlRecord } from './admission-records.js';
import type { RedirectHop } from './fetch-records.js';
import type { FetchMethod, FetchProtocol, MatchRung, Verdict } from './url-vocabulary.js';

/** The link that first named a URL: where a crawl found it. */
export interface FirstLink {
  /** The page (`undefined` for a seed or a URL learned from a response). */
  readonly fromUrlId: number | undefined;
  readonly fromKey: string | undefined;
  readonly rawHref: string;
  /** The element and attribute of that link on its page (`a`/`href`, `img`/`src` …), when known. */
  readonly element?: string | undefined;
  readonly attribute?: string | undefined;
}

export interface FetchRow {
  readonly id: number;
  readonly urlId: number;
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly status: number | undefined;
  readonly contentType: string | undefined;
  readonly bytes: number | undefined;
  readonly errorCode: string | undefined;
  readonly finalUrl: string | undefined;
  readonly attempts: number;
  readonly redirects: readonly RedirectHop[];
  readonly findings: readonly string[];
  readonly anchors: readonly string[];
  /**
   * The URL whose representation this fetch stands for (`FetchRecord.representsUrlId`);
   * `undefined` in rows written before it was recorded (migration 003).
   */
  readonly representsUrlId: number | undefined;
  /** `FetchRecord.etag`; absent in rows written before migration 007. */
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
  /** `FetchRecord.isNotModified`: this request was answered 304. */
  readonly isNotModified?: boolean | undefined;
  /** `GET` or `HEAD`; `undefined` when no request was made, and in rows written before migration 006. */
  readonly method: FetchMethod | undefined;
  /** `FetchRecord.digest`; absent in rows written before migration 009. */
  readonly digest?: string | undefined;
  /**
   * `FetchRecord.verdict`; `undefined` in rows written before migration 012 (readers
   * derive it with `verdictOfRow`, src/crawl/verdict.ts).
   */
  readonly verdict?: Verdict | undefined;
  /** `FetchRecord.protocol`; `undefined` in rows written before migration 013. */
  readonly protocol?: FetchProtocol | undefined;
}

export interface AliasRow {
  readonly fromId: number;
  readonly fromKey: string;
  readonly toId: number;
  readonly toKey: string;
  readonly evidence: AliasEvidence;
  readonly detail: string | undefined;
  readonly createdAt: number;
}

export interface UrlHistory {
  readonly url: UrlRecord;
  readonly firstLink: FirstLink | undefined;
  readonly fetches: readonly FetchRow[];
  /** Aliases whose `from` is this URL (what it was proved to be). */
  readonly aliasesFrom: readonly AliasRow[];
  /** Aliases whose `to` is this URL (what was proved to be it). */
  readonly aliasesTo: readonly AliasRow[];
}


/** A URL of the index with the outcome of its last fetch. */
export interface UrlRow extends UrlRecord {
  readonly firstLink: FirstLink | undefined;
  /** The last fetch of this URL, if any. */
  readonly lastFetch: FetchRow | undefined;
}

/** A spelling seen of a URL that differs from its key, and the rung that folds it. */
export interface FormRow {
  readonly urlId: number;
  readonly text: string;
  /** `string`: seen as written; `syntax`: only the syntax-rung form of a spelling seen. */
  readonly rung: 'string' | 'syntax';
}

/** One link as recorded, in page order. */
export interface LinkRow {
  readonly fromUrlId: number;
  readonly position: number;
  /** The canonical target (after aliases); `undefined` when the href did not resolve. */
  readonly toUrlId: number | undefined;
  readonly rawHref: string;
  readonly fragment: string | undefined;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly baseLevel: BaseLevel | undefined;
  /** Where it met the index; `protocol` when through an alias. */
  readonly rung: MatchRung | undefined;
  /** The ladder rung it met the index at before aliases were followed (`rung` unless `protocol`). */
  readonly ladderRung: Exclude<MatchRung, 'protocol'> | undefined;
  readonly error: string | undefined;
  readonly findings: readonly string[];
  readonly alternateTarget: string | undefined;
  /** The URL the target met before aliases were followed (`toUrlId` unless `protocol`). */
  readonly metUrlId: number | undefined;
  /** The 1-based line of the href's value in the page; `undefined` when not recorded (rows written before positions were). */
  readonly line?: number | undefined;
  /** The 1-based column of the href's value (UTF-16 code units); `undefined` when not recorded. */
  readonly column?: number | undefined;
}

/** Links from one page to one target with one element/attribute, counted. */
export interface EdgeRow {
  readonly fromUrlId: number;
  readonly toUrlId: number;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly count: number;
}

/**
 * The ladder funnel (RFC 3986 §6.2): how many distinct targets remain at each
 * step of the comparison ladder, over the links of the crawl.
 */
export interface Funnel {
  /** Link rows with a resolved target. */
  readonly rawLinks: number;
  /**
   * Distinct resolved target strings (fragment removed), as far as links first
   * saw them: a string first seen as a seed or a redirect target is not counted.
   */
  readonly distinctStrings: number;
  /** Distinct after syntax-based normalization (§6.2.2). */
  readonly distinctSyntax: number;
  /** Distinct after scheme-based normalization (§6.2.3). */
  readonly distinctScheme: number;
  /**
   * Distinct after the protocol rung (§6.2.4): the URLs links created, each alias
   * counted as the URL its chain ends at (which may be one no link named, as a
   * negotiated variant named by Content-Location).
   */
  readonly afterAliases: number;
  /** Links without a valid target. */
  readonly unresolved: number;
}


/**
 * One URL of a group of byte-identical representations that the ladder did not join
 * (heuristic, beyond RFC 3986). A group is the URLs whose current representation has one digest:
 * - each fetch stands for the URL `representsUrlId` names, followed through the
 *   aliases of redirects and Content-Location (RFC 3986 §6.2.4: what those join is one
 *   resource, never a duplicate of itself) — the row's `urlId`;
 * - a URL's current representation is its latest fetch made with a request of its
 *   own or derived from another URL's response (a 304 revalidation, and a row
 *   written without any response, are no new representation of it);
 * - it counts when it has a digest (a 2xx body read) and no error code.
 * URLs that content evidence (`digest`, `rule`; heuristic) joined are still listed,
 * marked by `contentEvidence`.
 */
export interface DuplicateBodyRow {
  /** SHA-256 (base64url) of the body the group shares (`FetchRow.digest`). */
  readonly digest: string;
  /** The URL whose representation it is: the end of its redirect and Content-Location aliases. */
  readonly urlId: number;
  readonly key: string;
  /** The fetch that carried it (the URL's current representation). */
  readonly fetchId: number;
  /** The URL that fetch was recorded for: `urlId`, or one whose redirects or Content-Location lead to it. */
  readonly fetchedUrlId: number;
  readonly fetchedKey: string;
  /**
   * The content evidence (`digest` or `rule`, written by `--content-evidence`,
   * heuristic) that joined this URL to another URL of its group; `undefined` when
   * none did.
   */
  readonly contentEvidence: AliasEvidence | undefined;
}

/** One worker of a shared crawl as the index has it now (`crawl_worker`, and its claims). */
export interface WorkerRow {
  readonly id: string;
  /** The machine it runs on, and its process. */
  readonly host: string;
  readonly pid: number;
  readonly startedAt: number;
  /** When it last renewed its leases. */
  readonly heartbeatAt: number;
  /** `undefined` while it runs, or when it died (no heartbeat since). */
  readonly endedAt: number | undefined;
  /** Not ended, and no heartbeat for longer than its lease: it stopped without ending (killed, machine lost). */
  readonly isSilent: boolean;
  /** What it reported last (`SharedFrontier.reportProgress`): requests, fetched, failed, links, queued, fetchesSaved, inFlight. */
  readonly counts: Readonly<Record<string, number>>;
  /** URLs it holds in `fetching` whose lease is live. */
  readonly claims: number;
  /** URLs it held whose lease ran out (it died, or stalled): another worker's to take. */
  readonly lapsedClaims: number;
}
