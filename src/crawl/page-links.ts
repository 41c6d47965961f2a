// One response's references, ready for one store.admit(batch): extracted from the
// HTML and the Link header, cleaned as browsers clean them, resolved against the
// RFC 3986 §5.1 base chain (§5.2), and same-document references (§4.4) pointed
// at the page itself so that they never cause a retrieval. Each entry carries
// what the audit needs to know of the link as written: its clean-up and
// resolution findings, and its target under the other base mode.

import {
  PageResolver,
  baseLevelsDiffer,
  computeBaseChain,
  type BaseChain,
  type BaseMode,
  type ResolvedReference,
} from '../base/index.js';
import type { FetchedResponse } from '../fetch/index.js';
import { cleanHref, extractLinks, parseLinkHeader, type LinkKind } from '../html/index.js';
import { resourceKeyOf } from '../ladder/index.js';
import type { AdmitEntry } from '../store/index.js';
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
  /**
   * Whether a resolved target may be followed: scope, depth, private addresses.
   * `target` is the absolute URI with its fragment; `link` is its record, whose
   * `forms` answer without parsing `target` again (`ScopeTest.checkForms`).
   */
  readonly mayFollow: (target: string, link: ResolvedReference) => boolean;
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
  const hrefFindings: HrefFindingReport[] = [];
  const entries: AdmitEntry[] = [];
  let canonicalIndex: number | undefined;

  const add = (links: LinkResolver, raw: string, element: string, attribute: string, isFollowed: boolean): void => {
    const link = links.resolve(raw);
    if (link.hrefCodes.length > 0) hrefFindings.push({ rawHref: raw, codes: link.hrefCodes });
    const resolved = link.resolved;
    let follow: boolean | undefined;
    if (resolved !== undefined) follow = resolved.isSameDocument ? false : isFollowed && page.mayFollow(resolved.targetText, resolved);
    // One object literal for every entry: the same shape whatever the outcome.
    entries.push({
      fromUrlId: page.id,
      rawHref: raw,
      target: resolved?.targetText,
      forms: resolved?.forms,
      error: link.error,
      element,
      attribute,
      baseLevel: links.baseLevel,
      follow,
      depth: page.depth,
      findings: link.findings,
      alternateTarget: resolved?.alternateTarget,
    });
  };

  const links = new LinkResolver(chain, page.url);
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
      add(links, reference.raw, reference.element, reference.attribute, reference.isFollowed);
    }
  }
  const linkHeader = headers['link'];
  if (linkHeader !== undefined) {
    // RFC 8288 §3.1: "any base IRI appearing in the message's content is not applied".
    const headerLinks = extracted?.base === undefined ? links : new LinkResolver(computeBaseChain(facts, options), page.url);
    const isFollowed = page.follow.includes('link');
    for (const link of parseLinkHeader(linkHeader)) {
      if (canonicalIndex === undefined && link.anchor === undefined && link.rel.includes('canonical')) canonicalIndex = entries.length;
      add(headerLinks, link.target, LINK_HEADER_ELEMENT, LINK_HEADER_ATTRIBUTE, isFollowed);
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

/**
 * The resource key (RFC 3986 §6.1, §6.2.3) of an absolute URI, or `undefined`:
 * `resourceKeyOf` of the ladder, the one key function of seeds and links.
 */
export function keyOf(uri: string): string | undefined {
  return resourceKeyOf(uri);
}

/** One href of a page, as the pipeline carries it from the tag to the row. */
export interface LinkRecord {
  readonly raw: string;
  /** The href after browser-style clean-up (`cleanHref`), or `undefined` when it stays invalid. */
  readonly cleaned: string | undefined;
  /** The clean-up's finding codes (`HREF_*`). */
  readonly hrefCodes: readonly string[];
  /** What it resolves to; `undefined` when it did not (see `error`). */
  readonly resolved: ResolvedReference | undefined;
  /** Why it did not resolve. */
  readonly error: string | undefined;
  /** `hrefCodes`, then the resolution's `REF_*` codes: what its link row records. */
  readonly findings: readonly string[];
}

/**
 * The hrefs of one page, each turned into one `LinkRecord`: cleaned (one parse,
 * in `cleanHref`), resolved against the page's base chain (`PageResolver`), keyed.
 * Built once per page and base chain. (Reusing the record of an href the page
 * repeats was measured slower: the kept records outlive the young generation.)
 */
export class LinkResolver {
  readonly #resolver: PageResolver;
  /** Which level of the chain gave the base (`AdmitEntry.baseLevel`). */
  readonly baseLevel: BaseChain['level'];

  constructor(chain: BaseChain, pageUrl: string) {
    this.#resolver = new PageResolver(chain, pageUrl);
    this.baseLevel = chain.level;
  }

  resolve(raw: string): LinkRecord {
    const cleaned = cleanHref(raw);
    const hrefCodes = cleaned.findings.length === 0 ? NO_CODES : Object.freeze(cleaned.findings.map((f) => f.code));
    const R = cleaned.reference;
    if (R === undefined) {
      const invalid = cleaned.findings.find((f) => f.code === 'HREF_INVALID');
      return { raw, cleaned: undefined, hrefCodes, resolved: undefined, error: invalid?.uriError ?? cleaned.findings[0]?.code, findings: hrefCodes };
    }
    const resolved = this.#resolver.resolve(R);
    if (resolved === undefined) {
      return { raw, cleaned: cleaned.cleaned, hrefCodes, resolved: undefined, error: 'ERR_URI_NOT_ABSOLUTE', findings: hrefCodes };
    }
    const refCodes = resolved.findings;
    const findings = refCodes.length === 0 ? hrefCodes : Object.freeze([...hrefCodes, ...refCodes]);
    return { raw, cleaned: cleaned.cleaned, hrefCodes, resolved, error: undefined, findings };
  }
}
