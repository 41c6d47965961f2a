// The audit as text for a terminal: findings grouped by page, each on two lines
// (severity, code, href and target; then the message), and a closing count.

import type { AuditFinding, AuditFindings, Severity } from './finding.js';
import { SEVERITIES } from './finding.js';
import { formatAuditSummary, type AuditSummary } from './audit-summary.js';
import type { TargetGroups } from './target-groups.js';

export interface AuditTextOptions {
  /**
   * Colour each severity (ANSI SGR: error red, warning yellow, info cyan), for a terminal.
   * @default false
   */
  readonly color?: boolean | undefined;
  /**
   * Open with this summary (`summarizeFindings`) instead of closing with the counts.
   * @default undefined (the counts close the report)
   */
  readonly summary?: AuditSummary | undefined;
  /**
   * Close with the counts by severity (or `no findings`) when there is no `summary`.
   * @default true
   */
  readonly isCounted?: boolean | undefined;
}

const COLORS: Readonly<Record<Severity, string>> = { error: '\u001b[31m', warning: '\u001b[33m', info: '\u001b[36m' };
const RESET_COLOR = '\u001b[39m';

/** `severity` padded to the column width, coloured when asked. */
function severityCell(severity: Severity, color: boolean | undefined): string {
  const padded = severity.padEnd(SEVERITY_WIDTH);
  return color === true ? `${COLORS[severity]}${severity}${RESET_COLOR}${padded.slice(severity.length)}` : padded;
}

/** ` at line L, column C` when the finding's href has a recorded position. */
export function positionText(f: Pick<AuditFinding, 'line' | 'column'>): string {
  if (f.line === undefined) return '';
  return f.column === undefined ? ` at line ${f.line}` : ` at line ${f.line}, column ${f.column}`;
}

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
 * them), and one last line with the counts by severity — or, given a `summary`,
 * the summary first and no closing line.
 */
export async function* formatAuditText(findings: AuditFindings, options: AuditTextOptions = {}): AsyncGenerator<string> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const summary = options.summary;
  if (summary !== undefined) {
    yield* formatAuditSummary(summary);
    if (summary.findings === 0) return;
  }
  let pages = 0;
  let current: string | undefined | null = null;
  for await (const f of findings) {
    counts[f.severity] += 1;
    if (f.page !== current) {
      if (current !== null || summary !== undefined) yield '';
      current = f.page;
      pages += 1;
      yield terminalSafe(f.page ?? '(the site as a whole)');
    }
    let head = ` ${f.code}`;
    if (f.rawHref !== undefined) head += `  ${JSON.stringify(f.rawHref)}`;
    if (f.target !== undefined) head += ` → ${f.target}`;
    head += positionText(f);
    yield `${INDENT}${severityCell(f.severity, options.color)}${terminalSafe(head)}`;
    yield terminalSafe(`${MESSAGE_INDENT}${f.message}`);
  }
  if (summary !== undefined || options.isCounted === false) return;
  const total = counts.error + counts.warning + counts.info;
  if (total === 0) {
    yield 'no findings';
    return;
  }
  yield '';
  const bySeverity = SEVERITIES.map((s) => `${counts[s]} ${s}${counts[s] === 1 || s === 'info' ? '' : 's'}`).join(', ');
  yield `${total} finding${total === 1 ? '' : 's'} on ${pages} page${pages === 1 ? '' : 's'}: ${bySeverity}`;
}

/**
 * The findings by target (`groupByTarget`), summary first: per target its severity,
 * code, URL, status and how many pages link to it; then every referring link — its
 * page, where the href is written, and the href as written.
 */
export function* formatTargetGroupsText(grouped: TargetGroups, summary: AuditSummary, options: Pick<AuditTextOptions, 'color'> = {}): Generator<string> {
  yield* formatAuditSummary(summary);
  for (const group of grouped.groups) {
    yield '';
    const status = group.status === undefined ? '' : `  ${group.status}`;
    const links = group.findings.length === group.pages ? '' : ` (${group.findings.length} links)`;
    const head = ` ${group.code}  ${group.target}${status}, linked from ${group.pages} page${group.pages === 1 ? '' : 's'}${links}`;
    yield `${severityCell(group.severity, options.color)}${terminalSafe(head)}`;
    for (const f of group.findings) {
      yield terminalSafe(`${INDENT}${f.page ?? '(the site as a whole)'}${positionText(f)}  ${JSON.stringify(f.rawHref ?? '')}`);
    }
  }
  const rest = grouped.withoutTarget.length;
  if (rest > 0) {
    yield '';
    yield `${rest} finding${rest === 1 ? '' : 's'} without a target (about pages, or hrefs that did not resolve): run without --group-by target to list them`;
  }
}
