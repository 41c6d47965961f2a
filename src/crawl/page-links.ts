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
import { isHtmlMediaType, isMarkdownMediaType, type FetchedResponse } from '../fetch/index.js';
import {
  cleanHref,
  createLinkExtractor,
  createMarkdownExtractor,
  extractLinks,
  extractMarkdownLinks,
  LineIndex,
  parseLinkHeader,
  type ExtractedLinks,
  type LinkHeaderLink,
  type LinkKind,
} from '../html/index.js';
import { resourceKeyOf } from '../ladder/index.js';
import type { AdmitEntry } from '../store/index.js';
import type { HrefFindingReport } from './crawl-summary.js';
import { linkUseOf, type LinkDecision, type LinkUse } from './link-role.js';

const NO_CODES: readonly string[] = Object.freeze([]);

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
   * Links recorded (HTML first, then the Link header); past it the page gets
   * `PAGE_LINKS_CAPPED` and the rest is not read.
   * @default Infinity
   */
  readonly maxLinks?: number;
  /**
   * Whether a resolved target may be followed: scope, depth, private addresses.
   * `target` is the absolute URI with its fragment; `link` is its record, whose
   * `forms` answer without parsing `target` again (`ScopeTest.checkForms`).
   */
  readonly mayFollow: (target: string, link: ResolvedReference) => boolean;
  /**
   * What the crawl does with a resolved link (`LinkRoles#decide`): when given, it
   * decides `follow` and the role of every entry (`mayFollow` is then not asked).
   * @default undefined (a followed kind is followed when `mayFollow`; no role)
   */
  readonly decide?: ((link: ResolvedReference, use: LinkUse) => LinkDecision) | undefined;
}

export interface PageLinks {
  readonly entries: readonly AdmitEntry[];
  /** Index in `entries` of the page's canonical link (`<link rel=canonical>`, else a Link header one). */
  readonly canonicalIndex: number | undefined;
  readonly hrefFindings: readonly HrefFindingReport[];
  /** Codes about the page and its base chain (`HTML_*`, `BASE_*`, `PAGE_LINKS_CAPPED`), each once. */
  readonly pageFindings: readonly string[];
  /** The ids and `<a name>`s of the page, a Markdown page's heading slugs too: what fragments pointing at it may name (empty when neither HTML nor Markdown). */
  readonly anchors: readonly string[];
  readonly chain: BaseChain;
  readonly baseLevelsDiffer: boolean;
  /** The references the page holds, those past `maxLinks` included. */
  readonly linksFound: number;
}

/** A language variant a page declares (`<link rel=alternate hreflang>`, `<a hreflang>`). */
export interface DeclaredVariant {
  /** Its URL's key; `undefined` when the href did not resolve. */
  readonly key: string | undefined;
  /** The `hreflang`, trimmed and lower-cased (BCP 47 tags compare without case). */
  readonly language: string;
}

/** Element and attribute recorded for a reference from the HTTP `Link` header (RFC 8288). */
export const LINK_HEADER_ELEMENT = 'http';
export const LINK_HEADER_ATTRIBUTE = 'link';

/** How much of a page the extractor reads between two turns of the event loop (UTF-16 code units). */
const EXTRACT_SLICE = 64 * 1024;

/** The references of one response, as admit entries in document order (then the Link header's). */
export function pageLinks(response: FetchedResponse, page: PageContext): PageLinks {
  const reader = new PageLinkReader(response, page, extractWhole(response, page));
  const entries = [...reader.entries()];
  return { ...reader.facts(), entries, canonicalIndex: reader.canonicalIndex, hrefFindings: reader.hrefFindings };
}

/**
 * The HTML of a response read by the link extractor a slice at a time, with
 * `pause()` awaited between slices so that a page of 10 MiB does not hold the
 * event loop (the extractor gives the same references however the page is cut).
 * A Markdown response (`text/markdown`) is read by the Markdown extractor, a piece
 * per turn. `undefined` when the response is neither.
 */
export async function extractPageReferences(
  response: FetchedResponse,
  page: Pick<PageContext, 'follow' | 'maxLinks'>,
  pause: () => Promise<void>,
): Promise<ExtractedLinks | undefined> {
  if (isMarkdown(response)) {
    // A piece of the document at a time (8 to 16 KiB: Markdown parses far slower than HTML).
    const extractor = createMarkdownExtractor(response.body!, { follow: page.follow, maxReferences: page.maxLinks ?? Infinity });
    while (!extractor.step()) await pause();
    return extractor.end();
  }
  if (!isHtml(response)) return undefined;
  const body = response.body!;
  const extractor = createLinkExtractor({ follow: page.follow, maxReferences: page.maxLinks ?? Infinity });
  for (let at = 0; at < body.length; at += EXTRACT_SLICE) {
    if (at > 0) await pause();
    extractor.write(body.slice(at, at + EXTRACT_SLICE));
  }
  return extractor.end();
}

