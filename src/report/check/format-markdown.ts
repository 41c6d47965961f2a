// `check` as a Markdown summary for a pull-request comment or the job summary
// (`$GITHUB_STEP_SUMMARY`): a verdict line, a table of the broken links, the
// unverified ones folded in a `<details>` block, and the other findings counted by
// code. It stays within a GitHub comment's 65,536 characters: rows that do not fit
// are left out, and a line says how many.

import { describeValue, OptionError } from '../../errors.js';
import { SEVERITIES, type Severity } from '../audit/index.js';
import type { CheckFinding } from './check-finding.js';
import { byPosition, findingPlace, isFailing, plural } from './finding-text.js';

/** The longest body GitHub accepts for an issue or pull-request comment. */
export const GITHUB_COMMENT_MAX_LENGTH = 65_536;

export interface CheckMarkdownSummary {
  /** Links whose target answered (or was found on disk). */
  readonly ok: number;
  /** Links whose target is missing. */
  readonly broken: number;
  /** Links whose target could not be verified (timeouts, bot walls, 5xx, …). */
  readonly unverified: number;
  /**
   * Pages (files or URLs) checked.
   * @default undefined (not told)
   */
  readonly pages?: number | undefined;
  /**
   * The severity from which a finding fails the check (`--fail-on`): ✅ or ❌.
   * @default 'error'
   */
  readonly failOn?: Severity | undefined;
  /**
   * The longest summary to write, in UTF-16 code units (at least 1,024).
   * @default GITHUB_COMMENT_MAX_LENGTH (65,536)
   */
  readonly maxLength?: number | undefined;
}

const TABLE_HEAD = ['| Where | Link | Target | Why |', '| --- | --- | --- | --- |'];
/** A cell longer than this many characters is cut (an href can be kilobytes long). */
const CELL_MAX = 200;
const MIN_LENGTH = 1024;
/** Fewer characters than any row and its line break: `|  |  |  |  |`. */
const MIN_ROW_LENGTH = 12;

// Controls and bidirectional formatting characters are shown, not obeyed.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/**
 * ASCII punctuation that means something to GitHub Flavored Markdown — emphasis, code,
 * links, HTML, a table's `|`, math's `$`, and the `:`, `.` and `@` that start autolinks.
 * Each is written as a numeric character reference, which Markdown reads as a literal
 * character (CommonMark §6.2) and a table row does not split at.
 */
const MARKDOWN_PUNCTUATION = /[!"#$&'()*.:<>@[\\\]^_`{|}~]/g;

/** A code as the catalog spells them, literal in Markdown as it is (an underscore inside a word is no emphasis). */
const CATALOG_CODE = /^[A-Z][A-Z0-9_]*$/;

/** `text` as literal inline Markdown, on one line, safe in a table cell. */
export function markdownText(text: string): string {
  const oneLine = text.replace(/\r\n?|\n/g, ' ');
  const chars = [...oneLine];
  const cut = chars.length > CELL_MAX ? `${chars.slice(0, CELL_MAX - 1).join('')}…` : oneLine;
  return cut
    .replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)
    .replace(MARKDOWN_PUNCTUATION, (c) => `&#${c.charCodeAt(0)};`);
}

function code(text: string | undefined): string {
  if (text === undefined) return '';
  return text === '' ? '<em>(empty)</em>' : `<code>${markdownText(text)}</code>`;
}

function row(f: CheckFinding): string {
  const where = f.line === undefined ? findingPlace(f) : `${findingPlace(f)}:${f.line}`;
  return `| ${code(where)} | ${code(f.rawHref)} | ${code(f.target)} | ${markdownText(f.message)} |`;
}

function validate(summary: CheckMarkdownSummary): void {
  for (const name of ['ok', 'broken', 'unverified'] as const) {
    const value: unknown = (summary as Partial<CheckMarkdownSummary> | undefined)?.[name];
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new OptionError(`Expected \`${name}\` to be an integer >= 0, got ${describeValue(value)}`);
    }
  }
  const pages: unknown = summary.pages;
  if (pages !== undefined && (!Number.isSafeInteger(pages) || (pages as number) < 0)) {
    throw new OptionError(`Expected \`pages\` to be an integer >= 0, got ${describeValue(pages)}`);
  }
  const failOn: unknown = summary.failOn;
  if (failOn !== undefined && !SEVERITIES.includes(failOn as Severity)) {
    throw new OptionError(`Expected \`failOn\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(failOn)}`);
  }
  const maxLength: unknown = summary.maxLength;
  if (maxLength !== undefined && (!Number.isSafeInteger(maxLength) || (maxLength as number) < MIN_LENGTH)) {
    throw new OptionError(`Expected \`maxLength\` to be an integer >= ${MIN_LENGTH}, got ${describeValue(maxLength)}`);
  }
}

