// The few lines an audit opens with: how many findings of each severity, on how
// many pages, which codes, and how many distinct broken targets (each one fix).

import { AUDIT_CODE_LIST } from './codes.js';
import { SEVERITIES, type AuditFinding, type Severity } from './finding.js';
import { targetKey } from './target-groups.js';

export interface AuditSummary {
  readonly findings: number;
  /** Distinct pages with a finding (site-wide findings are on no page). */
  readonly pages: number;
  readonly bySeverity: Readonly<Record<Severity, number>>;
  /** Findings by code, most frequent first (catalog order between equals). */
  readonly byCode: readonly (readonly [code: string, count: number])[];
  /** Distinct targets with a `LINK_BROKEN` finding. */
  readonly brokenTargets: number;
  /** `LINK_BROKEN` findings: links to those targets. */
  readonly brokenLinks: number;
}

const CATALOG_ORDER: ReadonlyMap<string, number> = new Map(AUDIT_CODE_LIST.map((code, i) => [code, i]));

export function summarizeFindings(findings: readonly AuditFinding[]): AuditSummary {
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const byCode = new Map<string, number>();
  const pages = new Set<string>();
  const broken = new Set<string>();
  let brokenLinks = 0;
  for (const f of findings) {
    bySeverity[f.severity]++;
    byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
    if (f.page !== undefined) pages.add(f.page);
    if (f.code === 'LINK_BROKEN') {
      brokenLinks++;
      const key = targetKey(f);
      if (key !== undefined) broken.add(key);
    }
  }
  const order = (code: string): number => CATALOG_ORDER.get(code) ?? Infinity;
  return {
    findings: findings.length,
    pages: pages.size,
    bySeverity,
    byCode: [...byCode].sort((a, b) => b[1] - a[1] || order(a[0]) - order(b[0])),
    brokenTargets: broken.size,
    brokenLinks,
  };
}

/** The summary in plain words, a few lines. */
export function formatAuditSummary(summary: AuditSummary): string[] {
  if (summary.findings === 0) return ['no findings'];
  const bySeverity = SEVERITIES.map((s) => `${summary.bySeverity[s]} ${s}${summary.bySeverity[s] === 1 || s === 'info' ? '' : 's'}`).join(', ');
  const lines = [`${plural(summary.findings, 'finding')} on ${plural(summary.pages, 'page')}: ${bySeverity}`];
  if (summary.brokenTargets > 0) {
    lines.push(`broken: ${plural(summary.brokenTargets, 'target')}, linked ${plural(summary.brokenLinks, 'time')}`);
  }
  lines.push(`by code: ${summary.byCode.map(([code, n]) => `${code} ${n}`).join(', ')}`);
  return lines;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
