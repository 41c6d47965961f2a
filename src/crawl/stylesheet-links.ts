// The references of a stylesheet fetched on its own (a `<link rel=stylesheet>`, an
// `@import`): its `url()`, `src()`, `@import` and `image-set()` URLs, read by the CSS
// tokenizer of css-references.ts and resolved against the stylesheet's own URL after
// redirects (CSS Values and Units 4 §4.5.1; RFC 3986 §5.1.3: the retrieval URL), as
// admit entries. Every one is a resource of the stylesheet.

import { computeBaseChain, type BaseMode, type ResolvedReference } from '../base/index.js';
import { CSS_MEDIA_TYPE, type FetchedResponse } from '../fetch/index.js';
import { extractCssReferences } from '../html/index.js';
import type { AdmitEntry } from '../store/index.js';
import type { HrefFindingReport } from './crawl-summary.js';
import type { LinkDecision, LinkUse } from './link-role.js';
import { LinkResolver } from './page-links.js';

/** Element recorded on the link rows of a stylesheet's references; the attribute is `import` or `url`. */
export const STYLESHEET_ELEMENT = 'css';

export interface StylesheetContext {
  /** The stylesheet's URL id: the links' `fromUrlId`. */
  readonly id: number;
  /** Depth of the targets (the stylesheet's depth + 1). */
  readonly depth: number;
  readonly baseMode: BaseMode;
  /** References read at most; past it the stylesheet gets `CSS_REFERENCES_CAPPED`. */
  readonly maxReferences: number;
  readonly decide: (link: ResolvedReference, use: LinkUse) => LinkDecision;
}

export interface StylesheetLinks {
  readonly entries: readonly AdmitEntry[];
  readonly hrefFindings: readonly HrefFindingReport[];
  /** The stylesheet's own findings (`CSS_*`), each once. */
  readonly findings: readonly string[];
}

export function isStylesheet(response: FetchedResponse): boolean {
  return response.body !== undefined && response.contentType === CSS_MEDIA_TYPE;
}

/** The references of a stylesheet response (`isStylesheet`), in source order. */
export function stylesheetLinks(response: FetchedResponse, context: StylesheetContext): StylesheetLinks {
  const css = extractCssReferences(response.body ?? '', { maxReferences: context.maxReferences });
  // CSS Values 4 §4.5.1: relative to the style sheet's URL — where it was retrieved from.
  const chain = computeBaseChain({ retrievalUrl: response.finalUrl, contentLocation: undefined, contentBase: undefined }, { mode: context.baseMode });
  const links = new LinkResolver(chain, response.finalUrl);
  const hrefFindings: HrefFindingReport[] = [];
  const entries = css.references.map((reference): AdmitEntry => {
    const link = links.resolve(reference.url);
    if (link.hrefCodes.length > 0) hrefFindings.push({ rawHref: reference.url, codes: link.hrefCodes });
    const resolved = link.resolved;
    const decision = resolved === undefined || resolved.isSameDocument ? undefined : context.decide(resolved, 'resource');
    return {
      fromUrlId: context.id,
      rawHref: reference.url,
      target: resolved?.targetText,
      forms: resolved?.forms,
      error: link.error,
      element: STYLESHEET_ELEMENT,
      attribute: reference.kind,
      baseLevel: links.baseLevel,
      follow: resolved === undefined ? undefined : (decision?.follow ?? false),
      depth: context.depth,
      role: decision?.role,
      findings: link.findings,
      alternateTarget: undefined,
    };
  });
  return { entries, hrefFindings, findings: [...new Set(css.findings.map((finding) => finding.code))] };
}
