// The broken links of the audit grouped by target: the report's first view, ranked by
// how many pages link to each target, with every referring link (href as written, line).

import type { AuditFinding } from '../audit/finding.js';

/** One link to a broken target. */
export interface BrokenReferrer {
  /** The page the link is on (its URL key). */
  readonly page: string;
  /** The href as written. */
  readonly rawHref: string;
  /** Its line in the page, when the index recorded it. */
  readonly line: number | undefined;
}

export interface BrokenTarget {
  /** The target URL, without fragment. */
  readonly target: string;
  /** What it answered: `404`, `ERR_FETCH_TIMEOUT`, `404 after 1 redirect` … */
  readonly status: string;
  /** The audit's message for it. */
  readonly message: string;
  /** How many distinct pages link to it. */
  readonly pages: number;
  readonly referrers: readonly BrokenReferrer[];
}

/**
 * The `LINK_BROKEN` findings grouped by target: most referring pages first, then by
 * target; referrers in the audit's order (by page, then link position).
 */
export function brokenTargets(findings: readonly AuditFinding[]): BrokenTarget[] {
  const groups = new Map<string, { first: AuditFinding; referrers: BrokenReferrer[]; pages: Set<string> }>();
  for (const finding of findings) {
    if (finding.code !== 'LINK_BROKEN' || finding.target === undefined) continue;
    const target = finding.target.split('#', 1)[0]!;
    let group = groups.get(target);
    if (group === undefined) {
      group = { first: finding, referrers: [], pages: new Set() };
      groups.set(target, group);
    }
    const page = finding.page ?? '';
    group.pages.add(page);
    group.referrers.push({ page, rawHref: finding.rawHref ?? '', line: sourceLine(finding) });
  }
  return [...groups.entries()]
    .map(([target, group]) => ({
      target,
      status: statusText(group.first.detail),
      message: group.first.message,
      pages: group.pages.size,
      referrers: group.referrers,
    }))
    .sort((a, b) => b.pages - a.pages || b.referrers.length - a.referrers.length || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
}

/**
 * The line of a finding's href in its page, when the finding carries one (a `line`
 * field, or `line` in its detail, as source positions are recorded); else `undefined`.
 */
export function sourceLine(finding: AuditFinding): number | undefined {
  const value = (finding as { readonly line?: unknown }).line ?? finding.detail['line'];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function statusText(detail: AuditFinding['detail']): string {
  const { status, errorCode, hops } = detail;
  const answer = errorCode ?? status ?? 'broken';
  return typeof hops === 'number' && hops > 0 ? `${answer} after ${hops} redirect${hops === 1 ? '' : 's'}` : String(answer);
}