function extractWhole(response: FetchedResponse, page: PageContext): ExtractedLinks | undefined {
  if (isMarkdown(response)) return extractMarkdownLinks(response.body!, { follow: page.follow, maxReferences: page.maxLinks ?? Infinity });
  return isHtml(response) ? extractLinks(response.body!, { follow: page.follow, maxReferences: page.maxLinks ?? Infinity }) : undefined;
}

function isHtml(response: FetchedResponse): boolean {
  return response.body !== undefined && isHtmlMediaType(response.contentType);
}

function isMarkdown(response: FetchedResponse): boolean {
  return response.body !== undefined && isMarkdownMediaType(response.contentType);
}

/**
 * One reference of a page once resolved, before the crawl decides what to do with
 * it: what `PageLinkReader#reads` gives, in document order (then the Link
 * header's). A parse worker (parse-pool.ts) computes these off the main thread.
 */
export interface ReadReference {
  readonly raw: string;
  readonly element: string;
  readonly attribute: string;
  readonly isFollowed: boolean;
  readonly use: LinkUse;
  /** The first canonical link of the page (`<link rel=canonical>`, else a Link header one). */
  readonly isCanonical: boolean;
  readonly hreflang: string | undefined;
  /** Where the href's value sits in the source (1-based); `undefined` for the Link header. */
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** Which level of the chain gave the base it was resolved against. */
  readonly baseLevel: BaseChain['level'];
  readonly link: LinkRecord;
}

/**
 * One page's references once extracted: its base chain and findings at once, its
 * admit entries one at a time (`entries()`), so that a caller can admit a big
 * page in chunks. `hrefFindings`, `canonicalIndex` and `alternates` are complete once
 * `entries()` has run to its end. Given `reads` (a parse worker's), the references
 * are not resolved again.
 */
export class PageLinkReader {
  readonly chain: BaseChain;
  readonly hrefFindings: HrefFindingReport[] = [];
  /** Index among the entries of the page's canonical link. */
  canonicalIndex: number | undefined;
  /** The links with an `hreflang`: the language variants the page declares exist. */
  readonly alternates: DeclaredVariant[] = [];
  /** The references the page holds, those past the cap included. */
  readonly linksFound: number;
  /** How many entries `entries()` gives: `linksFound` up to the cap. */
  readonly linkCount: number;
  readonly #page: PageContext;
  readonly #extracted: ExtractedLinks | undefined;
  readonly #headerLinks: readonly LinkHeaderLink[];
  readonly #body: string | undefined;
  readonly #facts: { retrievalUrl: string; contentLocation: string | undefined; contentBase: string | undefined };
  readonly #reads: Iterable<ReadReference> | undefined;
  #resolver: LinkResolver | undefined;
  #headerResolver: LinkResolver | undefined;

