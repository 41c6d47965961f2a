// The codes the audit reports: the findings catalog (src/findings.ts) less the
// codes it leaves out, each with why. The catalog is the single source of their
// severity and summary, for docs/audit.md (a test checks both agree), SARIF rules
// and the text output. Codes are stable: a code is never renamed or reused.

import { FINDING_CODES, FINDINGS, type FindingCode, type FindingSpec } from '../../findings.js';

export { SEVERITY_RANK } from '../../findings.js';

/** A catalog entry the audit reports. */
export type AuditCodeSpec = Omit<FindingSpec, 'notReported'>;

/** The catalog codes that carry no `notReported` reason. */
export type AuditCode = { [C in FindingCode]: (typeof FINDINGS)[C] extends { readonly notReported: string } ? never : C }[FindingCode];

/** Every code the audit can emit, in catalog order. */
export const AUDIT_CODE_LIST = FINDING_CODES.filter((code): code is AuditCode => !('notReported' in FINDINGS[code]));

/** The catalog's entries for the codes the audit reports (a view of `FINDINGS`). */
export const AUDIT_CODES: { readonly [C in AuditCode]: (typeof FINDINGS)[C] } = Object.fromEntries(
  AUDIT_CODE_LIST.map((code) => [code, FINDINGS[code]]),
) as { readonly [C in AuditCode]: (typeof FINDINGS)[C] };

export function isAuditCode(code: string): code is AuditCode {
  return Object.hasOwn(AUDIT_CODES, code);
}

/** Codes the crawl records that the audit leaves out as themselves, each with why. */
export const PAGE_CODES_NOT_REPORTED: Readonly<Partial<Record<FindingCode, string>>> = Object.fromEntries(
  FINDING_CODES.flatMap((code) => {
    const spec: FindingSpec = FINDINGS[code];
    return spec.notReported === undefined ? [] : [[code, spec.notReported]];
  }),
);
