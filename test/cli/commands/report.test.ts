// `linkladder report --html`, in-process, on a crawl of the demo site; the file is
// then opened in headless Chromium (Debian's, installed where missing): it renders
// with no console error, loads nothing, and shows the counts `stats` and `graph`
// give. The page is kept, with a screenshot, in test-artifacts/report/.

import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../../src/report/index.js';
import { openIndexReader } from '../../../src/store/index.js';
import { artifactPath, launchChromium, openReport } from '../../report/support/browser.js';
import { crawledDemoIndex } from '../../support/demo-index.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../../support/system-tools.js';
import { jsonLines, run } from '../cli-harness.js';
import { collect } from '../../support/collect.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-report-'));
const db = path.join(dir, 'demo.db');
const html = path.join(dir, 'report.html');
let origin: string;
let browser: Browser | string;

beforeAll(async () => {
  const crawled = await crawledDemoIndex(db);
  origin = crawled.origin;
  if (crawled.code !== 0) throw new Error(`the crawl failed: ${crawled.stderr}`);
  browser = await launchChromium();
}, 2 * INSTALL_TIMEOUT_MS + 60_000);
afterAll(async () => {
  if (typeof browser !== 'string') await browser.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkladder report', () => {
  it('--html FILE writes one self-contained file and says what it holds', async () => {
    const result = await run(['report', '--db', db, '--html', html]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toEqual([expect.stringMatching(new RegExp(`^${html.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ URLs, \\d+ links, \\d+ findings, \\d+ aliases$`))]);
    const text = readFileSync(html, 'utf8');
    expect(text).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
    expect(text).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    copyFileSync(html, artifactPath('demo-report.html'));
  });

  it('opens in Chromium: no console error, no request, and the counts of `stats` and `graph`', async (context) => {
    if (typeof browser === 'string') return context.skip(skipNotice('the Chromium test of the demo report', browser));
    if (!existsSync(html)) await run(['report', '--db', db, '--html', html]);
    const stats = JSON.parse((await run(['stats', '--db', db, '--json'])).stdout) as {
      urls: number;
      fetches: number;
      funnel: Record<string, number>;
      aliasesByEvidence: Record<string, number>;
    };
    const graph = jsonLines(await run(['graph', '--db', db, '--format', 'ndjson'])) as { type: string; id: number; key: string; from: number; count: number }[];
    const home = graph.find((record) => record.type === 'node' && record.key === `${origin}/`)!;
    const homeLinksOut = graph.filter((record) => record.type === 'edge' && record.from === home.id).reduce((sum, edge) => sum + edge.count, 0);

    const { page, log } = await openReport(browser, html);
    try {
      const text = async (selector: string): Promise<string> => (await page.locator(selector).textContent()) ?? '';
      expect(await text('[data-count="urls"]')).toBe(String(stats.urls));
      expect(await text('[data-count="fetches"]')).toBe(String(stats.fetches));
      const aliases = Object.values(stats.aliasesByEvidence).reduce((sum, n) => sum + n, 0);
      expect(await text('[data-count="aliases"]')).toBe(String(aliases));
      const funnel = ['rawLinks', 'distinctStrings', 'distinctSyntax', 'distinctScheme', 'afterAliases'].map((step) => String(stats.funnel[step]));
      expect(await page.locator('#funnel-chart .funnel-value').allTextContents()).toEqual(funnel);
      await page.click('#tab-aliases');
      expect(await text('#alias-shown')).toBe(`${aliases} of ${aliases} aliases`);
      await page.click('#tab-graph');
      expect(await text('#page-key')).toBe(`${origin}/`);
      expect(await text('#page-out-count')).toBe(String(homeLinksOut));
      const reader = openIndexReader(db);
      const findings = await collect(audit(reader));
      await reader.close();
      const errors = findings.filter((finding) => finding.severity === 'error').length;
      expect(await text('[data-count="findings"]')).toBe(String(findings.length));
      await page.click('#tab-findings');
      expect(await text('#finding-shown')).toBe(`${findings.length} of ${findings.length} findings`);
      await page.selectOption('#finding-severity', 'error');
      expect(await text('#finding-shown')).toBe(`${errors} of ${findings.length} findings`);
      await page.selectOption('#finding-severity', '');
      await page.screenshot({ path: artifactPath('demo-report.png'), fullPage: true });
      expect(log.consoleErrors).toEqual([]);
      expect(log.pageErrors).toEqual([]);
      expect(log.otherRequests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('--internal-only keeps the graph to the seeds\' hosts', async () => {
    const file = path.join(dir, 'internal.html');
    const result = await run(['report', '--db', db, '--html', file, '--internal-only']);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"graph":{"internalOnly":true,');
  });

  it('--out (or --html) is required (exit 2); a missing database is exit 3 and writes no file', async () => {
    const noHtml = await run(['report', '--db', db]);
    expect(noHtml.code).toBe(2);
    expect(noHtml.stderr).toMatch(/required option '--out <file>' \(or --html <file>\) not specified/);
    expect((await run(['report', '--db', db, '--html', 'a.html', '--out', 'b.html'])).code).toBe(2);
    const out = path.join(dir, 'never.html');
    const noDb = await run(['report', '--db', path.join(dir, 'missing.db'), '--html', out]);
    expect(noDb.code).toBe(3);
    expect(existsSync(out)).toBe(false);
  });
});
