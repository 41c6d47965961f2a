// The audit as text for a terminal: findings grouped by page, each on two lines
// (severity, code, href and target; then the message), and a closing count.

import type { AuditFindings, Severity } from './finding.js';
import { SEVERITIES } from './finding.js';

const SEVERITY_WIDTH = 8;
const INDENT = '  ';
const MESSAGE_INDENT = INDENT + ' '.repeat(SEVERITY_WIDTH + 1);

/**
 * C0 and C1 controls, DEL and the bidirectional formatting characters: written as
 * `\u{…}` so that an href cannot move the cursor, recolour the terminal or reorder
 * what is shown (hrefs are untrusted input).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control and bidi character escaped, for a terminal. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/**
 * The lines of the text report, streamed: a page's URL, then its findings, a blank
 * line between pages (findings of one page are expected together, as `audit` gives
 * them), and one last line with the counts by severity.
 */
export async function* formatAuditText(findings: AuditFindings): AsyncGenerator<string> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  let pages = 0;
  let current: string | undefined | null = null;
  for await (const f of findings) {
    counts[f.severity] += 1;
    if (f.page !== current) {
      if (current !== null) yield '';
      current = f.page;
      pages += 1;
      yield terminalSafe(f.page ?? '(the site as a whole)');
    }
    let head = `${INDENT}${f.severity.padEnd(SEVERITY_WIDTH)} ${f.code}`;
    if (f.rawHref !== undefined) head += `  ${JSON.stringify(f.rawHref)}`;
    if (f.target !== undefined) head += ` → ${f.target}`;
    yield terminalSafe(head);
    yield terminalSafe(`${MESSAGE_INDENT}${f.message}`);
  }
  const total = counts.error + counts.warning + counts.info;
  if (total === 0) {
    yield 'no findings';
    return;
  }
  yield '';
  const bySeverity = SEVERITIES.map((s) => `${counts[s]} ${s}${counts[s] === 1 || s === 'info' ? '' : 's'}`).join(', ');
  yield `${total} finding${total === 1 ? '' : 's'} on ${pages} page${pages === 1 ? '' : 's'}: ${bySeverity}`;
}
