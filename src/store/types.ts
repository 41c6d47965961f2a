// The index behind an interface (DESIGN.md §6): the crawler talks to an
// IndexStore and never learns that it is SQLite.

import type { BaseLevel } from '../base/index.js';
import type { AliasEvidence } from '../ladder/index.js';

export type { BaseLevel };

/** Where a URL is in its life. */
export type UrlState = 'queued' | 'fetching' | 'done' | 'failed' | 'skipped' | 'alias';

export const URL_STATES: readonly UrlState[] = ['queued', 'fetching', 'done', 'failed', 'skipped', 'alias'];

/**
 * The rung of the RFC 3986 §6.2 ladder at which a link's target met a URL already
 * in the index: `new` when it met none; `protocol` when it met an alias, whose
 * target the link now names.
 */
export type MatchRung = 'new' | 'string' | 'syntax' | 'scheme' | 'protocol';

export const MATCH_RUNGS: readonly MatchRung[] = ['new', 'string', 'syntax', 'scheme', 'protocol'];


/** One link to admit: where it was found, as written, and what it resolved to. */
export interface AdmitEntry {
  /** The page it is on; `undefined` for a seed (no link row is written). */
  readonly fromUrlId?: number | undefined;
  /** The href exactly as written. */
  readonly rawHref: string;
  /** The resolved absolute URI (with its fragment), or `undefined` when it did not resolve. */
  readonly target: string | undefined;
  /** The code of the failure when `target` is undefined. */
  readonly error?: string | undefined;
  readonly element?: string | undefined;
  readonly attribute?: string | undefined;
  readonly baseLevel?: BaseLevel | undefined;
  /**
   * Whether a target new to the index should be fetched (`queued`) or only
   * recorded (`skipped`, e.g. out of scope or an element not followed).
   * @default true
   */
  readonly follow?: boolean | undefined;
  /**
   * Depth of the target if it is new.
   * @default 0
   */
  readonly depth?: number | undefined;
}

export interface AdmitResult {
  /** The canonical URL of the target (after aliases); `undefined` when the link had none. */
  readonly urlId: number | undefined;
  /** Where on the ladder it met a known URL; `undefined` when the link had no valid target. */
  readonly rung: MatchRung | undefined;
  /** Whether this admit put the URL on the frontier (new, or a skipped URL now followed). */
  readonly isQueued: boolean;
  /** The failure, when the target was not a valid absolute URI. */
  readonly error: string | undefined;
}

export interface ClaimedUrl {
  readonly id: number;
  readonly key: string;
  readonly depth: number;
  readonly host: string | undefined;
}

export interface RedirectHop {
  readonly from: string;
  /** `undefined` for a 3xx without Location. */
  readonly to: string | undefined;
  readonly status: number;
}

/** What happened when a URL was fetched. */
export interface FetchRecord {
  readonly urlId: number;
  /** `done`: fetched (whatever the status); `failed`: no usable response. */
  readonly outcome: 'done' | 'failed';
  readonly startedAt: number;
  readonly durationMs?: number | undefined;
  readonly status?: number | undefined;
  readonly contentType?: string | undefined;
  readonly bytes?: number | undefined;
  readonly errorCode?: string | undefined;
  readonly finalUrl?: string | undefined;
  readonly redirects?: readonly RedirectHop[] | undefined;
}

export interface AliasRecord {
  readonly fromId: number;
  readonly toId: number;
  readonly evidence: AliasEvidence;
  readonly detail?: string | undefined;
}

export interface UrlRecord {
  readonly id: number;
  readonly key: string;
  readonly state: UrlState;
  readonly depth: number;
  readonly aliasOf: number | undefined;
}

export interface StoreStats {
  readonly urlsByState: Readonly<Record<UrlState, number>>;
  readonly links: number;
  /** Links by the rung at which their target met a known URL. */
  readonly linksByRung: Readonly<Record<MatchRung, number>>;
  readonly linksWithoutTarget: number;
  readonly aliasesByEvidence: Readonly<Record<AliasEvidence, number>>;
  readonly fetches: number;
}

/** The dedup index: seen-set, frontier, link graph and protocol-rung evidence. */
export interface IndexStore {
  /** Admit a batch of links atomically: all of it is recorded, or none. */
  admit(batch: readonly AdmitEntry[]): AdmitResult[];
  /** Move up to `limit` queued URLs (shallowest first) to `fetching` and return them. */
  claim(limit: number): ClaimedUrl[];
  /** Record a fetch and move its URL to `done` or `failed`. */
  recordFetch(record: FetchRecord): void;
  /**
   * Record that `fromId` is `toId` (DESIGN.md §2, rung 4). `redirect` and
   * `content-location` make `fromId` an alias (links to it then name `toId`);
   * `canonical` is only recorded.
   */
  addAlias(record: AliasRecord): void;
  /** Undo an alias of `fromId` (contradicting evidence) and queue it again. */
  revokeAlias(fromId: number): void;
  /** The URL with this id, if any. */
  getUrl(id: number): UrlRecord | undefined;
  /** The URL whose key is the scheme-rung form of `uri` (without fragment), if any. */
  findUrl(uri: string): UrlRecord | undefined;
  stats(): StoreStats;
  close(): void;
}

/** A zero count for each of `keys`, to be filled in. */
export function zeroCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}
