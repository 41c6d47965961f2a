// The findings of `linkladder check` as text (grouped by file, compiler-style
// `file:line:col` so editors and terminals jump to the href), JSON Lines, CSV and
// SARIF located at the file.

import { csvField } from '../graph/index.js';
import { fileUri, formatAuditSarif } from '../audit/format-sarif.js';
import { terminalSafe } from '../audit/format-text.js';
import { SEVERITIES, type Severity } from '../audit/finding.js';
import type { CheckFinding, Verdict } from './check-finding.js';

/** The findings of a check, streamed or as a list. */
export type CheckFindings = AsyncIterable<CheckFinding> | Iterable<CheckFinding>;

/** The keys of one JSON line, in order: exactly these, `null` when absent. */
export const CHECK_JSON_KEYS = ['code', 'severity', 'verdict', 'target', 'rawHref', 'file', 'line', 'column', 'page', 'message'] as const;

/** One finding as its JSON line's object. */
export function checkFindingJson(f: CheckFinding): Record<(typeof CHECK_JSON_KEYS)[number], unknown> {
  return {
    code: f.code,
    severity: f.severity,
    verdict: f.verdict ?? null,
    target: f.target ?? null,
    rawHref: f.rawHref ?? null,
    file: f.file ?? null,
    line: f.line ?? null,
    column: f.column ?? null,
    page: f.page ?? null,
    message: f.message,
  };
}

/** One JSON object per line, per finding, streamed. */
export async function* formatCheckJson(findings: CheckFindings): AsyncGenerator<string> {
  for await (const f of findings) yield JSON.stringify(checkFindingJson(f));
}

export const CHECK_CSV_HEADER = 'severity,code,verdict,file,line,column,href,target,page,message';

/** RFC 4180: the header, then one record per finding, absent fields empty. */
export async function* formatCheckCsv(findings: CheckFindings): AsyncGenerator<string> {
  yield CHECK_CSV_HEADER;
  for await (const f of findings) {
    yield [f.severity, f.code, f.verdict ?? '', f.file ?? '', f.line ?? '', f.column ?? '', f.rawHref ?? '', f.target ?? '', f.page ?? '', f.message]
      .map((value) => csvField(String(value)))
      .join(',');
  }
}

export interface CheckSarifOptions {
  /** @default undefined (left out) */
  readonly toolVersion?: string | undefined;
}

/**
 * One SARIF 2.1.0 log: a result per finding located at its file (a relative URI
 * reference, as code-scanning tools resolve against the checkout) with the href's
 * line and column; a page read over HTTP is located at its URL. The audit's SARIF,
 * with the file check knows.
 */
export function formatCheckSarif(findings: CheckFindings, options: CheckSarifOptions = {}): AsyncGenerator<string> {
  return formatAuditSarif(findings, { toolVersion: options.toolVersion, fileOf: (f) => (f as CheckFinding).file });
}

export { fileUri };

export interface CheckTextOptions {
  /**
   * What a target is shown as: its file, for a target inside a folder being checked;
   * `undefined` keeps the URL.
   * @default undefined (URLs)
   */
  readonly targetLabel?: ((target: string) => string | undefined) | undefined;
  /**
   * How many URLs (pages, files, resources, external links) the check answered, for the closing line.
   * @default undefined (not said)
   */
  readonly urlsChecked?: number | undefined;
}

/** Counts of a check's findings for its closing line. */
export interface CheckCounts {
  readonly bySeverity: Readonly<Record<Severity, number>>;
  readonly byVerdict: Readonly<Record<Exclude<Verdict, 'ok'>, number>>;
  readonly files: number;
}

export function countCheckFindings(findings: readonly CheckFinding[]): CheckCounts {
  const bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const byVerdict = { broken: 0, unverified: 0 };
  const files = new Set<string>();
  for (const f of findings) {
    bySeverity[f.severity]++;
    if (f.verdict === 'broken' || f.verdict === 'unverified') byVerdict[f.verdict]++;
    files.add(placeOf(f));
  }
  return { bySeverity, byVerdict, files: files.size };
}

/** The closing line: verdicts first (what CI acts on), then the severities. */
export function checkSummaryLine(counts: CheckCounts, urlsChecked?: number): string {
  const total = counts.bySeverity.error + counts.bySeverity.warning + counts.bySeverity.info;
  const checked = urlsChecked === undefined ? '' : `${plural(urlsChecked, 'URL')} checked: `;
  if (total === 0) return `${checked}no broken links, nothing to report`;
  const severities = SEVERITIES.map((s) => `${counts.bySeverity[s]} ${s}${counts.bySeverity[s] === 1 || s === 'info' ? '' : 's'}`).join(', ');
  return `${checked}${plural(counts.byVerdict.broken, 'broken link')}, ${counts.byVerdict.unverified} unverified; ${plural(total, 'finding')} in ${plural(counts.files, 'file')} (${severities})`;
}

/**
 * The text report: findings grouped by file (or page URL), each group in line
 * order, one line per finding `file:line:col  severity  CODE  href → target  message`,
 * then the closing line.
 */
export function* formatCheckText(findings: readonly CheckFinding[], options: CheckTextOptions = {}): Generator<string> {
  const groups = new Map<string, CheckFinding[]>();
  for (const f of findings) {
    const place = placeOf(f);
    let group = groups.get(place);
    if (group === undefined) groups.set(place, (group = []));
    group.push(f);
  }
  const places = [...groups.keys()].sort(comparePlaces);
  for (const place of places) {
    yield terminalSafe(place);
    const group = groups.get(place)!.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    for (const f of group) {
      const position = f.line === undefined ? place : f.column === undefined ? `${place}:${f.line}` : `${place}:${f.line}:${f.column}`;
      let link = '';
      if (f.rawHref !== undefined) link += `  ${JSON.stringify(f.rawHref)}`;
      if (f.target !== undefined) link += ` → ${options.targetLabel?.(f.target) ?? f.target}`;
      yield terminalSafe(`  ${position}  ${f.severity.padEnd(7)}  ${f.code}${link}  ${f.message}`);
    }
    yield '';
  }
  yield checkSummaryLine(countCheckFindings(findings), options.urlsChecked);
}

/** Where a finding is shown: its file, else its page's URL, else the site. */
function placeOf(f: CheckFinding): string {
  return f.file ?? f.page ?? '(the site as a whole)';
}

/** Files before URLs, then in code-point order (the order a file tree lists them). */
function comparePlaces(a: string, b: string): number {
  const isUrlA = /^[a-z][a-z0-9+.-]*:/i.test(a);
  const isUrlB = /^[a-z][a-z0-9+.-]*:/i.test(b);
  if (isUrlA !== isUrlB) return isUrlA ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
