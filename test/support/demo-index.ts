// An index of the demo site for tests that read one: crawled once per test run (per set
// of crawl flags) and copied into each file's folder. Tests that assert on a crawl's own
// behaviour (its requests, its output, a kill) crawl the demo server themselves.
//
// The global setup (test/support/demo-index-global-setup.ts) provides an empty folder for
// the run; the first file that asks for a crawl makes it there (in a private folder,
// renamed into place, so files racing to make it agree on one), and the folder goes at
// the end of the run. Outside that setup each call crawls afresh, as before.

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { startDemoServer } from '../../src/cli/demo/index.js';
import { run } from '../cli/cli-harness.js';

/** What the crawl left: its origin (the URLs in the index carry its port) and how `crawl` ended. */
export interface DemoCrawl {
  readonly origin: string;
  readonly code: number;
  readonly stderr: string;
}

/**
 * `linkladder crawl <demo>/ --db <db> --allow-private ...flags`, or a copy of the run's
 * earlier crawl with the same flags: `db` is a file of the caller's own either way.
 */
export async function crawledDemoIndex(db: string, flags: readonly string[] = []): Promise<DemoCrawl> {
  const shared = inject('linkladderDemoIndexes') as string | undefined;
  if (shared === undefined) return crawl(db, flags);
  const made = path.join(shared, createHash('sha256').update(JSON.stringify(flags)).digest('hex').slice(0, 16));
  if (!existsSync(path.join(made, 'crawl.json'))) {
    const making = mkdtempSync(`${made}.making-`);
    try {
      const result = await crawl(path.join(making, 'index.db'), flags);
      writeFileSync(path.join(making, 'crawl.json'), JSON.stringify(result));
      renameSync(making, made);
    } catch (error) {
      // Another file made it first: use theirs.
      if (!existsSync(path.join(made, 'crawl.json'))) throw error;
    } finally {
      rmSync(making, { recursive: true, force: true });
    }
  }
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path.join(made, `index.db${suffix}`))) copyFileSync(path.join(made, `index.db${suffix}`), `${db}${suffix}`);
  }
  return JSON.parse(readFileSync(path.join(made, 'crawl.json'), 'utf8')) as DemoCrawl;
}

async function crawl(db: string, flags: readonly string[]): Promise<DemoCrawl> {
  const server = await startDemoServer();
  try {
    const crawled = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', ...flags]);
    return { origin: server.origin, code: crawled.code, stderr: crawled.stderr };
  } finally {
    await server.close();
  }
}
