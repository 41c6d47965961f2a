// The references of a stylesheet fetched on its own (a `<link rel=stylesheet>`, an
// `@import`): its `url()`, `src()`, `@import` and `image-set()` URLs, read by the CSS
// tokenizer of css-references.ts and resolved against the stylesheet's own URL after
// redirects (CSS Values and Units 4 §4.5.1; RFC 3986 §5.1.3: the retrieval URL), as
// admit entries. Every one is a resource of the page that uses the stylesheet, at
// the depth of that page's links; an @import is followed `MAX_IMPORT_NESTING` deep.

import { computeBaseChain, type BaseMode, type ResolvedReference } from '../base/index.js';
import { CSS_MEDIA_TYPE, type FetchedResponse } from '../fetch/index.js';
import { extractCssReferences } from '../html/index.js';
import type { AdmitEntry } from '../store/index.js';
import type { HrefFindingReport } from './crawl-summary.js';
import type { LinkDecision, LinkUse } from './link-role.js';
import { LinkResolver } from './page-links.js';

/** Element recorded on the link rows of a stylesheet's references; the attribute is `import` or `url`. */
export const STYLESHEET_ELEMENT = 'css';

/**
 * How deep a chain of @import is followed from the stylesheet a page links: a
 * stylesheet that many imports down has its own @import rules recorded, not
 * followed (`CSS_IMPORTS_CAPPED`). CSS Cascade 4 §2 sets no limit, but a server
 * can make the chain endless.
 */
export const MAX_IMPORT_NESTING = 10;

export interface StylesheetContext {
  /** The stylesheet's URL id: the links' `fromUrlId`. */
  readonly id: number;
  /** Depth of the targets: the stylesheet's own, that of the links of the page that uses it. */
  readonly depth: number;
  /** Whether its @import rules are followed (`MAX_IMPORT_NESTING`); when not, and one would be, `CSS_IMPORTS_CAPPED`. */
  readonly isImportFollowed: boolean;
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
  let isImportCapped = false;
  const entries = css.references.map((reference): AdmitEntry => {
    const link = links.resolve(reference.url);
    if (link.hrefCodes.length > 0) hrefFindings.push({ rawHref: reference.url, codes: link.hrefCodes });
    const resolved = link.resolved;
    let decision = resolved === undefined || resolved.isSameDocument ? undefined : context.decide(resolved, 'resource');
    if (decision?.follow === true && reference.kind === 'import' && !context.isImportFollowed) {
      decision = { follow: false, role: decision.role };
      isImportCapped = true;
    }
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
  const findings = new Set<string>(css.findings.map((finding) => finding.code));
  if (isImportCapped) findings.add('CSS_IMPORTS_CAPPED');
  return { entries, hrefFindings, findings: [...findings] };
}
