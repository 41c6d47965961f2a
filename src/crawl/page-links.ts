// One response's references, ready for one store.admit(batch): extracted from the
// HTML and the Link header, cleaned as browsers clean them, resolved against the
// RFC 3986 §5.1 base chain (§5.2), and same-document references (§4.4) pointed
// at the page itself so that they never cause a retrieval. Each entry carries
// what the audit needs to know of the link as written: its clean-up and
// resolution findings, and its target under the other base mode.

import {
  baseLevelsDiffer,
  computeBaseChain,
  isSameDocumentReference,
  referenceFindings,
  type BaseChain,
  type BaseChoice,
  type BaseMode,
} from '../base/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import { cleanHref, extractLinks, parseLinkHeader, type LinkKind } from '../html/index.js';
import { resourceKey } from '../ladder/index.js';
import type { AdmitEntry } from '../store/index.js';
import { parseUriReference, serialize, transformReference, type AbsoluteUri, type UriReference } from '../uri/index.js';
import type { HrefFindingReport } from './crawl-summary.js';

const NO_CODES: readonly string[] = Object.freeze([]);

/** The media types whose body the fetcher decodes and the extractor reads. */
const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/** What `pageLinks` needs to know of the page. */
export interface PageContext {
  /** The page's URL id: the links' `fromUrlId`. */
  readonly id: number;
  /** The retrieval URL (RFC 3986 §5.1.3): where same-document references point. */
  readonly url: string;
  /** Depth of the targets the links discover (the page's depth + 1). */
  readonly depth: number;
  readonly baseMode: BaseMode;
  /** The kinds followed; `link` covers the HTTP Link header too. */
  readonly follow: readonly LinkKind[];
  /** Whether a resolved target (absolute, with its fragment) may be followed: scope, depth, private addresses. */
  readonly mayFollow: (target: string) => boolean;
}

export interface PageLinks {
  readonly entries: readonly AdmitEntry[];
  /** Index in `entries` of the page's canonical link (`<link rel=canonical>`, else a Link header one). */
  readonly canonicalIndex: number | undefined;
  readonly hrefFindings: readonly HrefFindingReport[];
  /** Codes about the page and its base chain (`HTML_*`, `BASE_*`), each once. */
  readonly pageFindings: readonly string[];
  /** The ids and `<a name>`s of the page: what fragments pointing at it may name (empty when not HTML). */
  readonly anchors: readonly string[];
  readonly chain: BaseChain;
  readonly baseLevelsDiffer: boolean;
}

/** Element and attribute recorded for a reference from the HTTP `Link` header (RFC 8288). */
export const LINK_HEADER_ELEMENT = 'http';
export const LINK_HEADER_ATTRIBUTE = 'link';

