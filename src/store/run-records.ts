// Crawl runs, their counts and the audit findings kept per run.

import type { AliasEvidence } from '../ladder/index.js';
import type { MatchRung } from './url-vocabulary.js';
import type { UrlState } from './url-state-machine.js';

/**
 * What identifies an audit finding from one run to the next (`audit --since`): its
 * code, the page's key, the target's key and the href as written (`''` where the
 * finding has none).
 */
export interface FindingIdentity {
  readonly code: string;
  readonly page: string;
  readonly target: string;
  readonly href: string;
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

/** What a crawl run was asked to do, recorded when it starts (a `crawl_run` row). */
export interface CrawlRunStart {
  readonly startedAt: number;
  /** The seeds, at the scheme rung. */
  readonly seeds: readonly string[];
  /** Its settings as plain JSON data: scope, include, exclude, maxDepth, follow, allowPrivate, … */
  readonly settings: Readonly<Record<string, unknown>>;
}

/** How a crawl run ended. */
export interface CrawlRunEnd {
  readonly endedAt: number;
  /** Why it stopped (the crawl's StopReason). */
  readonly stoppedBy: string;
  /** One line on how it ended; the reason of a non-zero exit. */
  readonly outcome: string;
  /** The run's counts as plain JSON data (requests by kind, fetches saved, …). */
  readonly counts: Readonly<Record<string, unknown>>;
}

/**
 * One crawl run of the index; the end fields are `undefined` for a run still going, or
 * killed, whose `counts` are those its committed units wrote (`recordRunCounts`), if any.
 */
export interface CrawlRunRow extends CrawlRunStart {
  readonly id: number;
  readonly endedAt: number | undefined;
  readonly stoppedBy: string | undefined;
  readonly outcome: string | undefined;
  readonly counts: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A re-check of the index (a generation of it): begun by a crawl started with
 * `--recheck` that found none in progress, or joined by one that found one in
 * progress (URLs of it left to fetch), which then queues nothing: workers started
 * apart never request a URL twice in one re-check, and a killed one is resumed.
 */
export interface RecheckGeneration {
  /** 1, 2, … in the order begun. */
  readonly generation: number;
  /** Whether it was in progress already (joined: nothing queued). */
  readonly isJoined: boolean;
  /** The URLs queued by beginning it; 0 when joined. */
  readonly queued: number;
}

/** How a re-check begins. */
export interface RecheckStart {
  /** The run that begins or joins it. */
  readonly runId?: number | undefined;
  /** Empty the sitemap frontier too (in the same unit), so that every sitemap is read again. @default false */
  readonly sitemaps?: boolean | undefined;
}
