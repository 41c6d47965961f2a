// docs/audit.md lists every code the audit can emit, with its severity, and no other;
// every page finding the crawl records is either an audit code or left out with a reason.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASE_FINDING_CODES, REFERENCE_FINDING_CODES } from '../../../src/base/index.js';
import { HTML_FINDINGS } from '../../../src/html/index.js';
import { AUDIT_CODE_LIST, AUDIT_CODES, PAGE_CODES_NOT_REPORTED, isAuditCode } from '../../../src/report/index.js';

const documented = readFileSync(new URL('../../../docs/audit.md', import.meta.url), 'utf8');
const rows = [...documented.matchAll(/^\| `([A-Z_]+)` \| (error|warning|info) \| (link|page|url) \| (.+) \|$/gm)];

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

  it('says why each page code left out is left out', () => {
    for (const code of Object.keys(PAGE_CODES_NOT_REPORTED)) expect(documented).toContain(`\`${code}\``);
  });
});

describe('the catalog', () => {
  it('covers every finding the crawl records: reported, or left out with a reason', () => {
    const notReported = new Set(Object.keys(PAGE_CODES_NOT_REPORTED));
    const recorded = [...Object.keys(HTML_FINDINGS), ...BASE_FINDING_CODES];
    expect(recorded.filter((code) => !isAuditCode(code) && !notReported.has(code))).toEqual([]);
    expect([...notReported].filter((code) => isAuditCode(code))).toEqual([]);
    // REF_* codes are the crawl's: REF_ABOVE_ROOT is reported as is, REF_FOLDED_* as LINK_NOT_CANONICAL.
    expect(REFERENCE_FINDING_CODES.filter((code) => isAuditCode(code))).toEqual(['REF_ABOVE_ROOT']);
  });

  it('has a one-line summary for each code', () => {
    for (const code of AUDIT_CODE_LIST) expect(AUDIT_CODES[code].summary).toMatch(/^[^\n]{10,}$/);
  });
});
