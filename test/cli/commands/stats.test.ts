// `linkladder stats`, in-process, on a small index built through the store.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/index.js';
import { run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-stats-'));
const db = path.join(dir, 'index.db');

beforeAll(async () => {
  const store = new SqliteStore({ path: db });
  const [page] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
  const from = page!.urlId!;
  // 6 links: 'http://h/a' twice (string), HTTP://h/a (syntax), http://h:80/a (scheme), /b, and /old.
  const results = await store.admit(
    ['http://h/a', 'http://h/a', 'HTTP://h/a', 'http://h:80/a', 'http://h/b', 'http://h/old'].map((target) => ({ fromUrlId: from, rawHref: target, target })),
  );
  const old = results.at(-1)!.urlId!;
  await store.addAlias({ fromId: old, toId: results[4]!.urlId!, evidence: 'redirect', detail: '301' });
  await store.recordFetch({ urlId: from, outcome: 'done', startedAt: 0, status: 200 });
  const run = await store.startRun({ startedAt: 0, seeds: ['http://h/'], settings: {} });
  await store.endRun(run, { endedAt: 1, stoppedBy: 'frontier-empty', outcome: 'frontier-empty', counts: { fetchesSaved: 2 } });
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('linkladder stats', () => {
  it('--json: the funnel, what each rung folded, fetches saved with its definition, aliases and errors', async () => {
    const result = await run(['stats', '--db', db, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(stats).toMatchObject({
      funnel: { rawLinks: 6, distinctStrings: 5, distinctSyntax: 4, distinctScheme: 3, afterAliases: 2, unresolved: 0 },
      folded: { syntax: 1, scheme: 1, protocol: 1 },
      fetchesSaved: 2, // as the crawl run recorded it
      linksNotFetched: 5,
      fetches: 1,
      aliasesByEvidence: { redirect: 1, 'content-location': 0, canonical: 0, digest: 0, rule: 0 },
      errorsByCode: {},
    });
    expect(stats.definitions).toMatchObject({ fetchesSaved: expect.stringMatching(/^requests avoided: /) });
  });

  it('plain: the ladder, one rung a line, and what "fetches saved" means', async () => {
    const result = await run(['stats', '--db', db]);
    expect(result.code).toBe(0);
    expect(result.out[1]).toBe('  raw links     6  links with a resolved target');
    expect(result.out[5]).toBe('  aliases       2  distinct after protocol-based aliases (§6.2.4), 1 folded');
    expect(result.out[7]).toMatch(/^fetches saved   2  \(requests avoided: URLs a followed link named that were never requested /);
    expect(result.out.at(-5)).toBe('aliases         1  by evidence: redirect 1, content-location 0');
    expect(result.out.at(-4)).toBe('errors          0');
    expect(result.out.at(-3)).toBe('broken          0  4xx 0, 5xx 0, no response 0');
    expect(result.out.at(-2)).toMatch(/^verdicts        (\d+) URLs checked: \1 ok, 0 broken, 0 unverified$/);
    expect(result.out.at(-1)).toBe('duplicates      0 groups, 0 URLs byte-identical, not joined by the ladder (content evidence, heuristic)');
  });

  it('a missing database: exit 3', async () => {
    const result = await run(['stats', '--db', path.join(dir, 'missing.db')]);
    expect(result.code).toBe(3);
  });
});