  constructor(response: FetchedResponse, page: PageContext, extracted: ExtractedLinks | undefined, reads?: Iterable<ReadReference>) {
    const headers = response.headers;
    this.#page = page;
    this.#extracted = extracted;
    this.#body = response.body;
    this.#reads = reads;
    this.#facts = { retrievalUrl: response.finalUrl, contentLocation: headers['content-location'], contentBase: headers['content-base'] };
    this.chain = computeBaseChain({ ...this.#facts, baseElementHref: extracted?.base?.raw }, { mode: page.baseMode });
    const linkHeader = headers['link'];
    this.#headerLinks = linkHeader === undefined ? [] : parseLinkHeader(linkHeader);
    this.linksFound = (extracted?.referenceCount ?? 0) + this.#headerLinks.length;
    this.linkCount = Math.min(this.linksFound, page.maxLinks ?? Infinity);
  }

  /** What is known of the page before its links are resolved. */
  facts(): Omit<PageLinks, 'entries' | 'canonicalIndex' | 'hrefFindings'> {
    const extracted = this.#extracted;
    const pageFindings = new Set<string>([...(extracted?.findings ?? []).map((f) => f.code), ...this.chain.findings.map((f) => f.code)]);
    if (this.linksFound > this.linkCount) pageFindings.add('PAGE_LINKS_CAPPED');
    return {
      pageFindings: [...pageFindings],
      anchors: extracted === undefined ? [] : [...extracted.anchors],
      chain: this.chain,
      baseLevelsDiffer: baseLevelsDiffer(this.chain),
      linksFound: this.linksFound,
    };
  }

  /** The admit entries, in document order (then the Link header's), `linkCount` of them. */
  *entries(): Generator<AdmitEntry> {
    const page = this.#page;
    let count = 0;
    for (const read of this.#reads ?? this.reads()) {
      if (count >= this.linkCount) return;
      if (read.isCanonical && this.canonicalIndex === undefined) this.canonicalIndex = count;
      count++;
      const link = read.link;
      if (link.hrefCodes.length > 0) this.hrefFindings.push({ rawHref: read.raw, codes: link.hrefCodes });
      const resolved = link.resolved;
      if (read.hreflang !== undefined) this.alternates.push({ key: resolved?.key, language: read.hreflang.trim().toLowerCase() });
      let follow: boolean | undefined;
      let role: LinkDecision['role'] | undefined;
      if (resolved !== undefined && page.decide !== undefined) {
        // A same-document reference names the page itself: nothing to decide.
        const decision = resolved.isSameDocument ? undefined : page.decide(resolved, read.use);
        follow = decision?.follow ?? false;
        role = decision?.role;
      } else if (resolved !== undefined) follow = resolved.isSameDocument ? false : read.isFollowed && page.mayFollow(resolved.targetText, resolved);
      // One object literal for every entry: the same shape whatever the outcome.
      yield {
        fromUrlId: page.id,
        rawHref: read.raw,
        target: resolved?.targetText,
        forms: resolved?.forms,
        error: link.error,
        element: read.element,
        attribute: read.attribute,
        baseLevel: read.baseLevel,
        follow,
        depth: page.depth,
        role,
        findings: link.findings,
        alternateTarget: resolved?.alternateTarget,
        line: read.line,
        column: read.column,
      };
    }
  }

  /**
   * The references resolved, in document order (then the Link header's), `linkCount`
   * of them: what `entries()` decides on. Needs nothing of the crawl but the page's
   * URL, base mode and follow kinds, so a parse worker can run it.
   */
  *reads(): Generator<ReadReference> {
    const page = this.#page;
    const extracted = this.#extracted;
    let count = 0;
    let hasCanonical = false;
    // Line and column of each href's value, for reports that place it in the source (SARIF).
    const lines = extracted !== undefined && extracted.references.length > 0 && this.#body !== undefined ? new LineIndex(this.#body) : undefined;
    const links = this.resolverOf(false);
    if (extracted !== undefined) {
      const canonical = extracted.canonical;
      for (const reference of extracted.references) {
        if (count >= this.linkCount) return;
        count++;
        const isCanonical =
          canonical !== undefined &&
          !hasCanonical &&
          reference.element === 'link' &&
          reference.offset === canonical.offset &&
          reference.raw === canonical.raw;
        if (isCanonical) hasCanonical = true;
        const position = lines?.position(reference.valueOffset);
        yield {
          raw: reference.raw,
          element: reference.element,
          attribute: reference.attribute,
          isFollowed: reference.isFollowed,
          use: linkUseOf(reference.kind, reference.isFollowed, reference.rel),
          isCanonical,
          hreflang: reference.hreflang,
          line: position?.line,
          column: position?.column,
          baseLevel: links.baseLevel,
          link: links.resolve(reference.raw),
        };
      }
    }
    if (this.#headerLinks.length > 0) {
      const headerLinks = this.resolverOf(true);
      const isFollowed = page.follow.includes('link');
      for (const link of this.#headerLinks) {
        if (count >= this.linkCount) return;
        count++;
        const isCanonical = !hasCanonical && link.anchor === undefined && link.rel.includes('canonical');
        if (isCanonical) hasCanonical = true;
        yield {
          raw: link.target,
          element: LINK_HEADER_ELEMENT,
          attribute: LINK_HEADER_ATTRIBUTE,
          isFollowed,
          use: linkUseOf('link', isFollowed, link.rel),
          isCanonical,
          hreflang: undefined,
          line: undefined,
          column: undefined,
          baseLevel: headerLinks.baseLevel,
          link: headerLinks.resolve(link.target),
        };
      }
    }
  }

  /** The resolver of the page's references, or (`isHeader`) of its Link header's. */
  resolverOf(isHeader: boolean): LinkResolver {
    // RFC 8288 §3.1: "any base IRI appearing in the message's content is not applied".
    if (isHeader && this.#extracted?.base !== undefined) {
      return (this.#headerResolver ??= new LinkResolver(computeBaseChain(this.#facts, { mode: this.#page.baseMode }), this.#page.url));
    }
    return (this.#resolver ??= new LinkResolver(this.chain, this.#page.url));
  }
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
    // DEVIATION(WHATWG URL query encoding): browsers percent-encode a link's query in the
    // page's encoding; here it is UTF-8 (RFC 3987 §3.1) whatever the page's charset, for
    // want of an encoder for each legacy encoding (docs/deviations.md).
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
