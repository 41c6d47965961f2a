// The audit as JSON Lines: one object per finding, every key present (`null` when absent).

import type { AuditFinding, AuditFindings } from './finding.js';
import type { TargetGroup } from './target-groups.js';

/**
 * One finding as the object `--format json` writes:
 * `{"code","severity","page","rawHref","target","line","column","message","detail","verdict"}`;
 * `verdict` (`ok`, `broken`, `unverified`) on a finding about a target's answer, else `null`.
 */
export function auditFindingJson(f: AuditFinding): Record<string, unknown> {
  return {
    code: f.code,
    severity: f.severity,
    page: f.page ?? null,
    rawHref: f.rawHref ?? null,
    target: f.target ?? null,
    line: f.line ?? null,
    column: f.column ?? null,
    message: f.message,
    detail: f.detail,
    verdict: f.verdict ?? null,
  };
}

/** One JSON object per line, per finding, streamed. */
export async function* formatAuditJson(findings: AuditFindings): AsyncGenerator<string> {
  for await (const f of findings) yield JSON.stringify(auditFindingJson(f));
}

/**
 * One target group as the object `--format json --group-by target` writes:
 * `{"code","severity","target","status","pages","links":[{"page","rawHref","line","column"}]}`.
 */
export function targetGroupJson(group: TargetGroup): Record<string, unknown> {
  return {
    code: group.code,
    severity: group.severity,
    target: group.target,
    status: group.status ?? null,
    pages: group.pages,
    links: group.findings.map((f) => ({ page: f.page ?? null, rawHref: f.rawHref ?? null, line: f.line ?? null, column: f.column ?? null })),
  };
}
