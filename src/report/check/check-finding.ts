// A finding of `linkladder check`: an audit finding with the verdict on its target
// and the file of its page, and the severity CI acts on — broken fails, unverified
// warns (a bot wall or a timeout of another site says nothing about one's own links).

import type { Verdict } from '../../crawl/index.js';
import type { AuditFinding, Severity } from '../audit/finding.js';

export type { Verdict };

export interface CheckFinding extends AuditFinding {
  /** The verdict on the link's target (recorded by the crawl), for findings about a target's answer or fragment. */
  readonly verdict: Verdict | undefined;
  /** The page's file, relative to the working directory with `/` separators, for a page read from disk. */
  readonly file: string | undefined;
}

/** The verdict a finding carries: the audit's, from what the crawl recorded. */
export function verdictOfFinding(f: AuditFinding): Verdict | undefined {
  return f.verdict;
}

/** The severity in `check`: broken is an error, unverified a warning, anything else keeps its catalog severity. */
export function checkSeverity(f: AuditFinding, verdict: Verdict | undefined): Severity {
  if (verdict === 'broken') return 'error';
  if (verdict === 'unverified') return 'warning';
  return f.severity;
}

/** `f` as a finding of `check`: its verdict, the severity that follows, and its page's file (`fileOf`). */
export function toCheckFinding(f: AuditFinding, fileOf: (page: string) => string | undefined): CheckFinding {
  const verdict = verdictOfFinding(f);
  return { ...f, severity: checkSeverity(f, verdict), verdict, file: f.page === undefined ? undefined : fileOf(f.page) };
}
