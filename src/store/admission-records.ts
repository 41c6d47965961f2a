// What admitting links takes and gives back, and the URL and alias records the
// crawl reads while deciding.

import type { BaseLevel } from '../base/index.js';
import type { AliasEvidence, LadderForms } from '../ladder/index.js';
import type { MatchRung, UrlRole } from './url-vocabulary.js';
import type { UrlState } from './url-state-machine.js';

/** One link to admit: where it was found, as written, and what it resolved to. */
export interface AdmitEntry {
  /** The page it is on; `undefined` for a seed (no link row is written). */
  readonly fromUrlId?: number | undefined;
  /** The href exactly as written. */
  readonly rawHref: string;
  /** The resolved absolute URI (with its fragment), or `undefined` when it did not resolve. */
  readonly target: string | undefined;
  /**
   * The ladder forms of `target` without its fragment (`ladderForms`), when the
   * caller has them: the index then neither parses nor normalizes the target.
   * Must describe `target`; ignored when `forms.string` is not `target` minus its fragment.
   */
  readonly forms?: LadderForms | undefined;
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
  /**
   * How the target relates to the crawl: what it is queued as when `follow`, and the
   * role it keeps when only recorded. A queued URL that a link of a higher role names
   * is raised to it before it is claimed (`roleRank`).
   * @default 'page'
   */
  readonly role?: UrlRole | undefined;
  /**
   * Codes of what was noticed about this link as written (`HREF_*` clean-ups,
   * `REF_*` resolution findings), recorded on its link row for the audit.
   */
  readonly findings?: readonly string[] | undefined;
  /**
   * The target in the other base mode (rfc3986 / browser) when it differs from
   * `target`: recorded on the link row for the audit.
   */
  readonly alternateTarget?: string | undefined;
  /**
   * Where the href's value is written in the page: its 1-based line, recorded on the
   * link row so that reports (SARIF) can place a finding in the page's source.
   * @default undefined (unknown)
   */
  readonly line?: number | undefined;
  /**
   * The 1-based column of that value, in UTF-16 code units; recorded only with `line`.
   * @default undefined (unknown)
   */
  readonly column?: number | undefined;
}

export interface AdmitResult {
  /** The canonical URL of the target (after aliases); `undefined` when the link had none. */
  readonly urlId: number | undefined;
  /** Where on the ladder it met a known URL; `undefined` when the link had no valid target. */
  readonly rung: MatchRung | undefined;
  /**
   * The rung at which its target met the index before aliases were followed (`rung`
   * unless `protocol`): `syntax` or `scheme` means a spelling new to the index.
   */
  readonly ladderRung: Exclude<MatchRung, 'protocol'> | undefined;
  /** Whether this admit put the URL on the frontier (new, or a skipped URL now followed). */
  readonly isQueued: boolean;
  /** The failure, when the target was not a valid absolute URI. */
  readonly error: string | undefined;
}

export interface AliasRecord {
  readonly fromId: number;
  readonly toId: number;
  readonly evidence: AliasEvidence;
  readonly detail?: string | undefined;
}

export interface UrlRecord {
  readonly id: number;
  /** The scheme-rung key (RFC 3986 §6.2.3) without fragment. */
  readonly key: string;
  readonly state: UrlState;
  readonly depth: number;
  readonly aliasOf: number | undefined;
  /** How it relates to the crawl (`page` for a row written before migration 006). */
  readonly role: UrlRole;
}
