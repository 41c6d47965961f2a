// A site that serves Markdown (text/markdown): its pages are read by the Markdown
// extractor, their links followed and their heading slugs recorded as anchors, and
// the audit places each broken link and missing fragment on the line and column
// where the Markdown writes it.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/api.js';
import { createFetcher } from '../../src/fetch/index.js';
import { audit } from '../../src/report/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { collect } from '../support/collect.js';

const MD = 'text/markdown; charset=utf-8';
const README = [
  '# Docs', // 1
  '', // 2
  'See [guide](guide.md), [up](../index.md), [spaced](a%20b.md), [dir](sub/), [broken](missing.md).', // 3
  'Jump to [intro](#intro), [nowhere](#nowhere), [setup](guide.md#setup), [gone](guide.md#gone).', // 4
  'Twice: [dup](#usage-1). Case: [case](#Usage). [Escaped](guide\\_x.md).', // 5
  'A [ref link][g], ![logo](img/logo.png) and <a href="raw.md">raw</a>.', // 6
  '', // 7
  '```', // 8
  '[code](in-code.md)', // 9
  '```', // 10
  '', // 11
  '    [indented](in-code.md)', // 12
  '', // 13
  '## Intro', // 14
  '## Usage', // 15
  '## Usage', // 16
  '', // 17
  '[g]: guide.md#usage', // 18
].join('\n');

const RESOURCES: Record<string, { type: string; body: string }> = {
  '/docs/README.md': { type: MD, body: README },
  '/docs/guide.md': { type: 'text/x-markdown', body: 'Guide\n=====\n\n## Setup\n\n## Usage\n' },
  '/docs/a%20b.md': { type: MD, body: '# Spaced\n' },
  '/docs/sub/': { type: 'text/html; charset=utf-8', body: '<!doctype html><title>sub</title><p>index</p>' },
  '/docs/raw.md': { type: MD, body: 'raw\n' },
  '/docs/img/logo.png': { type: 'image/png', body: 'png' },
  '/docs/in-code.md': { type: MD, body: 'never asked\n' },
  '/index.md': { type: MD, body: '# Home\n' },
};

/** Line and column of the first `written` in the README. */
function where(written: string): string {
  const at = README.indexOf(written);
  const before = README.slice(0, at).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

let server: Server;
let origin = '';
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const target = request.url ?? '/';
    requests.push(target);
    const resource = RESOURCES[target];
    if (resource === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': resource.type });
    response.end(resource.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a site of Markdown pages', () => {
  it('follows their links, records their heading slugs, and the audit places broken links and fragments exactly', async () => {
    const store = new MemoryStore();
    await crawl(`${origin}/docs/README.md`, {
      store,
      fetcher: createFetcher(),
      robots: false,
      sitemap: false,
      allowPrivate: true,
      retries: 0,
      checkResources: true,
    });
    expect(requests).not.toContain('/docs/in-code.md');
    expect(requests).toEqual(
      expect.arrayContaining(['/index.md', '/docs/README.md', '/docs/guide.md', '/docs/a%20b.md', '/docs/sub/', '/docs/missing.md', '/docs/raw.md', '/docs/img/logo.png', '/docs/guide_x.md']),
    );
    const findings = await collect(audit(store.reader()));
    const placed = findings
      .filter((f) => f.page === `${origin}/docs/README.md` && f.rawHref !== undefined)
      .map((f) => `${f.code} ${f.rawHref} ${f.line}:${f.column}`);
    expect(placed).toEqual([
      `LINK_BROKEN missing.md ${where('missing.md')}`,
      `LINK_FRAGMENT_MISSING #nowhere ${where('#nowhere')}`,
      `LINK_FRAGMENT_MISSING guide.md#gone ${where('guide.md#gone')}`,
      `LINK_BROKEN guide_x.md ${where('guide\\_x.md')}`,
    ]);
    expect(where('missing.md')).toBe('3:85');
  });
});
