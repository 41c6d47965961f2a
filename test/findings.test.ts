// The findings catalog (src/findings.ts): one entry per code, used by html, base,
// crawl and the audit; retired codes read as the code that replaced them.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_FINDING_CODES, BASE_FINDINGS, REFERENCE_FINDING_CODES } from '../src/base/index.js';
import { FINDING_CODES, FINDINGS, RETIRED_FINDINGS, SEVERITIES, currentFindingCodes, isFindingCode } from '../src/findings.js';
import { HTML_FINDING_CODES, HTML_FINDINGS } from '../src/html/index.js';
import { AUDIT_CODE_LIST, AUDIT_CODES } from '../src/report/index.js';
import { SqliteStore, openIndexReader } from '../src/store/index.js';
import { collect } from './support/collect.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-findings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the findings catalog', () => {
  it.each(FINDING_CODES)('%s: a stable name, a severity, a one-line summary, where it is recorded', (code) => {
    const spec: (typeof FINDINGS)[typeof code] & { notReported?: string } = FINDINGS[code];
    expect(code).toMatch(/^(LINK|SEED|REDIRECT|BODY|REF|HREF|HTML|CSS|BASE|PAGE|SITEMAP|DUPLICATE)_[A-Z]+(_[A-Z]+)*$/);
    expect(SEVERITIES).toContain(spec.severity);
    expect(spec.summary).toMatch(/^[^\n]{10,}$/);
    expect(['link', 'fetch', 'index']).toContain(spec.recordedOn);
    if (spec.notReported !== undefined) expect(spec.recordedOn, 'only a recorded code can be left out').not.toBe('index');
  });

  it('each layer reads its codes from it; the audit reports the catalog less the codes left out', () => {
    expect(HTML_FINDING_CODES.every((code) => HTML_FINDINGS[code] === FINDINGS[code])).toBe(true);
    expect(BASE_FINDING_CODES.every((code) => BASE_FINDINGS[code] === FINDINGS[code].summary)).toBe(true);
    expect(REFERENCE_FINDING_CODES).toEqual(['REF_ABOVE_ROOT', 'REF_FOLDED_SYNTAX', 'REF_FOLDED_SCHEME']);
    expect(AUDIT_CODE_LIST.every((code) => AUDIT_CODES[code] === FINDINGS[code])).toBe(true);
    expect(FINDING_CODES.filter((code) => !(AUDIT_CODE_LIST as readonly string[]).includes(code))).toEqual(
      FINDING_CODES.filter((code) => 'notReported' in FINDINGS[code]),
    );
  });

  it('records no fact twice: HTML_BASE_RELATIVE is retired for BASE_HREF_RELATIVE', () => {
    expect(isFindingCode('HTML_BASE_RELATIVE')).toBe(false);
    for (const [retired, successor] of Object.entries(RETIRED_FINDINGS)) {
      expect(isFindingCode(retired)).toBe(false);
      expect(isFindingCode(successor)).toBe(true);
    }
    expect(currentFindingCodes(['HTML_BASE_RELATIVE', 'HTML_BASE_REPEATED', 'BASE_HREF_RELATIVE'])).toEqual(['BASE_HREF_RELATIVE', 'HTML_BASE_REPEATED']);
    const unchanged = ['HTML_BASE_REPEATED'];
    expect(currentFindingCodes(unchanged)).toBe(unchanged);
  });

  it('an index written before the code was retired is read with the code that replaced it', async () => {
    const file = path.join(dir, 'old.db');
    const store = new SqliteStore({ path: file });
    const [page] = await store.admit([{ rawHref: 'http://h/', target: 'http://h/' }]);
    await store.recordFetch({ urlId: page!.urlId!, outcome: 'done', startedAt: 1, status: 200 });
    await store.close();
    const db = new Database(file);
    db.prepare('UPDATE fetch SET findings = ?').run(JSON.stringify(['HTML_BASE_RELATIVE', 'HTML_BASE_REPEATED', 'BASE_HREF_RELATIVE']));
    db.close();
    const reader = openIndexReader(file);
    expect((await collect(reader.fetches())).map((f) => f.findings)).toEqual([['BASE_HREF_RELATIVE', 'HTML_BASE_REPEATED']]);
    await reader.close();
  });
});
