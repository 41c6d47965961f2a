// What the audit leads with: the summary, findings ranked by target, the filters,
// and page URLs mapped to source files for SARIF.

import { describe, expect, it } from 'vitest';
import {
  countInlinks,
  filterFindings,
  findingTest,
  formatAuditSarif,
  formatAuditSummary,
  formatAuditText,
  formatTargetGroupsText,
  groupByTarget,
  parseSourceRoot,
  sourceFileOf,
  summarizeFindings,
  type AuditFinding,
} from '../../../src/report/index.js';
import { collect } from '../../support/collect.js';

const broken = (page: string, href: string, line?: number): AuditFinding => ({
  code: 'LINK_BROKEN',
  severity: 'error',
  page,
  rawHref: href,
  target: `http://h/${href.replace(/^\/+/, '')}`,
  message: 'the target answered 404',
  detail: { status: 404 },
  ...(line === undefined ? {} : { line, column: 3 }),
});

// One missing page linked from 17 pages (twice from one, once with a fragment), one from 2; a redirect; a page finding.
const findings: AuditFinding[] = [
  ...Array.from({ length: 17 }, (_, i) => broken(`http://h/p${i}`, 'missing', i + 1)),
  broken('http://h/p0', 'missing#top', 9),
  broken('http://h/a', 'gone'),
  broken('http://h/b', 'gone'),
  { code: 'LINK_REDIRECT', severity: 'warning', page: 'http://h/a', rawHref: 'old', target: 'http://h/old', message: 'redirects', detail: { hops: 1 } },
  { code: 'HTML_BASE_IN_BODY', severity: 'warning', page: 'http://h/a', rawHref: undefined, target: undefined, message: '<base> after the body', detail: {} },
];

describe('summarizeFindings', () => {
  it('counts by severity and code, pages, and distinct broken targets', () => {
    const summary = summarizeFindings(findings);
    expect(summary).toEqual({
      findings: 22,
      pages: 19,
      bySeverity: { error: 20, warning: 2, info: 0 },
      byCode: [
        ['LINK_BROKEN', 20],
        ['LINK_REDIRECT', 1],
        ['HTML_BASE_IN_BODY', 1],
      ],
      brokenTargets: 2,
      brokenLinks: 20,
    });
    expect(formatAuditSummary(summary)).toEqual([
      '22 findings on 19 pages: 20 errors, 2 warnings, 0 info',
      'broken: 2 targets, linked 20 times',
      'by code: LINK_BROKEN 20, LINK_REDIRECT 1, HTML_BASE_IN_BODY 1',
    ]);
    expect(formatAuditSummary(summarizeFindings([]))).toEqual(['no findings']);
  });
});

describe('groupByTarget', () => {
  it('ranks targets by severity, then by pages linking to them; fragments do not split a broken target', () => {
    const { groups, withoutTarget } = groupByTarget(findings);
    expect(groups.map((g) => [g.code, g.target, g.status, g.pages, g.findings.length])).toEqual([
      ['LINK_BROKEN', 'http://h/missing', 404, 17, 18],
      ['LINK_BROKEN', 'http://h/gone', 404, 2, 2],
      ['LINK_REDIRECT', 'http://h/old', undefined, 1, 1],
    ]);
    expect(withoutTarget.map((f) => f.code)).toEqual(['HTML_BASE_IN_BODY']);
    expect(countInlinks(findings).get('LINK_BROKEN http://h/missing')).toBe(17);
  });

  it('as text: the summary, then each target and every referring page with the line of its href', () => {
    const lines = [...formatTargetGroupsText(groupByTarget(findings), summarizeFindings(findings))];
    expect(lines.slice(3, 7)).toEqual(['', 'error    LINK_BROKEN  http://h/missing  404, linked from 17 pages (18 links)', '  http://h/p0 at line 1, column 3  "missing"', '  http://h/p1 at line 2, column 3  "missing"']);
    expect(lines).toContain('  http://h/p0 at line 9, column 3  "missing#top"');
    expect(lines.at(-1)).toBe('1 finding without a target (about pages, or hrefs that did not resolve): run without --group-by target to list them');
  });
});

