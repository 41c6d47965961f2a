// Which findings a reader asked for: at least this severe (`--severity`), and only
// these codes (`--code`, repeatable). Validated once, before the index is read.

import { describeValue, OptionError } from '../../errors.js';
import { AUDIT_CODE_LIST, SEVERITY_RANK, isAuditCode } from './codes.js';
import { SEVERITIES, type AuditFinding, type AuditFindings, type Severity } from './finding.js';

export interface FindingFilter {
  /**
   * Keep findings of this severity or a higher one.
   * @default 'info' (all)
   */
  readonly minSeverity?: Severity | undefined;
  /**
   * Keep findings with one of these codes (docs/audit.md).
   * @default undefined (every code)
   */
  readonly codes?: readonly string[] | undefined;
}

/** A validated filter: a test per finding. */
export type FindingTest = (finding: AuditFinding) => boolean;

/** Check `filter` and return its test; throws `OptionError` naming a bad severity or an unknown code. */
export function findingTest(filter: FindingFilter = {}): FindingTest {
  const severity: unknown = filter.minSeverity ?? 'info';
  if (!(SEVERITIES as readonly unknown[]).includes(severity)) {
    throw new OptionError(`Expected \`minSeverity\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(severity)}`);
  }
  const minRank = SEVERITY_RANK[severity as Severity];
  const codes = filter.codes;
  if (codes === undefined) return (f) => SEVERITY_RANK[f.severity] >= minRank;
  for (const code of codes) {
    if (typeof code !== 'string' || !isAuditCode(code)) {
      throw new OptionError(`Expected \`codes\` to hold audit codes (${AUDIT_CODE_LIST.length} listed in docs/audit.md, e.g. LINK_BROKEN), got ${describeValue(code)}`);
    }
  }
  const wanted: ReadonlySet<string> = new Set(codes);
  return (f) => SEVERITY_RANK[f.severity] >= minRank && wanted.has(f.code);
}

/** The findings that pass `test`, streamed. */
export async function* filterFindings(findings: AuditFindings, test: FindingTest): AsyncGenerator<AuditFinding> {
  for await (const f of findings) if (test(f)) yield f;
}
