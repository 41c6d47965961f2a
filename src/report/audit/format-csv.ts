// The audit as CSV (RFC 4180): a header line, then one record per finding, every
// column a plain value (no JSON cells), for a spreadsheet.

import { csvField } from '../graph/index.js';
import type { AuditFinding, AuditFindings } from './finding.js';
import { countInlinks, findingStatus, targetKey } from './target-groups.js';

export const AUDIT_CSV_HEADER = 'severity,code,page,line,column,href,target,status,inlinks,message';

export interface AuditCsvOptions {
  /**
   * Pages per target (`countInlinks`) for the `inlinks` column. Without it the
   * findings are read whole first, to count them.
   * @default undefined (counted here)
   */
  readonly inlinks?: ReadonlyMap<string, number> | undefined;
}

/**
 * The header, then one line per finding. Absent fields are empty. `line` and
 * `column` place the href in its page; `status` is the target's HTTP status, else
 * its error code; `inlinks` is how many pages have the same finding on the same
 * target (for `LINK_BROKEN`: how many pages link to it). Fields with a comma,
 * quote, CR or LF are quoted (an href may hold any of them, and keeps them: a
 * quoted field may span lines, RFC 4180 §2.6).
 */
export async function* formatAuditCsv(findings: AuditFindings, options: AuditCsvOptions = {}): AsyncGenerator<string> {
  let inlinks = options.inlinks;
  let source: AuditFindings = findings;
  if (inlinks === undefined) {
    const all: AuditFinding[] = [];
    for await (const f of findings) all.push(f);
    inlinks = countInlinks(all);
    source = all;
  }
  yield AUDIT_CSV_HEADER;
  for await (const f of source) {
    const key = targetKey(f);
    const count = key === undefined ? undefined : inlinks.get(key);
    yield [
      f.severity,
      f.code,
      f.page ?? '',
      f.line ?? '',
      f.column ?? '',
      f.rawHref ?? '',
      f.target ?? '',
      findingStatus(f) ?? '',
      count ?? '',
      f.message,
    ]
      .map((value) => csvField(String(value)))
      .join(',');
  }
}
