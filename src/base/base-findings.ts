// What the RFC 3986 §5.1 base chain noticed about a response: findings for the
// audit, never exceptions. Severity and summary live in the
// findings catalog (src/findings.ts).

import { FINDINGS, findingCodesWith, type FindingCode } from '../findings.js';
import type { UriSyntaxError } from '../uri/index.js';
import type { BaseLevel } from './base-level.js';

export type BaseFindingCode = Extract<FindingCode, `BASE_${string}`>;

/** Every code of the base chain, in catalog order. */
export const BASE_FINDING_CODES: readonly BaseFindingCode[] = findingCodesWith('BASE_');

/** Each base-chain code with its one-line summary (a view of the catalog, not a second registry). */
export const BASE_FINDINGS: Readonly<Record<BaseFindingCode, string>> = Object.fromEntries(
  BASE_FINDING_CODES.map((code) => [code, FINDINGS[code].summary]),
) as Record<BaseFindingCode, string>;

/** One thing the base chain noticed. */
export interface BaseFinding {
  readonly code: BaseFindingCode;
  /** The level it concerns; `undefined` only for `BASE_NONE`. */
  readonly level: BaseLevel | undefined;
  /** The value exactly as received (attribute, header, URL); `undefined` only for `BASE_NONE`. */
  readonly value: string | undefined;
  /** For the `*_INVALID` codes: what is wrong, with an index into `value`. */
  readonly error?: UriSyntaxError;
}