/** The Markdown summary of a check: `findings` and the link counts of `summary`. */
export function formatCheckMarkdown(findings: Iterable<CheckFinding>, summary: CheckMarkdownSummary): string {
  validate(summary);
  const failOn = summary.failOn ?? 'error';
  const maxLength = summary.maxLength ?? GITHUB_COMMENT_MAX_LENGTH;
  const broken: CheckFinding[] = [];
  const unverified: CheckFinding[] = [];
  const others = new Map<string, { count: number; severity: Severity }>();
  let isFailed = false;
  for (const f of findings) {
    if (isFailing(f, failOn)) isFailed = true;
    if (f.verdict === 'broken') broken.push(f);
    else if (f.verdict === 'unverified') unverified.push(f);
    else {
      const seen = others.get(f.code);
      if (seen === undefined) others.set(f.code, { count: 1, severity: f.severity });
      else seen.count++;
    }
  }
  const inReadingOrder = (a: CheckFinding, b: CheckFinding): number =>
    findingPlace(a) < findingPlace(b) ? -1 : findingPlace(a) > findingPlace(b) ? 1 : byPosition(a, b);
  // Every row is longer than this, so no more rows than the limit over it can be shown: the rest are only counted.
  const mostRows = Math.ceil(maxLength / MIN_ROW_LENGTH);
  const brokenRows = broken.sort(inReadingOrder).slice(0, mostRows).map(row);
  const unverifiedRows = unverified.sort(inReadingOrder).slice(0, mostRows).map(row);

  const pages = summary.pages === undefined ? '' : ` on ${plural(summary.pages, 'page')}`;
  const verdict = `### ${isFailed ? '❌' : '✅'} linkladder check: ${summary.broken} broken, ${summary.unverified} unverified, ${summary.ok} ok ${summary.ok === 1 ? 'link' : 'links'}${pages}`;
  const otherLine =
    others.size === 0
      ? []
      : [`Other findings: ${[...others].map(([c, { count, severity }]) => `${CATALOG_CODE.test(c) ? c : markdownText(c)} × ${count} (${severity})`).join(', ')}.`, ''];

  const render = (shownBroken: number, shownUnverified: number): string => {
    const lines = [verdict, ''];
    if (broken.length > 0) {
      lines.push('#### Broken links', '');
      if (shownBroken > 0) lines.push(...TABLE_HEAD, ...brokenRows.slice(0, shownBroken), '');
      if (shownBroken < broken.length) lines.push(`_…and ${plural(broken.length - shownBroken, 'more broken link')} not shown: the summary would be too long._`, '');
    }
    if (unverified.length > 0) {
      lines.push(`<details><summary>${plural(unverified.length, 'unverified link')} (the target could not be verified)</summary>`, '');
      if (shownUnverified > 0) lines.push(...TABLE_HEAD, ...unverifiedRows.slice(0, shownUnverified), '');
      if (shownUnverified < unverified.length) {
        lines.push(`_…and ${plural(unverified.length - shownUnverified, 'more unverified link')} not shown: the summary would be too long._`, '');
      }
      lines.push('</details>', '');
    }
    lines.push(...otherLine);
    return lines.join('\n');
  };

  // The most rows that fit, broken links first: each row adds more than the count it takes off the "not shown" line.
  const fits = (text: string): boolean => text.length <= maxLength;
  const most = (limit: number, render1: (n: number) => string): number => {
    let low = 0;
    let high = limit;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(render1(mid))) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const shownBroken = most(brokenRows.length, (n) => render(n, 0));
  const shownUnverified = most(unverifiedRows.length, (n) => render(shownBroken, n));
  const text = render(shownBroken, shownUnverified);
  if (fits(text)) return text;
  // Only a list of other codes longer than the limit gets here.
  const cut = `\n\n_…cut: the summary would be too long._\n`;
  return text.slice(0, maxLength - cut.length).replace(/[\uD800-\uDBFF]$/, '') + cut;
}
