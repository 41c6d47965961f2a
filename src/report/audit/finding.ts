// What the audit says about a crawl: one finding per problem, with a stable code.

import type { Verdict } from '../../crawl/index.js';
import type { Severity } from '../../findings.js';
import { AUDIT_CODES, type AuditCode } from './codes.js';

export { SEVERITIES, type Severity } from '../../findings.js';

/** One thing the audit found, on one page (or about the site as a whole). */
export interface AuditFinding {
  /** Stable code of the findings catalog (src/findings.ts), e.g. `LINK_BROKEN`; documented in docs/audit.md. */
  readonly code: string;
  readonly severity: Severity;
  /** The page the finding is on (its URL key); `undefined` for a site-wide finding. */
  readonly page: string | undefined;
  /** The href exactly as written on the page, when the finding is about a link. */
  readonly rawHref: string | undefined;
  /** What the href resolves to (absolute URI), when it resolved. */
  readonly target: string | undefined;
  /** One line a person reads: what is wrong and why it matters. */
  readonly message: string;
  /** Facts particular to the code (final URL, hop count, rung, …). */
  readonly detail: Readonly<Record<string, string | number>>;
  /** Where the href is written in the page: 1-based line, when the crawl recorded it. */
  readonly line?: number | undefined;
  /** And its 1-based column, in UTF-16 code units. */
  readonly column?: number | undefined;
  /**
   * The verdict on the target (src/crawl/verdict.ts), for a finding about a target's
   * answer (`LINK_BROKEN`, `LINK_UNVERIFIED`, `LINK_REDIRECT`, `SEED_*`, `SITEMAP_ENTRY_BROKEN`) or
   * fragment (`LINK_FRAGMENT_MISSING`: `broken`); absent on the others.
   */
  readonly verdict?: Verdict | undefined;
}

/** Findings as `audit` streams them, or as a list. */
export type AuditFindings = AsyncIterable<AuditFinding> | Iterable<AuditFinding>;

/** A finding of `code`, with the severity the catalog gives it. */
export function finding(
  code: AuditCode,
  page: string | undefined,
  rawHref: string | undefined,
  target: string | undefined,
  message: string,
  detail: Readonly<Record<string, string | number>> = {},
): AuditFinding {
  return { code, severity: AUDIT_CODES[code].severity, page, rawHref, target, message, detail };
}
