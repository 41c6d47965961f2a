// `linkladder crawl --no-check-resources --no-check-external`,
// in-process, against the demo server on 127.0.0.1: resources and external links are
// checked by default, and each flag turns its part off.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../src/cli/demo/index.js';
import type { CrawlSummary } from '../../../src/crawl/index.js';
import { jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

let count = 0;
async function crawlDemo(...flags: string[]): Promise<{ summary: CrawlSummary; requests: readonly string[] }> {
  const server = await startDemoServer();
  servers.push(server);
  count++;
  const result = await run(['crawl', `${server.origin}/`, '--db', path.join(dir, `${count}.db`), '--allow-private', '--json', ...flags]);
  expect(result.code).toBe(0);
  return { summary: jsonLines(result).at(-1) as CrawlSummary, requests: server.requests };
}

const RESOURCES = ['GET /site.css', 'GET /app.js', 'GET /img/dot-2x.png'];
const EXTERNAL = ['HEAD /out-of-scope.html', 'HEAD /gone.html'];

describe('linkladder crawl: resources and external links', () => {
  it('checks both by default', async () => {
    const { summary, requests } = await crawlDemo();
    expect(requests).toEqual(expect.arrayContaining([...RESOURCES, ...EXTERNAL]));
    expect(summary).toMatchObject({ resourcesBroken: 1, externalChecked: 2, externalBroken: 1, notCheckedByRobots: 1 });
    // img/dot.png is an <img> on / and an <a href> on /hrefs.html: a page when /hrefs.html is read before its turn.
    expect([3, 4]).toContain(summary.resourcesChecked);
  });

  it('--no-check-resources: no resource is requested', async () => {
    const { summary, requests } = await crawlDemo('--no-check-resources');
    for (const request of RESOURCES) expect(requests).not.toContain(request);
    expect(requests).toEqual(expect.arrayContaining(EXTERNAL));
    expect(summary).toMatchObject({ resourcesChecked: 0, externalChecked: 2 });
  });

  it('--no-check-external: no request leaves the crawl\'s origin', async () => {
    const { summary, requests } = await crawlDemo('--no-check-external');
    for (const request of EXTERNAL) expect(requests).not.toContain(request);
    expect(requests.filter((request) => request === 'GET /robots.txt')).toHaveLength(1);
    expect(summary.externalChecked).toBe(0);
    expect([3, 4]).toContain(summary.resourcesChecked);
  });
});
