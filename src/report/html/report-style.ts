// The report's one stylesheet, inlined into the page (its hash is in the CSP).

export const REPORT_STYLE = `
:root { color-scheme: light; --muted: #5c636a; --line: #dee2e6; --accent: #0a58ca; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #212529; background: #f8f9fa; }
header { background: #212529; color: #fff; padding: 12px 24px; }
header h1 { font-size: 20px; margin: 0; }
header p { margin: 4px 0 0; color: #ced4da; overflow-wrap: anywhere; }
nav { display: flex; flex-wrap: wrap; gap: 4px; padding: 6px 24px 0; background: #fff; border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 2; }
nav a { color: var(--accent); text-decoration: none; padding: 6px 12px; border: 1px solid transparent; border-bottom: none; border-radius: 6px 6px 0 0; }
nav a[aria-current="page"] { border-color: var(--line); background: #f8f9fa; color: #212529; font-weight: 600; }
nav a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #ffbf47; outline-offset: 1px; }
main { padding: 0 24px 48px; max-width: 1400px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 16px; margin-top: 16px; }
h2 { font-size: 18px; margin: 0 0 12px; }
h3 { font-size: 15px; margin: 16px 0 8px; }
h4 { font-size: 14px; margin: 16px 0 6px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
caption { text-align: left; color: var(--muted); padding: 4px 0; }
.counts { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.counts .count { display: block; font-size: 22px; font-weight: 600; }
.counts .label { color: var(--muted); }
.counts .lead .count { color: #b02a37; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 8px; }
input, select, button { font: inherit; padding: 4px 6px; border: 1px solid #ced4da; border-radius: 4px; background: #fff; }
button { cursor: pointer; }
button:disabled { cursor: default; color: var(--muted); }
input[type="search"] { min-width: 280px; }
.pager { display: flex; gap: 6px; align-items: center; margin: 8px 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
thead th { background: #f1f3f5; position: sticky; top: 0; }
tbody th { font-weight: normal; }
.broken-target th[scope="rowgroup"] { background: #fff5f5; border-top: 2px solid #f1aeb5; }
.broken-target label.fold { float: right; font-weight: normal; cursor: pointer; }
.broken-target:has(input.fold:checked) > tr:not(:first-child) { display: none; }
.number { text-align: right; }
.url, code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12.5px; overflow-wrap: anywhere; }
.muted, .shown, .detail { color: var(--muted); }
.detail { font-size: 12px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; color: #fff; }
.badge-error { background: #b02a37; } .badge-warning { background: #9a4a00; } .badge-info { background: #0b7285; }
.status { display: inline-block; font-size: 12px; border-radius: 4px; padding: 0 5px; background: #e9ecef; white-space: nowrap; }
.status-bad, .status-4xx, .status-5xx, .status-error { background: #f8d7da; }
.status-2xx { background: #d1e7dd; } .status-3xx { background: #cfe2ff; } .status-not-checked { background: #eeeeee; color: var(--muted); }
.state { font-size: 12px; border-radius: 4px; padding: 0 5px; background: #e9ecef; }
.explorer { display: grid; grid-template-columns: minmax(260px, 1fr) 3fr; gap: 16px; }
.explorer ul { list-style: none; padding: 0; margin: 8px 0 0; max-height: 560px; overflow: auto; }
.explorer li { padding: 2px 0; }
.hops { margin: 0; padding-left: 18px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.settings { width: auto; margin-top: 8px; }
.forms { list-style: none; padding: 0; margin: 0; }
.table-wrap { max-height: 640px; overflow: auto; }
.notice { background: #fff3cd; border: 1px solid #ffe69c; border-radius: 4px; padding: 6px 10px; }
.legend { display: flex; flex-wrap: wrap; gap: 12px; list-style: none; padding: 0; margin: 8px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 4px; vertical-align: -1px; }
#graph-drawing { width: 100%; height: 720px; border: 1px solid var(--line); border-radius: 6px; background: #fcfcfd; }
#graph-drawing circle { cursor: pointer; }
.swatch-2xx { background: #198754; } .swatch-3xx { background: #0d6efd; } .swatch-4xx { background: #dc3545; }
.swatch-5xx { background: #6f42c1; } .swatch-error { background: #212529; } .swatch-not-checked { background: #adb5bd; }
.swatch-redirect { background: #fd7e14; border-radius: 0; height: 3px; width: 18px; vertical-align: 3px; }
`;
