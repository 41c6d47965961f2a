// `linkladder crawl` reads sitemaps by default and `--no-sitemap` turns it off,
// in-process, against the demo server on 127.0.0.1: its /sitemap.xml lists
// /orphan.html, which no page links to, and the audit reports it as SITEMAP_ORPHAN.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../src/cli/demo/index.js';
import { jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-sitemap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

let count = 0;
async function crawlDemo(...flags: string[]): Promise<{ origin: string; db: string; requests: readonly string[] }> {
  const server = await startDemoServer();
  servers.push(server);
  count++;
  const db = path.join(dir, `${count}.db`);
  const result = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', ...flags]);
  expect(result.err).toEqual([]);
  expect(result.code).toBe(0);
  return { origin: server.origin, db, requests: server.requests };
}

describe('linkladder crawl: sitemaps', () => {
  it('on by default: /sitemap.xml seeds /orphan.html, which the audit reports as SITEMAP_ORPHAN', async () => {
    const { origin, db, requests } = await crawlDemo();
    expect(requests.filter((request) => request === 'GET /sitemap.xml')).toHaveLength(1);
    expect(requests).toContain('GET /orphan.html');

    const audited = await run(['audit', '--db', db, '--code', 'SITEMAP_ORPHAN', '--format', 'json']);
    expect(audited.err).toEqual([]);
    expect(jsonLines(audited)).toEqual([
      expect.objectContaining({
        code: 'SITEMAP_ORPHAN',
        severity: 'warning',
        page: `${origin}/sitemap.xml`,
        rawHref: `${origin}/orphan.html`,
        target: `${origin}/orphan.html`,
      }),
    ]);
  });

  it('--no-sitemap: no /sitemap.xml request, and the page only it lists is not reached', async () => {
    const { db, requests } = await crawlDemo('--no-sitemap');
    expect(requests).not.toContain('GET /sitemap.xml');
    expect(requests).not.toContain('GET /orphan.html');
    expect(requests).toContain('GET /');

    const audited = await run(['audit', '--db', db, '--code', 'SITEMAP_ORPHAN', '--format', 'json']);
    expect(audited.err).toEqual([]);
    expect(audited.out).toEqual([]);
  });
});
