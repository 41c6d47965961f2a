// A check finding: the verdict a finding carries (what the crawl recorded), the
// severity CI acts on, and the shapes of its formats.

import { describe, expect, it } from 'vitest';
import {
  CHECK_JSON_KEYS,
  formatCheckCsv,
  formatCheckJson,
  formatCheckSarif,
  formatCheckText,
  toCheckFinding,
  type AuditFinding,
  type CheckFinding,
} from '../../../src/report/index.js';

const base = (code: string, severity: AuditFinding['severity'], extra: Partial<AuditFinding> = {}): AuditFinding => ({
  code,
  severity,
  page: 'http://site.invalid/a.html',
  rawHref: 'b.html',
  target: 'http://site.invalid/b.html',
  message: 'msg',
  detail: {},
  line: 3,
  column: 7,
  ...extra,
});
const fileOf = (page: string): string | undefined => (page.startsWith('http://site.invalid/') ? `site/${page.slice(20)}` : undefined);

async function all(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe('toCheckFinding', () => {
  it('a broken verdict is an error (a missing fragment, a warning in the audit, included), and the file is given', () => {
    const f = toCheckFinding(base('LINK_FRAGMENT_MISSING', 'warning', { verdict: 'broken' }), fileOf);
    expect([f.verdict, f.severity, f.file]).toEqual(['broken', 'error', 'site/a.html']);
    expect(toCheckFinding(base('SEED_BROKEN', 'error', { verdict: 'broken' }), fileOf).verdict).toBe('broken');
  });

  it('makes an unverified target a warning, whatever the catalog says', () => {
    const f = toCheckFinding({ ...base('LINK_BROKEN', 'error'), verdict: 'unverified' } as AuditFinding, fileOf);
    expect([f.verdict, f.severity]).toEqual(['unverified', 'warning']);
  });

  it('leaves other findings their severity and no verdict', () => {
    const f = toCheckFinding(base('LINK_REDIRECT', 'warning', { page: 'https://example.com/' }), fileOf);
    expect([f.verdict, f.severity, f.file]).toEqual([undefined, 'warning', undefined]);
  });
});

describe('formats', () => {
  const findings: CheckFinding[] = [
    toCheckFinding(base('LINK_BROKEN', 'error', { verdict: 'broken' }), fileOf),
    toCheckFinding(base('LINK_REDIRECT', 'warning', { page: 'http://site.invalid/sub/a b.html', line: 1, column: 2 }), fileOf),
  ];

  it('json: exactly the ten keys, null when absent', async () => {
    const lines = await all(formatCheckJson([toCheckFinding(base('LINK_BROKEN', 'error', { line: undefined, column: undefined, verdict: 'broken' }), fileOf)]));
    const object = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(object)).toEqual([...CHECK_JSON_KEYS]);
    expect(object).toMatchObject({ verdict: 'broken', file: 'site/a.html', line: null, column: null });
  });

  it('csv: a header and a record per finding', async () => {
    const lines = await all(formatCheckCsv(findings));
    expect(lines[0]).toBe('severity,code,verdict,file,line,column,href,target,page,message');
    expect(lines[1]).toBe('error,LINK_BROKEN,broken,site/a.html,3,7,b.html,http://site.invalid/b.html,http://site.invalid/a.html,msg');
  });

  it('sarif: located at the relative file, with line and column', async () => {
    const log = JSON.parse((await all(formatCheckSarif(findings))).join('')) as {
      runs: { results: { level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: unknown } }[] }[] }[];
    };
    const [first, second] = log.runs[0]!.results;
    expect(first!.level).toBe('error');
    expect(first!.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'site/a.html' }, region: { startLine: 3, startColumn: 7 } });
    expect(second!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('site/sub/a%20b.html');
  });

  it('text: grouped by file, file:line:col lines, a verdict summary', () => {
    const lines = [...formatCheckText(findings, { targetLabel: (t) => fileOf(t), urlsChecked: 4 })];
    expect(lines).toEqual([
      'site/a.html',
      '  site/a.html:3:7  error    LINK_BROKEN  "b.html" → site/b.html  msg',
      '',
      'site/sub/a b.html',
      '  site/sub/a b.html:1:2  warning  LINK_REDIRECT  "b.html" → site/b.html  msg',
      '',
      '4 URLs checked: 1 broken link, 0 unverified; 2 findings in 2 files (1 error, 1 warning, 0 info)',
    ]);
  });
});
