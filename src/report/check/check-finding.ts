// A finding of `linkladder check`: an audit finding with the verdict on its target
// and the file of its page, and the severity CI acts on — broken fails, unverified
// warns (a bot wall or a timeout of another site says nothing about one's own links).

import type { AuditFinding, Severity } from '../audit/finding.js';

/**
 * What became of a checked target: it answered (`ok`), it does not exist
 * (`broken`: a missing file, 404/410, a name that does not resolve, a fragment no
 * element has), or it could not be told (`unverified`: timeouts, 5xx, 429, bot walls).
 */
export type Verdict = 'ok' | 'broken' | 'unverified';

export interface CheckFinding extends AuditFinding {
  /** The verdict on the link's target, for findings about a target's answer or fragment. */
  readonly verdict: Verdict | undefined;
  /** The page's file, relative to the working directory with `/` separators, for a page read from disk. */
  readonly file: string | undefined;
}

const VERDICTS: ReadonlySet<string> = new Set<Verdict>(['ok', 'broken', 'unverified']);

/**
 * The codes whose finding is a verdict, for an audit that does not give one itself.
 * A missing fragment is broken: the page is there, the place it promises is not.
 */
const VERDICT_OF_CODE: Readonly<Record<string, Verdict>> = {
  LINK_BROKEN: 'broken',
  SEED_BROKEN: 'broken',
  LINK_FRAGMENT_MISSING: 'broken',
  LINK_UNVERIFIED: 'unverified',
};

/** The verdict a finding carries: its own `verdict` when the audit gives one, else the one its code implies. */
export function verdictOfFinding(f: AuditFinding): Verdict | undefined {
  const own: unknown = (f as { readonly verdict?: unknown }).verdict;
  if (typeof own === 'string' && VERDICTS.has(own)) return own as Verdict;
  return VERDICT_OF_CODE[f.code];
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
