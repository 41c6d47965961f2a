// The report page around its data: head (CSP, inline CSS), the static sections, and
// the inline script. No external resource of any kind: the CSP forbids loading one.

import { createHash } from 'node:crypto';
import { REPORT_SCRIPT } from './report-script.js';
import { escapeHtml } from './html-escape.js';

const REPORT_STYLE = `
:root { color-scheme: light; --muted: #6c757d; --line: #dee2e6; --accent: #0d6efd; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #212529; background: #f8f9fa; }
header { background: #212529; color: #fff; padding: 12px 24px; }
header h1 { font-size: 20px; margin: 0; }
header p { margin: 4px 0 0; color: #adb5bd; overflow-wrap: anywhere; }
nav { display: flex; gap: 16px; padding: 8px 24px; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; }
nav a { color: var(--accent); text-decoration: none; }
main { padding: 0 24px 48px; max-width: 1400px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 16px; margin-top: 16px; }
h2 { font-size: 18px; margin: 0 0 12px; }
h3 { font-size: 15px; margin: 0 0 8px; }
h4 { font-size: 14px; margin: 16px 0 6px; }
.counts { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.counts .count { display: block; font-size: 22px; font-weight: 600; }
.counts .label { color: var(--muted); }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
input, select { font: inherit; padding: 4px 6px; border: 1px solid #ced4da; border-radius: 4px; }
input[type="search"] { min-width: 280px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: #f1f3f5; position: sticky; top: 0; }
.number { text-align: right; }
.url, code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.muted, .shown, .detail { color: var(--muted); }
.detail { font-size: 12px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; color: #fff; }
.badge-error { background: #dc3545; } .badge-warning { background: #fd7e14; } .badge-info { background: #0dcaf0; color: #000; }
.state { font-size: 12px; border-radius: 4px; padding: 0 5px; background: #e9ecef; }
.state-failed { background: #f8d7da; } .state-alias { background: #e7f1ff; } .state-skipped { background: #eeeeee; color: var(--muted); }
.state-queued, .state-fetching { background: #fff3cd; }
.explorer { display: grid; grid-template-columns: minmax(260px, 1fr) 3fr; gap: 16px; }
.explorer ul { list-style: none; padding: 0; margin: 8px 0 0; max-height: 560px; overflow: auto; }
.explorer li { padding: 2px 0; }
.hops { margin: 0; padding-left: 18px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.forms { list-style: none; padding: 0; margin: 0; }
.table-wrap { max-height: 640px; overflow: auto; }
.notice { background: #fff3cd; border: 1px solid #ffe69c; border-radius: 4px; padding: 6px 10px; }
`;

/** What the static part of the page shows, all of it known before the data is written. */
export interface ReportPageFacts {
  /** The seed URLs, in the header. */
  readonly title: string;
  /** Label and number, in order, for the counts at the top. */
  readonly counts: readonly (readonly [id: string, label: string, count: number])[];
  readonly funnelSvg: string;
  /** What the explainer under the funnel says was saved. */
  readonly savedText: string;
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
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Everything before the embedded data. */
export function pageStart(facts: ReportPageFacts): string {
  const counts = facts.counts
    .map(([id, label, count]) => `<li><span class="count" data-count="${id}">${count}</span><span class="label">${escapeHtml(label)}</span></li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>linkladder report</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>linkladder report</h1>
<p>${escapeHtml(facts.title)}</p>
</header>
<nav><a href="#overview">Overview</a><a href="#findings">Findings</a><a href="#aliases">Aliases and redirects</a><a href="#graph">Link graph</a></nav>
<main>
<section id="overview">
<h2>Overview</h2>
<ul class="counts">
${counts}
</ul>
<h3>The ladder funnel</h3>
${facts.funnelSvg}
<p class="muted">${escapeHtml(facts.savedText)}</p>
</section>
<section id="findings">
<h2>Findings</h2>
<div class="filters">
<label>Severity <select id="finding-severity"><option value="">all</option><option value="error">error</option><option value="warning">warning</option><option value="info">info</option></select></label>
<label>Code <select id="finding-code"><option value="">all</option></select></label>
<input id="finding-text" type="search" placeholder="text in the message, page, href or target" aria-label="filter findings by text">
<span id="finding-shown" class="shown"></span>
</div>
<div class="table-wrap"><table>
<thead><tr><th>severity</th><th>code</th><th>page</th><th>href</th><th>message</th></tr></thead>
<tbody id="finding-rows"></tbody>
</table></div>
</section>
<section id="aliases">
<h2>Aliases and redirects</h2>
<div class="filters"><input id="alias-text" type="search" placeholder="filter by URL, evidence or code" aria-label="filter aliases and redirects"></div>
<h3>Aliases (protocol rung, RFC 3986 §6.2.4) <span id="alias-shown" class="shown"></span></h3>
<div class="table-wrap"><table>
<thead><tr><th>URL</th><th></th><th>stands for</th><th>evidence</th><th>detail</th></tr></thead>
<tbody id="alias-rows"></tbody>
</table></div>
<h3>Redirect chains <span id="redirect-shown" class="shown"></span></h3>
<div class="table-wrap"><table>
<thead><tr><th>requested</th><th>hops</th><th>error</th></tr></thead>
<tbody id="redirect-rows"></tbody>
</table></div>
</section>
<section id="graph">
<h2>Link graph</h2>
<p id="graph-truncated" class="notice" hidden></p>
<div class="explorer">
<div>
<input id="page-search" type="search" placeholder="find a page by URL" aria-label="find a page">
<ul id="page-matches"></ul>
</div>
<div id="page-view"></div>
</div>
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