describe('findingTest', () => {
  it('keeps findings at least as severe, of the codes asked for', async () => {
    const codes = async (filter: Parameters<typeof findingTest>[0]) => (await collect(filterFindings(findings, findingTest(filter)))).map((f) => f.code);
    expect(new Set(await codes({ minSeverity: 'warning' }))).toEqual(new Set(['LINK_BROKEN', 'LINK_REDIRECT', 'HTML_BASE_IN_BODY']));
    expect(new Set(await codes({ minSeverity: 'error' }))).toEqual(new Set(['LINK_BROKEN']));
    expect(await codes({ codes: ['LINK_REDIRECT', 'HTML_BASE_IN_BODY'] })).toEqual(['LINK_REDIRECT', 'HTML_BASE_IN_BODY']);
    expect(await codes({ minSeverity: 'error', codes: ['LINK_REDIRECT'] })).toEqual([]);
  });

  it('refuses an unknown code or severity, naming it', () => {
    expect(() => findingTest({ codes: ['NOPE'] })).toThrow(/got `"NOPE"`|got `NOPE`|NOPE/);
    expect(() => findingTest({ minSeverity: 'fatal' as never })).toThrow('Expected `minSeverity` to be one of error, warning, info');
  });
});

describe('colour', () => {
  it('colours the severity only, when asked', async () => {
    const lines = await collect(formatAuditText(findings.slice(-2), { color: true }));
    expect(lines[1]).toBe('  \u001b[33mwarning\u001b[39m  LINK_REDIRECT  "old" → http://h/old');
    expect((await collect(formatAuditText(findings.slice(-2))))[1]).toBe('  warning  LINK_REDIRECT  "old" → http://h/old');
  });
});

describe('source roots', () => {
  it('maps a page URL under the prefix to a file under the folder; a URL ending in "/" to its index.html', () => {
    const roots = [parseSourceRoot('http://127.0.0.1:8080/docs/=./site/'), parseSourceRoot('http://127.0.0.1:8080/docs/api=build/api docs')];
    expect(sourceFileOf('http://127.0.0.1:8080/docs/', roots)).toBe('site/index.html');
    expect(sourceFileOf('http://127.0.0.1:8080/docs/guide/', roots)).toBe('site/guide/index.html');
    expect(sourceFileOf('http://127.0.0.1:8080/docs/a%20b.html?x=1', roots)).toBe('site/a%20b.html');
    // The longest prefix wins, at a segment boundary.
    expect(sourceFileOf('http://127.0.0.1:8080/docs/api/x.html', roots)).toBe('build/api%20docs/x.html');
    expect(sourceFileOf('http://127.0.0.1:8080/docs/api', roots)).toBe('build/api%20docs/index.html');
    expect(sourceFileOf('http://127.0.0.1:8080/docs/apix.html', roots)).toBe('site/apix.html');
    expect(sourceFileOf('http://127.0.0.1:8080/other/', roots)).toBeUndefined();
    // The prefix is compared at the scheme rung, as the index keys pages.
    expect(parseSourceRoot('HTTP://Example.COM:80/=.')).toEqual({ urlPrefix: 'http://example.com/', dir: '' });
    expect(sourceFileOf('http://example.com/a/b.html', [parseSourceRoot('HTTP://Example.COM:80/=.')])).toBe('a/b.html');
  });

  it('refuses a root without "=" or with a relative prefix', () => {
    expect(() => parseSourceRoot('./site/')).toThrow('<URL prefix>=<dir>');
    expect(() => parseSourceRoot('/docs/=./site/')).toThrow('absolute URL');
  });

  it('SARIF: a mapped page is located at its file with the region of the href; others stay at their URL', async () => {
    const sample = [broken('http://h/docs/a.html', 'missing', 12), broken('http://elsewhere/', 'gone', 2), broken('http://h/docs/b.html', 'x')];
    const log = JSON.parse((await collect(formatAuditSarif(sample, { sourceRoots: [parseSourceRoot('http://h/docs/=site')] }))).join('\n')) as {
      runs: { results: { locations: unknown }[] }[];
    };
    expect(log.runs[0]!.results.map((r) => r.locations)).toEqual([
      [{ physicalLocation: { artifactLocation: { uri: 'site/a.html' }, region: { startLine: 12, startColumn: 3 } } }],
      [{ physicalLocation: { artifactLocation: { uri: 'http://elsewhere/' }, region: { startLine: 2, startColumn: 3 } } }],
      [{ physicalLocation: { artifactLocation: { uri: 'site/b.html' } } }],
    ]);
    expect(() => formatAuditSarif([], { sourceRoots: ['x'] as never })).toThrow('Expected `sourceRoots`');
  });
});
