// What changed between two audits (src/report/audit/since.ts): findings are known by
// their identity — code, page, target, href as written — not by line, message or detail.

import { describe, expect, it } from 'vitest';
import { compareFindings, findingIdentity, formatSinceText, identityFinding, type AuditFinding } from '../../../src/report/index.js';
import { collect } from '../../support/collect.js';

function broken(href: string, more: Partial<AuditFinding> = {}): AuditFinding {
  return {
    code: 'LINK_BROKEN',
    severity: 'error',
    page: 'http://a.test/',
    rawHref: href,
    target: `http://a.test/${href}`,
    message: 'the target answered 404',
    detail: { status: 404 },
    ...more,
  };
}

describe('findingIdentity', () => {
  it('is the code, page, target and href as written; absent ones are empty', () => {
    expect(findingIdentity(broken('x.html', { line: 3, column: 9 }))).toEqual({ code: 'LINK_BROKEN', page: 'http://a.test/', target: 'http://a.test/x.html', href: 'x.html' });
    const siteWide: AuditFinding = { code: 'SITEMAP_XML_INVALID', severity: 'info', page: undefined, rawHref: undefined, target: undefined, message: 'm', detail: {} };
    expect(findingIdentity(siteWide)).toEqual({ code: 'SITEMAP_XML_INVALID', page: '', target: '', href: '' });
  });

  it('identityFinding takes its severity and message from the catalog; an unknown code is info', () => {
    const id = { code: 'LINK_BROKEN', page: 'http://a.test/', target: 'http://a.test/x', href: 'x' };
    expect(identityFinding(id)).toMatchObject({ severity: 'error', page: 'http://a.test/', rawHref: 'x', target: 'http://a.test/x', detail: {} });
    expect(identityFinding({ code: 'NOT_A_CODE', page: '', target: '', href: '' })).toMatchObject({ severity: 'info', page: undefined, message: 'NOT_A_CODE' });
  });
});

describe('compareFindings', () => {
  it('a finding whose line, status or message changed is the same finding', async () => {
    const changes = await compareFindings([broken('x.html', { line: 1 })], [broken('x.html', { line: 7, message: 'the target answered 500', detail: { status: 500 } })]);
    expect(changes.added).toEqual([]);
    expect(changes.fixed).toEqual([]);
  });

  it('new and fixed, in the order of each audit; an href written twice is new once per finding', async () => {
    const now = [broken('b.html'), broken('c.html', { line: 1 }), broken('c.html', { line: 2 })];
    const changes = await compareFindings([broken('a.html'), broken('b.html')], now);
    expect(changes.added.map((f) => [f.rawHref, f.line])).toEqual([
      ['c.html', 1],
      ['c.html', 2],
    ]);
    expect(changes.fixed.map((f) => f.rawHref)).toEqual(['a.html']);
  });

  it('against identities kept for a run: the fixed ones are identity findings', async () => {
    const changes = await compareFindings([findingIdentity(broken('a.html'))], []);
    expect(changes.fixed).toEqual([identityFinding(findingIdentity(broken('a.html')))]);
    expect(changes.before).toEqual(changes.fixed);
  });
});

describe('formatSinceText', () => {
  it('the summary line alone when nothing changed', async () => {
    expect(await collect(formatSinceText({ added: [], fixed: [] }, 'run 1 (2026-01-01T00:00:00Z)'))).toEqual(['0 new, 0 fixed since run 1 (2026-01-01T00:00:00Z)']);
  });

  it('only fixed: the summary, then the fixed section', async () => {
    const lines = await collect(formatSinceText({ added: [], fixed: [broken('a.html')] }, 'old.db'));
    expect(lines).toEqual(['0 new, 1 fixed since old.db', '', 'fixed (1):', 'http://a.test/', '  error    LINK_BROKEN  "a.html" → http://a.test/a.html', '           the target answered 404']);
  });
});
