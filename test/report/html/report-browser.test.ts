// The HTML report in headless Chromium: it renders with no console error and no
// request beyond its own file, shows the counts, filters the findings, and the graph
// explorer navigates. A screenshot is kept in test-artifacts/report/.

import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../../src/report/index.js';
import { artifactPath, launchChromium, openReport, type PageLog } from '../support/browser.js';
import { INSTALL_TIMEOUT_MS, skipNotice } from '../support/system-tools.js';
import { FINDINGS, reportReader } from './sample-report.js';

let browser: Browser | undefined;
let unavailable: string | undefined;
let page: Page;
let log: PageLog;

beforeAll(async () => {
  const launched = await launchChromium();
  if (typeof launched === 'string') {
    unavailable = launched;
    return;
  }
  browser = launched;
  const file = artifactPath('sample-report.html');
  const stream = createWriteStream(file);
  await writeHtmlReport(await reportReader(), FINDINGS, stream);
  stream.end();
  await finished(stream);
  ({ page, log } = await openReport(browser, file));
}, 2 * INSTALL_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await browser?.close();
});

const text = async (selector: string): Promise<string> => (await page.locator(selector).textContent()) ?? '';
const rows = (tbody: string): Promise<number> => page.locator(`#${tbody} > tr`).count();

describe('the HTML report in Chromium', () => {
  it('renders with no console error, no exception, and no request beyond its own file', async (context) => {
    if (unavailable !== undefined) return context.skip(skipNotice('the Chromium test of the HTML report', unavailable));
    expect(log.consoleErrors).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.otherRequests).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await page.screenshot({ path: artifactPath('sample-report.png'), fullPage: true });
  });

  it('shows the counts, the funnel and every finding, alias and redirect chain', async (context) => {
    if (unavailable !== undefined) return context.skip(skipNotice('the Chromium test of the HTML report', unavailable));
    expect(await text('[data-count="urls"]')).toBe('5');
    expect(await text('[data-count="findings"]')).toBe('5');
    expect(await text('[data-count="aliases"]')).toBe('1');
    expect(await page.locator('#funnel-chart rect').count()).toBe(5);
    expect(await rows('finding-rows')).toBe(5);
    expect(await text('#finding-shown')).toBe('5 of 5 findings');
    expect(await rows('alias-rows')).toBe(1);
    expect(await text('#alias-shown')).toBe('1 of 1 aliases');
    expect(await rows('redirect-rows')).toBe(1);
  });

  it('filters the findings by severity, code and text', async (context) => {
    if (unavailable !== undefined) return context.skip(skipNotice('the Chromium test of the HTML report', unavailable));
    await page.selectOption('#finding-severity', 'error');
    expect(await rows('finding-rows')).toBe(2);
    expect(await text('#finding-shown')).toBe('2 of 5 findings');
    await page.selectOption('#finding-severity', '');
    await page.selectOption('#finding-code', 'HREF_BACKSLASH');
    expect(await rows('finding-rows')).toBe(1);
    await page.selectOption('#finding-code', '');
    await page.fill('#finding-text', 'REDIRECT');
    expect(await text('#finding-shown')).toBe('1 of 5 findings');
    await page.fill('#finding-text', '</script>');
    expect(await text('#finding-shown')).toBe('2 of 5 findings');
    await page.fill('#finding-text', '');
    expect(await rows('finding-rows')).toBe(5);
  });

  it('explores the graph: a page with its links in and out, a click to follow one, back to return', async (context) => {
    if (unavailable !== undefined) return context.skip(skipNotice('the Chromium test of the HTML report', unavailable));
    expect(await text('#page-key')).toBe('http://site.test/');
    expect(await text('#page-out-count')).toBe('6');
    expect(await text('#page-in-count')).toBe('1');
    await page.locator('#page-view a', { hasText: 'http://site.test/docs/' }).first().click();
    await expect.poll(() => text('#page-key')).toBe('http://site.test/docs/');
    expect(page.url()).toMatch(/#page=3$/);
    expect(await text('#page-out-count')).toBe('3');
    expect(await text('#page-view')).toContain('http://site.test/%64ocs/');
    await page.goBack();
    await expect.poll(() => text('#page-key')).toBe('http://site.test/');
    await page.fill('#page-search', 'elsewhere');
    expect(await page.locator('#page-matches li').count()).toBe(1);
    await page.locator('#page-matches a').click();
    await expect.poll(() => text('#page-key')).toBe('http://elsewhere.test/');
    expect(await text('#page-view')).toContain('No links out.');
    // A finding's page links into the explorer.
    await page.locator('#finding-rows a', { hasText: 'http://site.test/docs/' }).first().click();
    await expect.poll(() => text('#page-key')).toBe('http://site.test/docs/');
    expect(log.consoleErrors).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.otherRequests).toEqual([]);
    await page.screenshot({ path: artifactPath('sample-report-explorer.png'), fullPage: true });
  });
});
