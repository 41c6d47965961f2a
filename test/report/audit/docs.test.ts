// docs/audit.md lists every code the audit can emit, with its severity, and no other;
// every finding the crawl records is either an audit code or left out with a reason;
// both tables are checked against the findings catalog (src/findings.ts).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASE_FINDING_CODES, REFERENCE_FINDING_CODES } from '../../../src/base/index.js';
import { FINDING_CODES, FINDINGS } from '../../../src/findings.js';
import { HTML_FINDING_CODES } from '../../../src/html/index.js';
import { AUDIT_CODE_LIST, AUDIT_CODES, PAGE_CODES_NOT_REPORTED, isAuditCode } from '../../../src/report/index.js';

const documented = readFileSync(new URL('../../../docs/audit.md', import.meta.url), 'utf8');
const rows = [...documented.matchAll(/^\| `([A-Z_]+)` \| (error|warning|info) \| (link|page|url) \| (.+) \|$/gm)];
const leftOut = [...documented.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2]]);

describe('docs/audit.md', () => {
  it.each(AUDIT_CODE_LIST)('documents %s with its severity and subject', (code) => {
    const row = rows.find((m) => m[1] === code);
    expect(row, `a row for ${code}`).toBeDefined();
    expect(row?.[2]).toBe(AUDIT_CODES[code].severity);
    expect(row?.[3]).toBe(AUDIT_CODES[code].subject);
  });

  it('documents no code the audit cannot emit, each once, in catalog order', () => {
    expect(rows.map((m) => m[1])).toEqual(AUDIT_CODE_LIST);
  });

  it('says why each code left out is left out, as the catalog says it, in catalog order', () => {
    expect(leftOut).toEqual(Object.entries(PAGE_CODES_NOT_REPORTED));
  });

  it('names every code of the catalog', () => {
    for (const code of FINDING_CODES) expect(documented).toContain(`\`${code}\``);
  });
});

describe('the catalog', () => {
  it('covers every finding the crawl records: reported, or left out with a reason', () => {
    const notReported = new Set(Object.keys(PAGE_CODES_NOT_REPORTED));
    const recorded = [...HTML_FINDING_CODES, ...BASE_FINDING_CODES, ...REFERENCE_FINDING_CODES];
    expect(recorded.filter((code) => !isAuditCode(code) && !notReported.has(code))).toEqual([]);
    expect([...notReported].filter((code) => isAuditCode(code))).toEqual([]);
    // REF_* codes are the crawl's: REF_ABOVE_ROOT is reported as is, REF_FOLDED_* as LINK_NOT_CANONICAL.
    expect(REFERENCE_FINDING_CODES.filter((code) => isAuditCode(code))).toEqual(['REF_ABOVE_ROOT']);
  });

  it('has a one-line summary for each code', () => {
    for (const code of FINDING_CODES) expect(FINDINGS[code].summary).toMatch(/^[^\n]{10,}$/);
  });
});
