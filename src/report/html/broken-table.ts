// The broken-links view as static HTML, so that it reads with script off: one row
// group per broken target (most referring pages first), a row per referring link.

import type { BrokenTarget } from './broken-targets.js';
import { escapeHtml } from './html-escape.js';

/**
 * Most referring links written as rows: past it the table says how many more there
 * are, and the findings tab (script on) pages through them all.
 */
export const BROKEN_ROWS_LIMIT = 2000;

/** The table; `idOfKey` gives the explorer's anchor of a page. */
export function brokenTableHtml(targets: readonly BrokenTarget[], idOfKey: ReadonlyMap<string, number>, rowLimit = BROKEN_ROWS_LIMIT): string {
  if (targets.length === 0) return '<p id="broken-none">No broken links: every link the crawl checked reached a response.</p>';
  const links = targets.reduce((sum, target) => sum + target.referrers.length, 0);
  const parts: string[] = [
    '<div class="table-wrap"><table id="broken-table">',
    `<caption>${plural(targets.length, 'broken target')}, named by ${plural(links, 'link')}; most referring pages first</caption>`,
    '<thead><tr><th scope="col">referring page</th><th scope="col">href as written</th><th scope="col" class="number">line</th></tr></thead>',
  ];
  let rows = 0;
  let shownLinks = 0;
  for (const target of targets) {
    if (rows >= rowLimit) break;
    const anchor = anchorOf(target.target, idOfKey);
    parts.push(
      '<tbody class="broken-target">',
      `<tr><th scope="rowgroup" colspan="3"><span class="status status-bad">${escapeHtml(target.status)}</span> ${anchor} <span class="muted">— linked from ${plural(target.pages, 'page')}</span>${foldHtml(target.referrers.length)}</th></tr>`,
    );
    for (const referrer of target.referrers) {
      if (rows >= rowLimit) break;
      const line = referrer.line === undefined ? '' : String(referrer.line);
      parts.push(`<tr><td>${anchorOf(referrer.page, idOfKey)}</td><td><code>${escapeHtml(referrer.rawHref)}</code></td><td class="number">${line}</td></tr>`);
      rows += 1;
      shownLinks += 1;
    }
    parts.push('</tbody>');
  }
  parts.push('</table></div>');
  if (shownLinks < links) {
    parts.push(`<p class="notice" id="broken-more">The first ${shownLinks} of ${links} broken links are listed here; the Findings tab (code LINK_BROKEN) pages through all of them.</p>`);
  }
  return parts.join('\n');
}

/**
 * A target named by more links than this gets a box that hides them (CSS alone, so it
 * works with script off too): one target named from every page of a site would
 * otherwise bury the others.
 */
export const FOLD_FROM_LINKS = 10;

function foldHtml(links: number): string {
  if (links <= FOLD_FROM_LINKS) return '';
  return ` <label class="fold"><input type="checkbox" class="fold"> hide its ${links} links</label>`;
}

function anchorOf(key: string, idOfKey: ReadonlyMap<string, number>): string {
  const id = idOfKey.get(key);
  const text = escapeHtml(key);
  return id === undefined ? `<span class="url">${text}</span>` : `<a class="url" href="#page=${id}">${text}</a>`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
