// `linkladder demo` (what `npm start` runs), in-process.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';
import { jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder demo', () => {
  it('serves the demo site, crawls it, and finds each resource requested exactly once: exit 0', async () => {
    const db = path.join(dir, 'demo.db');
    const result = await run(['demo', '--db', db]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^demo site {3}http:\/\/127\.0\.0\.1:\d+\/ \(36 resources\), index /);
    expect(result.out[1]).toBe('crawl       finished: the frontier is empty');
    expect(result.out).toContain('fetched     28 URLs answered, 3 failed (pages, resources and external links);');
    const check = result.out.findIndex((line) => line.startsWith('requests: '));
    expect(result.out[check]).toMatch(/^requests: \d+, each resource exactly once ✓ — \/server-error 3× \(a 5xx, retried\)$/);
    // The crawl's count of requests is the server's: retries, redirect hops, robots.txt and the sitemap included.
    const received = /^requests: (\d+),/.exec(result.out[check]!)?.[1];
    expect(result.out).toContain(`requests    ${received}: 31 fetches, 2 retries, 5 redirect hops, 2 robots.txt, 1 sitemap`);
    // Then what to look at next: the reports on this crawl.
    expect(result.out.slice(check + 1)).toEqual([
      `next        npx linkladder audit --db ${db}`,
      `            npx linkladder stats --db ${db}`,
      `            npx linkladder report --db ${db} --html ${path.join(dir, 'demo-report.html')}`,
      `            npx linkladder explain --db ${db} <URL of the demo site>`,
    ]);
    const store = new SqliteStore({ path: db, mustExist: true });
    expect((await store.stats()).urlsByState).toMatchObject({ queued: 0, fetching: 0, done: 28 });
    await store.close();
  });

  it('starts afresh: an earlier database is deleted first, unless --keep', async () => {
    const db = path.join(dir, 'junk.db');
    writeFileSync(db, 'not a database');
    const kept = await run(['demo', '--db', db, '--keep']);
    expect(kept.code).toBe(3);
    expect(kept.err).toEqual([`linkladder: error: ${db} is not a linkladder index (ERR_STORE_NOT_INDEX): not a SQLite database`]);

    writeFileSync(`${db}-wal`, '');
    const fresh = await run(['demo', '--db', db]);
    expect(fresh.code).toBe(0);
    expect(fresh.out).toContainEqual(expect.stringMatching(/each resource exactly once ✓/));
    expect(existsSync(db)).toBe(true);
  });

  it('--json: the events, the summary, then the request-log check', async () => {
    const result = await run(['demo', '--db', path.join(dir, 'json.db'), '--json']);
    expect(result.code).toBe(0);
    const objects = jsonLines(result) as { type: string }[];
    expect(objects.at(-2)).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty' });
    expect(objects.at(-1)).toEqual({
      type: 'request-log',
      requests: expect.any(Number) as number,
      missing: [],
      repeated: [],
      forbidden: [],
      unexpected: [],
      isCorrect: true,
    });
  });
});