/** The references of one response, as admit entries in document order (then the Link header's). */
export function pageLinks(response: FetchedResponse, page: PageContext): PageLinks {
  const headers = response.headers;
  const isHtml = response.body !== undefined && response.contentType !== undefined && HTML_TYPES.has(response.contentType);
  const extracted = isHtml ? extractLinks(response.body!, { follow: page.follow }) : undefined;
  const facts = {
    retrievalUrl: response.finalUrl,
    contentLocation: headers['content-location'],
    contentBase: headers['content-base'],
  };
  const options = { mode: page.baseMode };
  const chain = computeBaseChain({ ...facts, baseElementHref: extracted?.base?.raw }, options);
  const pageKey = keyOf(page.url);
  const hrefFindings: HrefFindingReport[] = [];
  const entries: AdmitEntry[] = [];
  let canonicalIndex: number | undefined;

  const add = (raw: string, element: string, attribute: string, isFollowed: boolean, base: BaseChain): void => {
    const cleaned = cleanHref(raw);
    const hrefCodes = cleaned.findings.length === 0 ? NO_CODES : cleaned.findings.map((f) => f.code);
    if (hrefCodes.length > 0) hrefFindings.push({ rawHref: raw, codes: hrefCodes });
    // One object literal for every entry: the same shape whatever the outcome.
    const entry = (target: string | undefined, error: string | undefined, follow: boolean | undefined, findings: readonly string[], alternateTarget?: string): AdmitEntry => ({
      fromUrlId: page.id,
      rawHref: raw,
      target,
      error,
      element,
      attribute,
      baseLevel: base.level,
      follow,
      depth: page.depth,
      findings,
      alternateTarget,
    });
    if (cleaned.cleaned === undefined) {
      const invalid = cleaned.findings.find((f) => f.code === 'HREF_INVALID');
      entries.push(entry(undefined, invalid?.uriError ?? cleaned.findings[0]?.code, undefined, hrefCodes));
      return;
    }
    if (base.base === undefined) {
      entries.push(entry(undefined, 'ERR_URI_NOT_ABSOLUTE', undefined, hrefCodes));
      return;
    }
    const R = parseUriReference(cleaned.cleaned);
    if (!R.ok) {
      entries.push(entry(undefined, R.error.code, undefined, hrefCodes));
      return;
    }
    // RFC 3986 §5.2.2
    const T = transformReference(R.value, base.base);
    const key = resourceKey(T);
    const refCodes = referenceFindings(R.value, base.base, T, key);
    const findings = refCodes.length === 0 ? hrefCodes : [...hrefCodes, ...refCodes];
    const resolved = targetOf(cleaned.cleaned, T, key, base.baseText ?? serialize(base.base));
    const alternate = alternateTargetOf(cleaned.cleaned, R.value, base, resolved.key);
    const follow = resolved.isSameDocument ? false : isFollowed && page.mayFollow(resolved.target);
    entries.push(entry(resolved.target, undefined, follow, findings, alternate));
  };

  // RFC 3986 §4.4: the base minus its fragment, or the page itself (a <base href>
  // elsewhere does not make a link to the page another document).
  const targetOf = (cleaned: string, T: AbsoluteUri, key: string, baseText: string): { target: string; key: string; isSameDocument: boolean } => {
    if (isSameDocumentReference(cleaned, baseText) || key === pageKey) {
      const target = T.fragment === undefined ? page.url : `${page.url}#${T.fragment}`;
      return { target, key: pageKey ?? key, isSameDocument: true };
    }
    return { target: serialize(T), key, isSameDocument: false };
  };

  // DESIGN.md §3: the target under the other base mode's chain, when it names
  // another resource (compared at the scheme rung, RFC 3986 §6.2.3).
  const alternateTargetOf = (cleaned: string, R: UriReference, base: BaseChain, key: string): string | undefined => {
    const other: BaseChoice = base.alternate;
    if (other.base === undefined || other.baseText === undefined || other.baseText === base.baseText) return undefined;
    const T = transformReference(R, other.base);
    const resolved = targetOf(cleaned, T, resourceKey(T), other.baseText);
    return resolved.key === key ? undefined : resolved.target;
  };

  if (extracted !== undefined) {
    const canonical = extracted.canonical;
    for (const reference of extracted.references) {
      if (
        canonical !== undefined &&
        canonicalIndex === undefined &&
        reference.element === 'link' &&
        reference.offset === canonical.offset &&
        reference.raw === canonical.raw
      ) {
        canonicalIndex = entries.length;
      }
      add(reference.raw, reference.element, reference.attribute, reference.isFollowed, chain);
    }
  }
  const linkHeader = headers['link'];
  if (linkHeader !== undefined) {
    // RFC 8288 §3.1: "any base IRI appearing in the message's content is not applied".
    const headerChain = extracted?.base === undefined ? chain : computeBaseChain(facts, options);
    const isFollowed = page.follow.includes('link');
    for (const link of parseLinkHeader(linkHeader)) {
      if (canonicalIndex === undefined && link.anchor === undefined && link.rel.includes('canonical')) canonicalIndex = entries.length;
      add(link.target, LINK_HEADER_ELEMENT, LINK_HEADER_ATTRIBUTE, isFollowed, headerChain);
    }
  }
  const pageFindings = new Set<string>([
    ...(extracted?.findings ?? []).map((f) => f.code),
    ...chain.findings.map((f) => f.code),
  ]);
  return {
    entries,
    canonicalIndex,
    hrefFindings,
    pageFindings: [...pageFindings],
    anchors: extracted === undefined ? [] : [...extracted.anchors],
    chain,
    baseLevelsDiffer: baseLevelsDiffer(chain),
  };
}

/** The resource key (RFC 3986 §6.1, §6.2.3) of an absolute URI, or `undefined`. */
export function keyOf(uri: string): string | undefined {
  const parsed = parseUriReference(uri);
  return parsed.ok && parsed.value.scheme !== undefined ? resourceKey(parsed.value) : undefined;
}
