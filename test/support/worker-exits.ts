// What the PostgreSQL worker tests assert of every worker that ends on its own, and the
// requests of a site that are not its resources. Kept apart from crawl-workers.ts, which
// the benchmarks import without vitest.

import { expect } from 'vitest';
import type { WorkerExit } from './crawl-workers.js';

/** Not the site's resources: asked once per origin by a worker (robots.txt), or before the crawl (sitemaps). */
export const isSiteFile = (url: string): boolean => url.endsWith('/robots.txt') || url.endsWith('/sitemap.xml');

/** Ended with exit 0 and its summary, nothing on stderr but Node's own warnings. */
export function expectCleanExit(exit: WorkerExit): void {
  expect(exit.stderr.replace(/^\(node:\d+\) .*\n|^\(Use `node --trace-warnings.*\n/gm, '')).toBe('');
  expect(exit.code).toBe(0);
  expect(exit.lines.at(-1)).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
}
