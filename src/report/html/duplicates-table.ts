// The duplicates tab as static HTML (DUPLICATE_REPRESENTATION): groups of
// URLs whose bodies are byte-identical though the ladder did not join them. Content
// evidence, beyond RFC 3986 and heuristic, so shown apart from the protocol rung's aliases.

import type { IndexReader } from '../../store/index.js';
import { differenceFromFirst, duplicateGroups, type DuplicateGroup } from '../duplicate-groups.js';
import { redactPassword } from '../redact.js';
import type { CrawlStats, DuplicateStats } from '../stats/index.js';
import { escapeHtml } from './html-escape.js';

/** Most URLs written as rows: past it the table says how many more there are (`linkladder audit` lists all). */
export const DUPLICATE_ROWS_LIMIT = 2000;

/** The groups the table shows: whole groups, up to `rowLimit` URLs (at least one group). */
export async function readDuplicateGroups(reader: IndexReader, rowLimit = DUPLICATE_ROWS_LIMIT): Promise<DuplicateGroup[]> {
  const groups: DuplicateGroup[] = [];
  let rows = 0;
  for await (const group of duplicateGroups(reader)) {
    if (groups.length > 0 && rows + group.length > rowLimit) break;
    groups.push(group);
    rows += group.length;
  }
  return groups;
}

/** The tab's content: the rules `--content-evidence` learned, what it is, the most frequent prefix pairs, and the groups. */
export function duplicatesTableHtml(groups: readonly DuplicateGroup[], stats: DuplicateStats, content?: CrawlStats['contentEvidence']): string {
  const rules = content === undefined ? '' : `${rulesTableHtml(content)}\n`;
  return rules + groupsHtml(groups, stats);
}

/** What `--content-evidence` did in its last run: the URLs it held back, and its rules. */
function rulesTableHtml(content: NonNullable<CrawlStats['contentEvidence']>): string {
  const rows = content.rules.map(
    (rule) =>
      `<tr><td><code>${urlHtml(rule.prefixes[0])}</code> ↔ <code>${urlHtml(rule.prefixes[1])}</code></td><td>${rule.support}</td><td>${rule.contradictions}</td><td><span class="url">${urlHtml(rule.provedBy)}</span></td></tr>`,
  );
  return [
    `<h3 id="content-rules-title">Rules learned by <code>--content-evidence</code> (run ${content.runId}, heuristic)</h3>`,
    `<p>${plural(content.deferred, 'URL')} held back as predicted duplicates: ${content.joined} joined without a request, ${content.released} fetched. A rule never joins by itself: a held URL is joined only when its rule was never contradicted, the page it maps onto was fetched and declares its language variants, and no page declared it.</p>`,
    '<div class="table-wrap"><table id="content-rules">',
    '<thead><tr><th scope="col">rule</th><th scope="col">support</th><th scope="col">contradictions</th><th scope="col">first proved by</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    '</table></div>',
  ].join('\n');
}

function groupsHtml(groups: readonly DuplicateGroup[], stats: DuplicateStats): string {
  const about =
    '<p class="muted">Content evidence, beyond RFC 3986 (heuristic): URLs whose current bodies are byte-identical (SHA-256) though the comparison ladder did not join them — a page and the variant its <code>Content-Location</code> names are one resource and never listed. Reported by the audit as DUPLICATE_REPRESENTATION; it changed no crawl decision. URLs that <code>--content-evidence</code> joined are marked.</p>';
  if (stats.groups === 0) return `${about}\n<p id="duplicates-none">No duplicates: no two URLs the ladder kept apart served the same body.</p>`;
  const pairs = stats.prefixPairs.map((pair) => `<li><code>${escapeHtml(pair.from)}</code> ↔ <code>${escapeHtml(pair.to)}</code> <span class="muted">${pair.count}</span></li>`).join('');
  const parts: string[] = [
    about,
    `<p>${plural(stats.groups, 'group')}, ${plural(stats.urls, 'URL')}. The prefixes they differ in, the most frequent first:</p>`,
    `<ul id="duplicate-pairs">${pairs}</ul>`,
    '<div class="table-wrap"><table id="duplicates-table">',
    `<caption>${plural(stats.groups, 'group')} of byte-identical bodies, each under its first URL (by key)</caption>`,
    '<thead><tr><th scope="col">URL</th><th scope="col">differs from the first in</th><th scope="col">joined by content evidence</th></tr></thead>',
  ];
  let shown = 0;
  for (const group of groups) {
    const [first, ...rest] = group;
    parts.push(
      '<tbody class="duplicate-group">',
      `<tr><th scope="rowgroup" colspan="3"><span class="url">${urlHtml(first!.key)}</span> <span class="muted">— ${plural(group.length, 'URL')}, SHA-256 ${escapeHtml(first!.digest)}${first!.contentEvidence === undefined ? '' : `; joined by content evidence (${escapeHtml(first!.contentEvidence)}, heuristic)`}</span></th></tr>`,
    );
    for (const row of rest) {
      const { from, to } = differenceFromFirst(row, first!);
      const joined = row.contentEvidence === undefined ? '' : `${escapeHtml(row.contentEvidence)} (heuristic)`;
      parts.push(`<tr><td><span class="url">${urlHtml(row.key)}</span></td><td><code>${escapeHtml(from)}</code> ↔ <code>${escapeHtml(to)}</code></td><td>${joined}</td></tr>`);
    }
    parts.push('</tbody>');
    shown += group.length;
  }
  parts.push('</table></div>');
  if (shown < stats.urls) parts.push(`<p class="notice" id="duplicates-more">The first ${shown} of ${stats.urls} URLs are listed here; <code>linkladder audit</code> lists all of them (DUPLICATE_REPRESENTATION).</p>`);
  return parts.join('\n');
}

/** A URL (or URL prefix) as the tab shows it: escaped, its password redacted (keys keep userinfo as written). */
function urlHtml(url: string): string {
  return escapeHtml(redactPassword(url));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
