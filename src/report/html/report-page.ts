// The report page around its data: head (CSP, inline CSS), the static parts (title,
// run line, counts, the broken-links table, the runs and the funnel), the tab panels
// the script fills, and the inline script. No external resource of any kind: the CSP
// forbids loading one. With script off every panel shows, one after the other.

import { createHash } from 'node:crypto';
import { REPORT_SCRIPT } from './report-script.js';
import { REPORT_STYLE } from './report-style.js';
import { escapeHtml } from './html-escape.js';
import { STATUS_CLASSES } from './status-class.js';

/** What the static part of the page shows, all of it known before the data is written. */
export interface ReportPageFacts {
  /** The site's name (its seeds' hosts), in the title and the heading. */
  readonly siteName: string;
  /** The seed URLs, under the heading. */
  readonly seeds: readonly string[];
  /** When the last run was and how long it took. */
  readonly runLine: string;
  /** Id, label and number, in order, for the counts at the top. */
  readonly counts: readonly (readonly [id: string, label: string, count: number])[];
  /** The broken-links table (static HTML). */
  readonly brokenHtml: string;
  /** The duplicates tab: byte-identical bodies the ladder did not join (static HTML; content evidence, heuristic). */
  readonly duplicatesHtml: string;
  /** The runs with their seeds and settings (static HTML). */
  readonly runsHtml: string;
  readonly funnelSvg: string;
  /** What the explainer under the funnel says was saved. */
  readonly savedText: string;
  /** Whether the graph shows only the seeds' hosts. */
  readonly isInternalOnly: boolean;
}

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The Content-Security-Policy: nothing may load from anywhere; only this page's own
 * style and script (by hash) run. Inline SVG presentation attributes are not styles.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${cspHash(REPORT_SCRIPT)}`,
  `style-src ${cspHash(REPORT_STYLE)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The tabs, in order: what to fix first. Each is a section of the same id. */
const TABS: readonly (readonly [id: string, label: string])[] = [
  ['broken', 'Broken links'],
  ['links', 'All links'],
  ['external', 'External links'],
  ['findings', 'Findings'],
  ['aliases', 'Redirects and aliases'],
  ['duplicates', 'Duplicates'],
  ['graph', 'Link graph'],
  ['crawl', 'Crawl runs and ladder'],
];

const CLASS_OPTIONS = STATUS_CLASSES.map((name) => `<option value="${name}">${name}</option>`).join('');

/** A paged table's controls: `prefix-first` … `prefix-last` buttons and the page it shows. */
function pager(prefix: string, noun: string): string {
  return `<div class="pager" role="group" aria-label="pages of ${noun}">
<button type="button" id="${prefix}-first">First</button><button type="button" id="${prefix}-prev">Previous</button>
<span id="${prefix}-page" aria-live="polite"></span>
<button type="button" id="${prefix}-next">Next</button><button type="button" id="${prefix}-last">Last</button>
</div>`;
}

/** The URL table of the all-links and external tabs: filters by status class, host and text, paged. */
function urlPanel(prefix: string, noun: string): string {
  return `<div class="filters">
<label>Status <select id="${prefix}-class"><option value="">all</option>${CLASS_OPTIONS}</select></label>
<label>Host <select id="${prefix}-host"><option value="">all</option></select></label>
<input id="${prefix}-text" type="search" placeholder="text in the URL or the referring page" aria-label="filter ${noun} by text">
<span id="${prefix}-shown" class="shown" aria-live="polite"></span>
</div>
${pager(prefix, noun)}
<div class="table-wrap"><table>
<caption>${noun}: broken first, then most linked</caption>
<thead><tr><th scope="col">URL</th><th scope="col">status</th><th scope="col">host</th><th scope="col" class="number">pages linking</th><th scope="col">first linked from (href as written)</th></tr></thead>
<tbody id="${prefix}-rows"></tbody>
</table></div>`;
}

const NEEDS_SCRIPT = '<noscript><p class="notice">This table is drawn by the page\'s script: turn JavaScript on to see it. The broken links above need none.</p></noscript>';

/** Everything before the embedded data. */
export function pageStart(facts: ReportPageFacts): string {
  const counts = facts.counts
    // The two broken counts lead, in red when they are not zero.
    .map(([id, label, count], index) => `<li${index < 2 && count > 0 ? ' class="lead"' : ''}><span class="count" data-count="${id}">${count}</span><span class="label">${escapeHtml(label)}</span></li>`)
    .join('\n');
  const seeds = facts.seeds.map((seed) => `<code>${escapeHtml(seed)}</code>`).join(', ');
  const nav = TABS.map(([id, label]) => `<a href="#${id}" id="tab-${id}" data-tab="${id}">${label}</a>`).join('');
  const site = escapeHtml(facts.siteName);
  const graphScope = facts.isInternalOnly ? 'URLs on the seeds\' hosts only (--internal-only)' : 'every URL';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Links of ${site} — linkladder report</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>Links of ${site}</h1>
<p>Seeds: ${seeds === '' ? 'none recorded' : seeds}</p>
<p id="run-line">${escapeHtml(facts.runLine)}</p>
</header>
<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title" class="visually-hidden">Summary</h2>
<ul class="counts">
${counts}
</ul>
</section>
<nav aria-label="report views">${nav}</nav>
<main>
<section id="broken" class="tab-panel" aria-labelledby="broken-title">
<h2 id="broken-title">Broken links</h2>
<p class="muted">Each target that answered 4xx or 5xx or could not be fetched, with every page linking to it: fix the link on each page, or bring the target back.</p>
${facts.brokenHtml}
</section>
<section id="links" class="tab-panel" aria-labelledby="links-title">
<h2 id="links-title">All links</h2>
<p class="muted">Every URL the crawl met, with what it answered. Status classes: 2xx, 3xx (redirects that reach a response), 4xx, 5xx, error (no usable response), not checked (not requested: out of scope, refused by robots.txt, or not reached).</p>
${NEEDS_SCRIPT}
${urlPanel('link', 'links')}
</section>
<section id="external" class="tab-panel" aria-labelledby="external-title">
<h2 id="external-title">External links</h2>
<p class="muted">URLs on other hosts than the seeds', with what the index has on them.</p>
${NEEDS_SCRIPT}
${urlPanel('external', 'external links')}
</section>
<section id="findings" class="tab-panel" aria-labelledby="findings-title">
<h2 id="findings-title">Findings</h2>
${NEEDS_SCRIPT}
<div class="filters">
<label>Severity <select id="finding-severity"><option value="">all</option><option value="error">error</option><option value="warning">warning</option><option value="info">info</option></select></label>
<label>Code <select id="finding-code"><option value="">all</option></select></label>
<input id="finding-text" type="search" placeholder="text in the message, page, href or target" aria-label="filter findings by text">
<span id="finding-shown" class="shown" aria-live="polite"></span>
</div>
${pager('finding', 'findings')}
<div class="table-wrap"><table>
<thead><tr><th scope="col">severity</th><th scope="col">code</th><th scope="col">page</th><th scope="col">href</th><th scope="col" class="number">line</th><th scope="col">message</th></tr></thead>
<tbody id="finding-rows"></tbody>
</table></div>
</section>
<section id="aliases" class="tab-panel" aria-labelledby="aliases-title">
<h2 id="aliases-title">Redirects and aliases</h2>
${NEEDS_SCRIPT}
<div class="filters"><input id="alias-text" type="search" placeholder="filter by URL, evidence or code" aria-label="filter aliases and redirects"></div>
<h3>Redirect chains <span id="redirect-shown" class="shown"></span></h3>
<div class="table-wrap"><table>
<thead><tr><th scope="col">requested</th><th scope="col">hops</th><th scope="col">error</th></tr></thead>
<tbody id="redirect-rows"></tbody>
</table></div>
<h3>Aliases (protocol rung, RFC 3986 §6.2.4) <span id="alias-shown" class="shown"></span></h3>
<div class="table-wrap"><table>
<thead><tr><th scope="col">URL</th><th scope="col"><span class="visually-hidden">is</span></th><th scope="col">stands for</th><th scope="col">evidence</th><th scope="col">detail</th></tr></thead>
<tbody id="alias-rows"></tbody>
</table></div>
</section>
<section id="duplicates" class="tab-panel" aria-labelledby="duplicates-title">
<h2 id="duplicates-title">Duplicate representations (content evidence, heuristic)</h2>
${facts.duplicatesHtml}
</section>
<section id="graph" class="tab-panel" aria-labelledby="graph-title">
<h2 id="graph-title">Link graph</h2>
${NEEDS_SCRIPT}
<p class="muted">Drawn: ${graphScope}, each at the ring of its depth, under the page that first linked it; colour by status. Orange arrows are redirects. Pick a node, or find a page below, to see its links in and out.</p>
<p id="graph-truncated" class="notice" hidden></p>
<ul id="graph-legend" class="legend"></ul>
<div id="graph-drawing"></div>
<h3>Explorer</h3>
<div class="explorer">
<div>
<input id="page-search" type="search" placeholder="find a page by URL" aria-label="find a page">
<ul id="page-matches"></ul>
</div>
<div id="page-view"></div>
</div>
</section>
<section id="crawl" class="tab-panel" aria-labelledby="crawl-title">
<h2 id="crawl-title">Crawl runs and ladder</h2>
${facts.runsHtml}
<h3>The ladder funnel</h3>
${facts.funnelSvg}
<p class="muted">${escapeHtml(facts.savedText)}</p>
</section>
</main>
<script type="application/json" id="report-data">`;
}

/** Everything after the embedded data. */
export function pageEnd(): string {
  return `</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
