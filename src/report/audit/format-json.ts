// The audit as JSON Lines: one object per finding, every key present (`null` when absent).

import type { AuditFinding, AuditFindings } from './finding.js';

/** One finding as the object `--format json` writes: `{"code","severity","page","rawHref","target","message","detail"}`. */
export function auditFindingJson(f: AuditFinding): Record<string, unknown> {
  return {
    code: f.code,
    severity: f.severity,
    page: f.page ?? null,
    rawHref: f.rawHref ?? null,
    target: f.target ?? null,
    message: f.message,
    detail: f.detail,
  };
}

/** One JSON object per line, per finding, streamed. */
export async function* formatAuditJson(findings: AuditFindings): AsyncGenerator<string> {
  for await (const f of findings) yield JSON.stringify(auditFindingJson(f));
}
