// DUPLICATE_REPRESENTATION (content evidence): byte-identical bodies under URLs the ladder
// did not join, as the audit reports them, from a MemoryStore written as a crawl would.

import { describe, expect, it } from 'vitest';
import { audit, compareFindings, formatSinceText, formatAuditCsv, formatAuditJson, formatAuditSarif, formatAuditText, type AuditFinding } from '../../../src/report/index.js';
import { collect } from '../../support/collect.js';
import { readerOf } from '../support/memory-index.js';

const M = 'http://h/manual';

/** /manual/de/x.html and /manual/x.html, each answered with its own folder's x.html.en (Content-Location); /manual/fr/x.html with the same body and no variant. */
function negotiatedManual(options: { readonly isContentJoined?: boolean } = {}) {
  return readerOf({
    urls: [
      { id: 1, key: `${M}/`, fetches: [{ digest: 'index' }] },
      { id: 2, key: `${M}/x.html`, from: 1, aliasOf: 3, evidence: 'content-location', fetches: [{ representsUrlId: 2, digest: 'X' }] },
      { id: 3, key: `${M}/x.html.en`, fetches: [{ durationMs: undefined, representsUrlId: 3, digest: 'X' }] },
      { id: 4, key: `${M}/de/x.html`, from: 1, aliasOf: 5, evidence: 'content-location', fetches: [{ representsUrlId: 4, digest: 'X' }] },
      { id: 5, key: `${M}/de/x.html.en`, fetches: [{ durationMs: undefined, representsUrlId: 5, digest: 'X' }] },
      {
        id: 6,
        key: `${M}/fr/x.html`,
        from: 1,
        fetches: [{ representsUrlId: 6, digest: 'X' }],
        ...(options.isContentJoined === true ? { aliasOf: 5, evidence: 'digest' as const } : {}),
      },
      { id: 7, key: `${M}/y.html`, from: 1, fetches: [{ digest: 'Y' }] },
    ],
  });
}

const duplicates = async (findings: AsyncIterable<AuditFinding>): Promise<AuditFinding[]> =>
  (await collect(findings)).filter((f) => f.code === 'DUPLICATE_REPRESENTATION');

describe('audit: DUPLICATE_REPRESENTATION', () => {
  it('one finding per URL of a group but its first (by key), which is the target, with the prefixes they differ in, in URL order', async () => {
    const found = await duplicates(audit(await negotiatedManual()));
    expect(found).toEqual([
      {
        code: 'DUPLICATE_REPRESENTATION',
        severity: 'info',
        page: `${M}/x.html.en`,
        rawHref: undefined,
        target: `${M}/de/x.html.en`,
        message: `the body is byte-identical to that of ${M}/de/x.html.en (and 1 other URL), not joined by the ladder: the URLs differ in /manual/ ↔ /manual/de/`,
        detail: { from: '/manual/', to: '/manual/de/', suffix: 'x.html.en', digest: 'X', urls: 3 },
      },
      {
        code: 'DUPLICATE_REPRESENTATION',
        severity: 'info',
        page: `${M}/fr/x.html`,
        rawHref: undefined,
        target: `${M}/de/x.html.en`,
        message: `the body is byte-identical to that of ${M}/de/x.html.en (and 1 other URL), not joined by the ladder: the URLs differ in /manual/fr/x.html ↔ /manual/de/x.html.en`,
        detail: { from: '/manual/fr/x.html', to: '/manual/de/x.html.en', suffix: '', digest: 'X', urls: 3 },
      },
    ]);
  });

  it('never reports a page against its own Content-Location variant (one resource, RFC 3986 §6.2.4)', async () => {
    const found = await duplicates(audit(await negotiatedManual()));
    const pages = found.flatMap((f) => [f.page, f.target]);
    expect(pages).not.toContain(`${M}/x.html`);
    expect(pages).not.toContain(`${M}/de/x.html`);
  });

  it('still reports URLs joined by content evidence, marked as such (heuristic)', async () => {
    const found = await duplicates(audit(await negotiatedManual({ isContentJoined: true })));
    // In URL order, as the audit gives a page's findings.
    expect(found.map((f) => [f.page, f.detail['contentEvidence']])).toEqual([
      [`${M}/x.html.en`, undefined],
      [`${M}/fr/x.html`, 'digest'],
    ]);
    expect(found[1]!.message).toContain('joined by content evidence (digest, heuristic)');
  });

  it('is an info finding: left out from minSeverity warning up', async () => {
    expect(await duplicates(audit(await negotiatedManual(), { minSeverity: 'warning' }))).toEqual([]);
  });

  it('is carried by every format', async () => {
    const reader = await negotiatedManual();
    const text = (await collect(formatAuditText(audit(reader)))).join('\n');
    expect(text).toContain(` DUPLICATE_REPRESENTATION → ${M}/de/x.html.en`);
    const json = (await collect(formatAuditJson(audit(reader)))).join('\n');
    expect(json).toContain('"code":"DUPLICATE_REPRESENTATION"');
    expect(json).toContain('"from":"/manual/"');
    const csv = (await collect(formatAuditCsv(audit(reader)))).join('\n');
    expect(csv).toContain('DUPLICATE_REPRESENTATION');
    const sarif = (await collect(formatAuditSarif(audit(reader)))).join('\n');
    expect(sarif).toContain('DUPLICATE_REPRESENTATION');
    const changes = await compareFindings([], audit(reader));
    expect(changes.added.filter((f) => f.code === 'DUPLICATE_REPRESENTATION')).toHaveLength(2);
    expect((await collect(formatSinceText(changes, 'the last run'))).join('\n')).toContain('DUPLICATE_REPRESENTATION');
  });
});
