// The report file itself: self-contained, data escaped, counts right.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeHtmlReport, type HtmlReportOptions } from '../../../src/report/index.js';
import type { AuditFinding } from '../../../src/report/audit/finding.js';
import type { IndexReader } from '../../../src/store/index.js';
import { FINDINGS, HOSTILE, reportReader } from './sample-report.js';

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

describe('writeHtmlReport', () => {
  it('one file that loads nothing: no external URL in src, href or CSS, and a CSP that forbids loading', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-`);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toContain('<svg id="funnel-chart"');
  });

  it('embeds the data as JSON in which no "<" can end the script element', async () => {
    const { html } = await reportText(await reportReader(), FINDINGS);
    const dataStart = html.indexOf('id="report-data">');
    const dataEnd = html.indexOf('</script>', dataStart);
    expect(html.slice(dataStart + 'id="report-data">'.length, dataEnd)).not.toContain('<');
    const data = embeddedData(html);
    expect((data.findings as AuditFinding[])[0]?.rawHref).toBe(HOSTILE);
    expect((data.findings as AuditFinding[]).map((finding) => finding.code)).toEqual(FINDINGS.map((finding) => finding.code));
    expect(data.aliases).toEqual([{ from: 'http://site.test/docs', to: 'http://site.test/docs/', evidence: 'redirect', detail: '301' }]);
    expect(data.redirects).toEqual([{ url: 'http://site.test/docs', hops: [{ to: 'http://site.test/docs/', status: 301 }], errorCode: null }]);
    expect(data.nodes).toEqual([
      [1, 'http://site.test/', 'done', 0, null, 200, ['HTTP://site.test:80/', 'http://site.test:80/']],
      [2, 'http://site.test/docs', 'alias', 1, 3, null, []],
      [3, 'http://site.test/docs/', 'done', 1, null, 200, ['http://site.test/%64ocs/']],
      [4, `http://site.test/${encodeURIComponent(HOSTILE)}`, 'failed', 1, null, 404, []],
      [5, 'http://elsewhere.test/', 'skipped', 1, null, null, []],
    ]);
    expect(data.edges).toEqual([
      [1, 2, 1, 'a', 'href'],
      [1, 3, 2, 'a', 'href'],
      [1, 4, 1, 'a', 'href'],
      [1, 5, 1, 'a', 'href'],
      [1, 5, 1, 'link', 'href'],
      [3, 1, 1, 'a', 'href'],
      [3, 3, 1, 'a', 'href'],
      [3, 4, 1, 'img', 'src'],
    ]);
    expect(data.truncated).toBeNull();
  });

  it('shows the counts at the top, and the funnel bars to scale', async () => {
    const { html, summary } = await reportText(await reportReader(), FINDINGS);
    expect(summary).toEqual({ urls: 5, links: 10, fetches: 3, findings: 5, aliases: 1, errors: 1, nodes: 5, edges: 8, isGraphTruncated: false });
    expect(html).toContain('<span class="count" data-count="urls">5</span>');
    expect(html).toContain('<span class="count" data-count="findings">5</span>');
    expect(html).toMatch(/<g class="funnel-step" data-step="rawLinks">.*width="460".*>9<\/text><\/g>/);
    expect(html).toMatch(/<g class="funnel-step" data-step="afterAliases">.*width="153".*>3<\/text><\/g>/);
    expect(html).toContain('<p>crawl of http://site.test/</p>');
  });

  it('cuts the embedded graph at maxNodes and maxEdges, and says so', async () => {
    const { html, summary } = await reportText(await reportReader(), [], { maxNodes: 2, maxEdges: 3 });
    expect(summary).toMatchObject({ nodes: 2, edges: 3, isGraphTruncated: true });
    const data = embeddedData(html);
    expect(data.nodes).toHaveLength(2);
    expect(data.edges).toHaveLength(3);
    expect(data.truncated).toMatch(/^The explorer shows the first 2 URLs and 3 edges/);
  });

  it('validates its options', async () => {
    await expect(reportText(await reportReader(), [], { maxNodes: -1 })).rejects.toThrow('Expected `maxNodes` to be an integer >= 0, got `-1` (number)');
  });
});
