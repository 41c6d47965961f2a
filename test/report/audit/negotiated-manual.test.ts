// End to end (content evidence): the generated negotiated manual crawled with the default
// options, then audited. In its fallback mode /manual/de/x.html answers the English
// variant when x has no German one (Content-Location inside the requested directory),
// so URLs of several trees resolve to one file: the audit's DUPLICATE_REPRESENTATION
// findings are exactly those, checked against the server's own `fileFor`. A page and
// the variant its Content-Location names are one resource, never a finding. In the
// unique mode (one plain tree per language) there is none.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { audit, collectStats, type AuditFinding } from '../../../src/report/index.js';
import { openIndexReader, type IndexReader } from '../../../src/store/index.js';
import { run } from '../../cli/cli-harness.js';
import { collect } from '../../support/collect.js';
import { startNegotiatedManual, type NegotiatedManual } from '../../support/negotiated-manual-server.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-negotiated-manual-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let manual: NegotiatedManual | undefined;
afterEach(async () => {
  await manual?.close();
  manual = undefined;
});

/** Crawl the manual with the default options (only 127.0.0.1 allowed) into a SQLite index. */
async function crawlManual(mode: 'fallback' | 'unique'): Promise<{ reader: IndexReader; manual: NegotiatedManual }> {
  manual = await startNegotiatedManual({ mode });
  const db = path.join(dir, `${mode}.db`);
  const crawl = await run(['crawl', manual.seed, '--db', db, '--allow-private']);
  expect(crawl.err).toEqual([]);
  expect(crawl.code).toBe(0);
  return { reader: openIndexReader(db), manual };
}

/**
 * What the audit must say, from the server's truth: the URLs of the index that stand
 * for themselves (no alias) and were fetched with a 2xx, grouped by the file they
 * resolve to; in each group of two or more, every URL but the first (by key) is a
 * duplicate of the first.
 */
async function expectedDuplicates(reader: IndexReader, server: NegotiatedManual): Promise<string[]> {
  const byFile = new Map<string, string[]>();
  for await (const url of reader.urls()) {
    const status = url.lastFetch?.status;
    if (url.state === 'alias' || status === undefined || status < 200 || status >= 300) continue;
    const location = new URL(url.key);
    if (location.origin !== server.origin) continue;
    const file = server.fileFor(location.pathname);
    if (file === undefined) continue;
    byFile.set(file, [...(byFile.get(file) ?? []), url.key]);
  }
  return [...byFile.values()]
    .filter((keys) => keys.length > 1)
    .flatMap((keys) => {
      const [first, ...rest] = [...keys].sort();
      return rest.map((key) => `${key} → ${first}`);
    })
    .sort();
}

const found = (findings: readonly AuditFinding[]): string[] =>
  findings.filter((f) => f.code === 'DUPLICATE_REPRESENTATION').map((f) => `${f.page} → ${f.target}`).sort();

describe('DUPLICATE_REPRESENTATION on a negotiated manual, default crawl', () => {
  it('fallback: exactly the URLs that resolve to one file, none against its own Content-Location variant', async () => {
    const { reader, manual: server } = await crawlManual('fallback');
    try {
      const findings = await collect(audit(reader));
      const expected = await expectedDuplicates(reader, server);
      expect(expected.length).toBeGreaterThan(20);
      expect(found(findings)).toEqual(expected);
      // Each names the prefixes of the two language trees (or of none).
      for (const f of findings.filter((f) => f.code === 'DUPLICATE_REPRESENTATION')) {
        expect(String(f.detail['from'])).toMatch(/^\/manual\/([a-z]{2}\/)?$/);
        expect(String(f.detail['to'])).toMatch(/^\/manual\/([a-z]{2}\/)?$/);
        expect(f.detail['contentEvidence']).toBeUndefined();
      }
      const stats = await collectStats(reader);
      expect(stats.duplicates.urls - stats.duplicates.groups).toBe(expected.length);
    } finally {
      await reader.close();
    }
  });

  it('unique: none', async () => {
    const { reader } = await crawlManual('unique');
    try {
      expect(found(await collect(audit(reader)))).toEqual([]);
      expect((await collectStats(reader)).duplicates).toEqual({ groups: 0, urls: 0, joinedByContent: 0, prefixPairs: [] });
    } finally {
      await reader.close();
    }
  });
});
