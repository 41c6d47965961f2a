// The audit (the report layer): what a crawl's index says is wrong with the
// site's links, read from the index alone — nothing is fetched again. Links stream
// from the reader page by page; only per-URL summaries (state, last fetch, anchors,
// page findings) and the page- and URL-level findings are held in memory.

import { describeValue, OptionError } from '../../errors.js';
import type { IndexReader } from '../../store/index.js';
import { AuditRules, type PageContext } from './audit-rules.js';
import { SEVERITY_RANK } from './codes.js';
import { SEVERITIES, type AuditFinding, type Severity } from './finding.js';
import { IndexFacts } from './index-facts.js';
import { sitemapFindings } from './sitemap-findings.js';

export interface AuditOptions {
  /**
   * Leave out findings below this severity.
   * @default 'info'
   */
  readonly minSeverity?: Severity;
}

export const AUDIT_DEFAULTS = { minSeverity: 'info' } as const satisfies AuditOptions;

/**
 * Audit the crawl behind `reader`: each finding has a stable code (docs/audit.md),
 * its severity, the page, the href as written, what it resolves to and one line
 * that says what is wrong. Findings come ordered by page (the index's URL order),
 * a page's own findings before those of its links, links in page order.
 *
 * Throws `OptionError` for a bad option, at once; reading the index happens as
 * the result is iterated.
 */
export function audit(reader: IndexReader, options?: AuditOptions): AsyncIterableIterator<AuditFinding> {
  const minSeverity = validateOptions(options);
  return run(reader, SEVERITY_RANK[minSeverity]);
}

function validateOptions(options: AuditOptions | undefined): Severity {
  if (options === undefined) return AUDIT_DEFAULTS.minSeverity;
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const value: unknown = options.minSeverity ?? AUDIT_DEFAULTS.minSeverity;
  if (!(SEVERITIES as readonly unknown[]).includes(value)) {
    throw new OptionError(`Expected \`minSeverity\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(value)}`);
  }
  return value as Severity;
}

async function* run(reader: IndexReader, minRank: number): AsyncGenerator<AuditFinding> {
  const index = new AuditRules(await IndexFacts.read(reader));
  const pageLevel = index.pageLevelFindings();
  const pages = [...pageLevel.keys()].sort((a, b) => a - b);
  let next = 0;
  let currentPage: number | undefined;
  let context: PageContext | undefined;
  const keep = (finding: AuditFinding): boolean => SEVERITY_RANK[finding.severity] >= minRank;
  for await (const link of reader.links()) {
    if (link.fromUrlId !== currentPage) {
      currentPage = link.fromUrlId;
      // Pages before this one that have no links, then this page's own findings.
      while (next < pages.length && pages[next]! <= currentPage) {
        for (const finding of pageLevel.get(pages[next]!)!) if (keep(finding)) yield finding;
        next++;
      }
      context = index.pageContext(currentPage);
    }
    for (const finding of index.linkFindings(link, context!)) if (keep(finding)) yield finding;
  }
  for (; next < pages.length; next++) {
    for (const finding of pageLevel.get(pages[next]!)!) if (keep(finding)) yield finding;
  }
  const unchecked = index.fragmentsNotChecked();
  if (unchecked !== undefined && keep(unchecked)) yield unchecked;
  // The sitemaps the crawl read, after the pages (sitemap-findings.ts).
  for await (const finding of sitemapFindings(reader)) if (keep(finding)) yield finding;
}
