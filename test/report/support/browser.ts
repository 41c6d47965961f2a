// Debian's Chromium driven by playwright-core, for the tests that open the HTML
// report: what the page printed to its console, threw, or tried to load.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, ensureDebianTools } from '../../support/system-tools.js';

/** Where screenshots and reports go (git-ignored): kept after the run for a person to look at. */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../../test-artifacts/report/', import.meta.url));

/**
 * The flags this machine needs (.library/env machines/node.md): no sandbox as root,
 * and none of Chromium's own network traffic, which the closed network refuses.
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium, installed first if need be; or the reason it cannot run. */
export async function launchChromium(): Promise<Browser | string> {
  const missing = await ensureDebianTools(CHROMIUM);
  if (missing !== undefined) return missing;
  try {
    return await chromium.launch({ executablePath: CHROMIUM.path, headless: true, args: CHROMIUM_FLAGS });
  } catch (error) {
    return `Chromium did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/** What a page did besides rendering. */
export interface PageLog {
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  /** Every request that was not for the report file itself. */
  readonly otherRequests: string[];
}

/** Open `file` in a new page and wait until the report's script has run. */
export async function openReport(browser: Browser, file: string): Promise<{ page: Page; log: PageLog }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const log: PageLog = { consoleErrors: [], pageErrors: [], otherRequests: [] };
  const fileUrl = pathToFileURL(file).href;
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') log.consoleErrors.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => log.pageErrors.push(error.message));
  page.on('request', (request) => {
    if (request.url().split('#')[0] !== fileUrl) log.otherRequests.push(request.url());
  });
  await page.goto(fileUrl);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return { page, log };
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}
