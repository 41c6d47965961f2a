// The findings of the html layer: what a page or an href does that a browser
// tolerates and RFC 3986 does not. They are returned, never thrown; the audit
// reports them by code. Severity and summary live in the findings catalog
// (src/findings.ts); this is its html view.

import { FINDINGS, findingCodesWith, type FindingCode } from '../findings.js';

/** The codes `cleanHref` returns, about one attribute value. */
export type HrefFindingCode = Extract<FindingCode, `HREF_${string}`>;

/** The codes the link extractor returns about the page as a whole. */
export type PageFindingCode = Extract<FindingCode, `HTML_${string}`>;

/** The codes of a stylesheet's references (`extractCssReferences`, and the CSS of a page). */
export type CssFindingCode = Extract<FindingCode, `CSS_${string}`>;

export type HtmlFindingCode = HrefFindingCode | PageFindingCode | CssFindingCode;

/** Every code of the html layer, in catalog order: `HREF_*`, then `HTML_*`, then `CSS_*`. */
export const HTML_FINDING_CODES: readonly HtmlFindingCode[] = [
  ...findingCodesWith('HREF_'),
  ...findingCodesWith('HTML_'),
  ...findingCodesWith('CSS_'),
];

/** The catalog's entries for the html codes (a view of `FINDINGS`, not a second registry). */
export const HTML_FINDINGS: { readonly [C in HtmlFindingCode]: (typeof FINDINGS)[C] } = Object.fromEntries(
  HTML_FINDING_CODES.map((code) => [code, FINDINGS[code]]),
) as { readonly [C in HtmlFindingCode]: (typeof FINDINGS)[C] };
