// What `check` writes on stdout: its findings in the format asked for.

import type { CrawlSummary } from '../crawl/index.js';
import {
  formatCheckCsv,
  formatCheckGithub,
  formatCheckJson,
  formatCheckJunit,
  formatCheckMarkdown,
  formatCheckSarif,
  formatCheckText,
  type CheckFinding,
  type Severity,
} from '../report/index.js';
import type { LocalPages } from './check-local-pages.js';
import type { LineWriter } from './line-writer.js';
import { readPackageVersion } from './package-version.js';

export const CHECK_FORMATS = ['text', 'json', 'csv', 'sarif', 'junit', 'github', 'markdown'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export const CHECK_FAIL_ON = ['error', 'warning'] as const satisfies readonly Severity[];

/** URLs checked, as the crawl's summary counts them by verdict (on stderr): one figure for both. */
export function urlsChecked(summary: CrawlSummary | undefined): number | undefined {
  return summary === undefined ? undefined : summary.verdicts.ok + summary.verdicts.broken + summary.verdicts.unverified;
}

/** What the formats need besides the findings. */
export interface Shape {
  readonly failOn: (typeof CHECK_FAIL_ON)[number];
  /** Every page checked and shown: its file (relative), or its URL for a live site. */
  readonly pages: readonly string[];
  /** The links of the pages shown, by verdict (a link with a missing fragment is broken). */
  readonly verdicts: Readonly<Record<'ok' | 'broken' | 'unverified', number>>;
  readonly urlsChecked: number | undefined;
}

export async function writeFindings(out: LineWriter, format: CheckFormat, findings: readonly CheckFinding[], local: LocalPages, shape: Shape): Promise<void> {
  let lines: AsyncIterable<string> | Iterable<string>;
  const { urlsChecked, failOn } = shape;
  switch (format) {
    case 'text':
      lines = formatCheckText(findings, { targetLabel: (target) => local.targetLabel(target), urlsChecked });
      break;
    case 'json':
      lines = formatCheckJson(findings);
      break;
    case 'csv':
      lines = formatCheckCsv(findings);
      break;
    case 'sarif':
      lines = formatCheckSarif(findings, { toolVersion: readPackageVersion() });
      break;
    case 'junit':
      lines = [formatCheckJunit(findings, { checkedFiles: shape.pages, failOn, toolVersion: readPackageVersion() })];
      break;
    case 'github':
      lines = [formatCheckGithub(findings, { failOn })];
      break;
    case 'markdown':
      lines = [formatCheckMarkdown(findings, { ...shape.verdicts, pages: shape.pages.length, failOn })];
      break;
  }
  // The CI formats come whole, their last line ended.
  for await (const line of lines) await out.writeLine(line.endsWith('\n') ? line.slice(0, -1) : line);
}
