// What the CI formats say about one finding, in one place: whether it fails the
// run, where it is, and the line a person reads.

import { SEVERITY_RANK, type Severity } from '../audit/index.js';
import type { CheckFinding } from './check-finding.js';

/** Whether `f` makes `check` exit 1 under `--fail-on failOn`. */
export function isFailing(f: Pick<CheckFinding, 'severity'>, failOn: Severity): boolean {
  return SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn];
}

/** `line L, column C`, `line L`, or `''` when the crawl recorded no position. */
export function positionWords(f: Pick<CheckFinding, 'line' | 'column'>): string {
  if (f.line === undefined) return '';
  return f.column === undefined ? `line ${f.line}` : `line ${f.line}, column ${f.column}`;
}

/** `"href" → target: message` (the href as written, JSON-quoted so that spaces and quotes stay visible). */
export function findingSentence(f: CheckFinding): string {
  if (f.rawHref === undefined) return f.message;
  const target = f.target === undefined || f.target === f.rawHref ? '' : ` → ${f.target}`;
  return `${JSON.stringify(f.rawHref)}${target}: ${f.message}`;
}

/** The test case or heading a finding belongs to: its file, else its page, else the site. */
export function findingPlace(f: Pick<CheckFinding, 'file' | 'page'>): string {
  return f.file ?? f.page ?? SITE_WIDE;
}

/** Where a site-wide finding (on no page) is filed. */
export const SITE_WIDE = '(the site as a whole)';

/** Findings in reading order within one place: by line, then column; unplaced ones last, in their order. */
export function byPosition(a: CheckFinding, b: CheckFinding): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? Infinity) - (b.column ?? Infinity) || 0;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
