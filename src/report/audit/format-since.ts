// `audit --since` in each output format: the findings new since the baseline, then
// those fixed since (`compareFindings`).

import type { AuditFinding } from './finding.js';
import { auditFindingJson } from './format-json.js';
import { formatAuditCsv, AUDIT_CSV_HEADER } from './format-csv.js';
import { formatAuditText } from './format-text.js';
import type { FindingChanges } from './since.js';

/** Whether a finding is new since the baseline, or was fixed since. */
export type FindingChange = 'new' | 'fixed';

export const SINCE_CSV_HEADER = `change,${AUDIT_CSV_HEADER}`;

/** `3 new, 5 fixed since run 2 (2026-…)`: `baseline` says what was compared with. */
export function sinceSummary(changes: FindingChanges, baseline: string): string {
  return `${changes.added.length} new, ${changes.fixed.length} fixed since ${baseline}`;
}

/**
 * The summary line, then the new findings and the fixed ones, each under a heading
 * and grouped by page as the audit's text is (a fixed finding shows where it was).
 */
export async function* formatSinceText(changes: FindingChanges, baseline: string, options: { readonly color?: boolean | undefined } = {}): AsyncGenerator<string> {
  yield sinceSummary(changes, baseline);
  const sections: [string, readonly AuditFinding[]][] = [
    ['new', changes.added],
    ['fixed', changes.fixed],
  ];
  for (const [heading, findings] of sections) {
    if (findings.length === 0) continue;
    yield '';
    yield `${heading} (${findings.length}):`;
    yield* formatAuditText(findings, { color: options.color, isCounted: false });
  }
}

/** One object per finding and line: `{"change":"new"|"fixed", …}` then the audit's JSON keys. */
export function* formatSinceJson(changes: FindingChanges): Generator<string> {
  for (const [change, f] of changedFindings(changes)) yield JSON.stringify({ change, ...auditFindingJson(f) });
}

/**
 * The audit's CSV with a first column `change` (`new` or `fixed`). `inlinks` counts
 * pages among the current findings for a new one, among the baseline's for a fixed one.
 */
export async function* formatSinceCsv(changes: FindingChanges, inlinks: { readonly now: ReadonlyMap<string, number>; readonly before: ReadonlyMap<string, number> }): AsyncGenerator<string> {
  yield SINCE_CSV_HEADER;
  for (const [change, findings, counts] of [
    ['new', changes.added, inlinks.now],
    ['fixed', changes.fixed, inlinks.before],
  ] as const) {
    let isHeader = true;
    for await (const record of formatAuditCsv(findings, { inlinks: counts })) {
      if (!isHeader) yield `${change},${record}`;
      isHeader = false;
    }
  }
}

/** The new findings, then the fixed ones, each with its change. */
export function* changedFindings(changes: FindingChanges): Generator<[FindingChange, AuditFinding]> {
  for (const f of changes.added) yield ['new', f];
  for (const f of changes.fixed) yield ['fixed', f];
}
