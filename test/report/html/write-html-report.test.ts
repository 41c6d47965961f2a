// The report file itself: self-contained, data escaped, broken links first as static
// HTML, the run's date, seeds and settings, counts right.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeHtmlReport, type HtmlReportOptions } from '../../../src/report/index.js';
import type { AuditFinding } from '../../../src/report/audit/finding.js';
import type { IndexReader } from '../../../src/store/index.js';
import { readerOf } from '../support/memory-index.js';
import { FINDINGS, HOSTILE, HOSTILE_URL, reportReader } from './sample-report.js';

async function reportText(reader: IndexReader, findings: readonly AuditFinding[], options?: HtmlReportOptions): Promise<{ html: string; summary: Awaited<ReturnType<typeof writeHtmlReport>> }> {
  let html = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      html += chunk.toString('utf8');
      callback();
    },
  });
  const summary = await writeHtmlReport(reader, findings, sink, options);
  return { html, summary };
}

function embeddedData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  if (match?.[1] === undefined) throw new Error('no embedded data');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** The page without its scripts: what a reader with JavaScript off gets. */
function withoutScripts(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>/g, '');
}

describe('writeHtmlReport', () => {
  it('one file that loads nothing: no external URL in src, href or CSS, and a CSP that forbids loading', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    // The graph's arrow marker is the one url(), and it names a fragment of the page.
    expect(html).not.toMatch(/@import|url\((?!#redirect-arrow\))/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-`);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain('<svg id="funnel-chart"');
  });

  it('names the site in its title and heading, with the seeds and the run\'s date and duration', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS);
    expect(html).toContain('<title>Links of site.test — linkladder report</title>');
    expect(html).toContain('<h1>Links of site.test</h1>');
    expect(html).toContain('<p>Seeds: <code>http://site.test/</code></p>');
    expect(html).toContain('<p id="run-line">Crawled 2023-11-14 22:13:20 UTC, took 1 min 15 s.</p>');
    // The run's settings, escaped.
    expect(html).toMatch(/<tr><th scope="row">scope<\/th><td><code>&quot;host&quot;<\/code><\/td><\/tr>/);
    expect(html).toContain('<tr><th scope="row">maxDepth</th><td><code>null</code></td></tr>');
    expect(html).toContain('<dt>ended</dt><dd>2023-11-14 22:14:35 UTC (1 min 15 s), frontier-empty</dd>');
    expect(withoutScripts(html)).not.toContain('<script>window.__pwned');
  });

  it('an index crawled before runs were recorded: the seeds from the URLs at depth 0, and says the date is unknown', async () => {
    const { html } = await reportText(await reportReader({ hasRun: false }), []);
    expect(html).toContain('<h1>Links of site.test</h1>');
    expect(html).toContain('Crawl date not recorded');
  });

  it('leads with the broken links, as static HTML: each target once, with every referring page, its href as written and line', async () => {
    const { html, summary } = await reportText(await reportReader(), FINDINGS);
    const page = withoutScripts(html);
    expect(page.indexOf('id="broken"')).toBeLessThan(page.indexOf('id="links"'));
    expect(page.indexOf('id="broken"')).toBeLessThan(page.indexOf('id="findings"'));
    const table = /<table id="broken-table">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
    expect(table).toContain('<caption>1 broken target, named by 2 links; most referring pages first</caption>');
    expect(table.match(/<tbody class="broken-target">/g)).toHaveLength(1);
    const escaped = HOSTILE_URL.replace(/&/g, '&amp;');
    expect(table).toContain(`<span class="status status-bad">404</span> <a class="url" href="#page=4">${escaped}</a> <span class="muted">— linked from 2 pages</span>`);
    expect(table).toContain('<tr><td><a class="url" href="#page=1">http://site.test/</a></td><td><code>&lt;/script&gt;&lt;script&gt;window.__pwned = true&lt;/script&gt;&lt;!--</code></td><td class="number">12</td></tr>');
    expect(table).toContain('<tr><td><a class="url" href="#page=3">http://site.test/docs/</a></td><td><code>x.png</code></td><td class="number"></td></tr>');
    expect(summary).toMatchObject({ brokenLinks: 2, brokenTargets: 1 });
    expect(page).toContain('<span class="count" data-count="broken-links">2</span>');
  });

  it('says so when nothing is broken', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS.slice(2));
    expect(html).toContain('<p id="broken-none">No broken links');
  });

  it('lists the duplicate representations in a tab of their own, as static HTML labelled content evidence, apart from the aliases', async () => {
    const M = 'http://site.test/manual';
    const reader = await readerOf({
      urls: [
        { id: 1, key: `${M}/`, fetches: [{ digest: 'index' }] },
        { id: 2, key: `${M}/de/x.html`, from: 1, fetches: [{ digest: 'X' }] },
        { id: 3, key: `${M}/x.html`, from: 1, fetches: [{ digest: 'X' }] },
        { id: 4, key: `${M}/fr/x.html`, from: 1, aliasOf: 3, evidence: 'digest', fetches: [{ digest: 'X' }] },
        { id: 5, key: `${M}/a&b.html`, from: 1, fetches: [{ digest: 'B' }] },
        { id: 6, key: `${M}/de/a&b.html`, from: 1, fetches: [{ digest: 'B' }] },
      ],
    });
    const page = withoutScripts((await reportText(reader, [])).html);
    expect(page).toContain('<a href="#duplicates" id="tab-duplicates" data-tab="duplicates">Duplicates</a>');
    const tab = page.slice(page.indexOf('<section id="duplicates"'), page.indexOf('</section>', page.indexOf('<section id="duplicates"')));
    expect(tab).toContain('Duplicate representations (content evidence, heuristic)');
    expect(tab).toContain('beyond RFC 3986 (heuristic)');
    expect(tab).toContain('2 groups, 5 URLs');
    expect(tab).toContain('<li><code>/manual/fr/</code> ↔ <code>/manual/de/</code> <span class="muted">1</span></li>');
    expect(tab).toContain(`<tr><td><span class="url">${M}/fr/x.html</span></td><td><code>/manual/fr/</code> ↔ <code>/manual/de/</code></td><td>digest (heuristic)</td></tr>`);
    expect(tab).toContain(`${M}/de/a&amp;b.html`);
    expect(tab).not.toContain('a&b');
    const none = withoutScripts((await reportText(await reportReader(), FINDINGS)).html);
    expect(none).toContain('<p id="duplicates-none">');
  });

  it('embeds the data once as JSON in which no "<" can end the script element', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS);
    const dataStart = html.indexOf('id="report-data">');
    const dataEnd = html.indexOf('</script>', dataStart);
    expect(html.slice(dataStart + 'id="report-data">'.length, dataEnd)).not.toContain('<');
    const data = embeddedData(html);
    expect(data.classes).toEqual(['2xx', '3xx', '4xx', '5xx', 'error', 'not checked']);
    const findings = data.findings as unknown[][];
    expect(findings[0]).toEqual(['error', 'LINK_BROKEN', 'http://site.test/', HOSTILE, HOSTILE_URL, 'the link leads to a 404', 'status: 404, line: 12', 12]);
    expect(findings.map((row) => row[1])).toEqual(FINDINGS.map((finding) => finding.code));
    expect(data.aliases).toEqual([{ from: 'http://site.test/docs', to: 'http://site.test/docs/', evidence: 'redirect', detail: '301' }]);
    expect(data.redirects).toEqual([{ url: 'http://site.test/docs', hops: [{ to: 'http://site.test/docs/', status: 301 }], errorCode: null }]);
    // [id, key, state, depth, aliasOf, status, class, host, referring pages, first linked from, href there, spellings, external]
    expect(data.urls).toEqual([
      [1, 'http://site.test/', 'done', 0, null, '200', 0, 0, 1, null, null, ['HTTP://site.test:80/', 'http://site.test:80/'], 0],
      [2, 'http://site.test/docs', 'alias', 1, 3, 'alias', 5, 0, 1, 1, 'http://site.test/docs', [], 0],
      [3, 'http://site.test/docs/', 'done', 1, null, '301 → 200', 1, 0, 1, null, null, ['http://site.test/%64ocs/'], 0],
      [4, HOSTILE_URL, 'failed', 1, null, '404', 2, 0, 2, 1, HOSTILE_URL, [], 0],
      [5, 'http://elsewhere.test/', 'skipped', 1, null, 'skipped', 5, 1, 1, 1, 'http://elsewhere.test/', [], 1],
    ]);
    expect(data.hosts).toEqual([
      ['site.test', 0],
      ['elsewhere.test', 1],
    ]);
    // One row per page and kind: [from, kind, to, [to, count] …].
    expect(data.edgeKinds).toEqual([
      ['a', 'href'],
      ['link', 'href'],
      ['img', 'src'],
    ]);
    expect(data.edges).toEqual([
      [1, 0, 2, [3, 2], 4, 5],
      [1, 1, 5],
      [3, 0, 1, 3],
      [3, 2, 4],
    ]);
    expect(data.graph).toEqual({ internalOnly: false, maxNodes: 20_000 });
    expect(data.truncated).toBeNull();
  });

  it('shows the counts at the top, broken links first, and the funnel bars to scale', async () => {
    const { html, summary } = await reportText(await reportReader(), FINDINGS);
    expect(summary).toEqual({
      urls: 5,
      links: 10,
      fetches: 3,
      findings: 5,
      aliases: 1,
      contentAliases: 0,
      errors: 1,
      brokenLinks: 2,
      brokenTargets: 1,
      externalUrls: 1,
      nodes: 5,
      edges: 8,
      isGraphTruncated: false,
    });
    const counts = [...html.matchAll(/data-count="([a-z-]+)"/g)].map((match) => match[1]);
    expect(counts.slice(0, 3)).toEqual(['broken-links', 'broken-targets', 'redirected-links']);
    expect(html).toContain('<span class="count" data-count="urls">5</span>');
    expect(html).toContain('<span class="count" data-count="findings">5</span>');
    expect(html).toContain('<span class="count" data-count="redirected-links">1</span>');
    expect(html).toMatch(/<g class="funnel-step" data-step="rawLinks">.*width="460".*>9<\/text><\/g>/);
    expect(html).toMatch(/<g class="funnel-step" data-step="afterAliases">.*width="153".*>3<\/text><\/g>/);
  });

  it('cuts the embedded edges at maxEdges and the drawing at maxNodes, and says so', async () => {
    const { html, summary } = await reportText(await reportReader(), [], { maxNodes: 2, maxEdges: 3 });
    expect(summary).toMatchObject({ nodes: 2, edges: 3, isGraphTruncated: true });
    const data = embeddedData(html);
    expect(data.urls).toHaveLength(5);
    expect(data.edges).toEqual([[1, 0, 2, [3, 2], 4]]);
    expect(data.graph).toEqual({ internalOnly: false, maxNodes: 2 });
    expect(data.truncated).toMatch(/^The explorer knows the first 3 edges/);
  });

  it('internalOnly: the graph keeps to the seeds\' hosts; the tables still have every URL', async () => {
    const { html, summary } = await reportText(await reportReader(), FINDINGS, { internalOnly: true });
    expect(summary).toMatchObject({ nodes: 4, edges: 6, externalUrls: 1 });
    const data = embeddedData(html);
    expect(data.urls).toHaveLength(5);
    expect(data.edges).toEqual([
      [1, 0, 2, [3, 2], 4],
      [3, 0, 1, 3],
      [3, 1, 4],
    ]);
    expect(data.graph).toEqual({ internalOnly: true, maxNodes: 20_000 });
    expect(html).toContain("Drawn: URLs on the seeds' hosts only (--internal-only)");
  });

  it('validates its options', async () => {
    await expect(reportText(await reportReader(), [], { maxNodes: -1 })).rejects.toThrow('Expected `maxNodes` to be an integer >= 0, got `-1` (number)');
    await expect(reportText(await reportReader(), [], { internalOnly: 'yes' as unknown as boolean })).rejects.toThrow('Expected `internalOnly` to be a boolean');
  });
});
