// The audit as CSV (RFC 4180): a header line, then one record per finding.

import { csvField } from '../graph/index.js';
import type { AuditFindings } from './finding.js';

export const AUDIT_CSV_HEADER = 'severity,code,page,href,target,message,detail';

/**
 * The header, then one line per finding, streamed. Absent fields are empty; `detail`
 * is a JSON object. Fields with a comma, quote, CR or LF are quoted (an href may hold
 * any of them, and keeps them: a quoted field may span lines, RFC 4180 §2.6).
 */
export async function* formatAuditCsv(findings: AuditFindings): AsyncGenerator<string> {
  yield AUDIT_CSV_HEADER;
  for await (const f of findings) {
    yield [f.severity, f.code, f.page ?? '', f.rawHref ?? '', f.target ?? '', f.message, JSON.stringify(f.detail)].map(csvField).join(',');
  }
}
