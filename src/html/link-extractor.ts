// Streaming link extraction: callbacks on htmlparser2's tokenizer that collect, in document order,
// every URL-bearing attribute value of a page, plus what decides how those values
// resolve (the first <base href>) and what the page says about itself
// (<link rel=canonical>, the ids that fragments can point to). Nothing is resolved
// here: values are kept as written, after the HTML parser decoded character
// references, which is what a browser hands to its URL parser.
//
// The result does not depend on how the page is cut into chunks: every decision is
// taken on a whole start tag (attributes complete) or on a property of text that
// survives any split (whether it holds a non-whitespace character). The cost is
// linear in the page, however broken its markup (see tag-reader.ts).
//
// Stylesheet text in the page — `<style>` elements and `style` attributes — is read for
// its `url()`, `@import` … (css-references.ts): those references resolve against the
// page's base, like the attributes'. Each reference carries `valueOffset`, where its URL
// is written in the page; `new LineIndex(html).position(valueOffset)` gives its line and
// column, computed only for the pages a report places (no newline is counted here).

import { OptionError, describeValue } from '../errors.js';
import { asciiLowerCase, splitTokens } from '../infra/index.js';
import { scanCssReferences, type CssFinding, type CssReference, type CssReferenceKind } from './css-references.js';
import type { CssFindingCode, PageFindingCode } from './findings.js';
import { parseMetaRefresh } from './meta-refresh.js';
import { NameTable } from './name-table.js';
import { parseSrcset } from './srcset.js';
import { TagReader, type AttributeValues, type TagHandler } from './tag-reader.js';
import { DEFAULT_FOLLOW, LINK_KINDS, URL_ATTRIBUTES, isLinkKind, type LinkKind } from './url-attributes.js';

/** One URL-bearing value found in the page. */
export interface LinkReference {
  /** Lower-case element name (`a`, `img`, `meta`, …). */
  readonly element: string;
  /**
   * Lower-case attribute name (`href`, `srcset`, `content` for a meta refresh, `style` for
   * the CSS of a style attribute, …), or `#text` for the CSS text of a `<style>` element.
   */
  readonly attribute: string;
  /** The URL as written, character references decoded; one candidate of a srcset; the URL part of a refresh. */
  readonly raw: string;
  readonly kind: LinkKind;
  /** Whether the crawl follows it (its kind is in the `follow` option). Everything is recorded either way. */
  readonly isFollowed: boolean;
  /** UTF-16 index, in the whole document, of the "<" of the element's start tag. */
  readonly offset: number;
  /**
   * UTF-16 index, in the whole document, of where the URL is written: the first character
   * of the attribute's value (after its quote). Within a value — a srcset candidate, a
   * CSS reference (its `url(` or string) — the URL's own first character, when the value
   * holds no character reference; else the value's start. For a meta refresh, the start of
   * `content`. Line and column: `LineIndex#position`.
   */
  readonly valueOffset: number;
  /** On a reference found in CSS (`<style>`, `style=""`) only: `import` for an `@import`ed stylesheet, else `url`. Its kind is `resource`. */
  readonly cssKind?: CssReferenceKind;
  /** The element's `rel` tokens, lower-cased: only on a, area and link elements that have a `rel`. */
  readonly rel?: readonly string[];
  /**
   * The element's `hreflang` as written (HTML §4.6.2: the language of the linked
   * resource): only on a, area and link elements that have one. Such a link declares
   * a language variant that exists (content evidence).
   */
  readonly hreflang?: string;
}

/** A URL the page states about itself: its `<base href>` or its canonical link. */
export interface PageUrl {
  /** As written, character references decoded. */
  readonly raw: string;
  /** UTF-16 index of the element's "<". */
  readonly offset: number;
}

/** Something about the page's markup that the audit reports. */
export interface PageFinding {
  readonly code: PageFindingCode | CssFindingCode;
  /** UTF-16 index of the "<" of the element concerned. */
  readonly offset: number;
}

/** Everything the extractor found in one page. */
export interface ExtractedLinks {
  /** Every URL-bearing value, in document order (attributes of one element in source order), up to `maxReferences`. */
  readonly references: readonly LinkReference[];
  /** How many URL-bearing values the page holds, those past `maxReferences` included. */
  readonly referenceCount: number;
  /** The first `<base>` with an `href` (the one browsers use, wherever it sits), or `undefined`. */
  readonly base: PageUrl | undefined;
  /** The first `<link>` whose `rel` tokens include `canonical` and that has an `href`, or `undefined`. */
  readonly canonical: PageUrl | undefined;
  /** The fragment targets of the page: the `id` of any element and the `name` of `<a>` elements. */
  readonly anchors: ReadonlySet<string>;
  /** Findings about the page, in document order. */
  readonly findings: readonly PageFinding[];
}

export interface LinkExtractorOptions {
  /**
   * The kinds of reference the crawl follows; every reference is recorded anyway,
   * with `isFollowed` telling which.
   * @default ['navigation', 'frame', 'refresh']
   */
  readonly follow?: readonly LinkKind[];
  /** Called with each reference as soon as its start tag is complete, in document order. @default undefined */
  readonly onReference?: (reference: LinkReference) => void;
  /**
   * References kept (and passed to `onReference`); later ones are only counted, so
   * that a page of a million links costs no more memory than one of this many.
   * @default Infinity
   */
  readonly maxReferences?: number;
  /**
   * How many references to read from one `<style>` element or one `style` attribute; past
   * it, a `CSS_REFERENCES_CAPPED` finding. Lower than a stylesheet's own cap
   * (`extractCssReferences`, 10,000): CSS inlined in a page rarely names more than a few dozen.
   * @default 1000
   */
  readonly maxCssReferences?: number;
}

/** A streaming extractor for one page. */
export interface LinkExtractor {
  /** Feed the next piece of the page. Ignored after `end()`. */
  write(chunk: string): void;
  /** Finish the page (after an optional last chunk) and return what was found. Calling it again returns the same. */
  end(chunk?: string): ExtractedLinks;
}

/**
 * Elements that may come before the body without starting it (HTML "in head"
 * insertion mode). Any other start tag, and non-whitespace text outside the
 * text-holding ones below, starts the body.
 */
const HEAD_CONTENT: ReadonlySet<string> = new Set([
  'html',
  'head',
  'title',
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'style',
  'script',
  'noscript',
  'template',
]);

/** Head elements whose text is content of their own, not body text. */
const TEXT_HOLDERS: ReadonlySet<string> = new Set(['title', 'style', 'script', 'noscript', 'template']);

/** Elements whose `rel` is recorded on their references. */
const REL_ELEMENTS: ReadonlySet<string> = new Set(['a', 'area', 'link']);

/**
 * The attributes the extractor reads: fragment targets, `<base href>`, meta refresh,
 * `rel`, and every URL attribute. The tag reader skips the others unread.
 */
const READ_ATTRIBUTES = new NameTable([
  'id',
  'name',
  'href',
  'http-equiv',
  'content',
  'rel',
  'hreflang',
  'style',
  ...[...URL_ATTRIBUTES.values()].flatMap((attributes) => [...attributes.keys()]),
]);

/** The default of `maxCssReferences`. */
const PAGE_CSS_REFERENCE_LIMIT = 1000;

/** Create an extractor for one page. Throws `OptionError` for bad options, never for bad markup. */
export function createLinkExtractor(options: LinkExtractorOptions = {}): LinkExtractor {
  return new PageLinkExtractor(validateOptions(options));
}

/** Extract the links of a whole page at once. */
export function extractLinks(html: string, options: LinkExtractorOptions = {}): ExtractedLinks {
  return createLinkExtractor(options).end(html);
}

interface ExtractorConfig {
  readonly follow: ReadonlySet<LinkKind>;
  readonly onReference: ((reference: LinkReference) => void) | undefined;
  readonly maxReferences: number;
  readonly maxCssReferences: number;
}

function validateOptions(options: LinkExtractorOptions): ExtractorConfig {
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const follow: unknown = options.follow ?? DEFAULT_FOLLOW;
  if (!Array.isArray(follow)) {
    throw new OptionError(`Expected \`follow\` to be an array of link kinds, got ${describeValue(follow)}`);
  }
  const unknown = follow.findIndex((kind) => !isLinkKind(kind));
  if (unknown !== -1) {
    throw new OptionError(
      `Expected \`follow\` to hold only ${LINK_KINDS.join(', ')}, got ${describeValue(follow[unknown])}`,
    );
  }
  const onReference: unknown = options.onReference;
  if (onReference !== undefined && typeof onReference !== 'function') {
    throw new OptionError(`Expected \`onReference\` to be a function, got ${describeValue(onReference)}`);
  }
  const maxReferences: unknown = options.maxReferences ?? Infinity;
  if (typeof maxReferences !== 'number' || !(maxReferences === Infinity || (Number.isInteger(maxReferences) && maxReferences >= 0))) {
    throw new OptionError(`Expected \`maxReferences\` to be an integer >= 0 or Infinity, got ${describeValue(maxReferences)}`);
  }
  const maxCssReferences: unknown = options.maxCssReferences ?? PAGE_CSS_REFERENCE_LIMIT;
  if (!Number.isInteger(maxCssReferences) || (maxCssReferences as number) < 0) {
    throw new OptionError(`Expected \`maxCssReferences\` to be an integer >= 0, got ${describeValue(maxCssReferences)}`);
  }
  return Object.freeze({
    follow: new Set(follow as LinkKind[]),
    onReference: onReference as ExtractorConfig['onReference'],
    maxReferences,
    maxCssReferences: maxCssReferences as number,
  });
}

class PageLinkExtractor implements LinkExtractor, TagHandler {
  readonly #config: ExtractorConfig;
  readonly #reader: TagReader;
  readonly #references: LinkReference[] = [];
  #referenceCount = 0;
  readonly #anchors = new Set<string>();
  readonly #findings: PageFinding[] = [];
  #base: PageUrl | undefined;
  #canonical: PageUrl | undefined;
  #hasBodyStarted = false;
  #textHolderDepth = 0;
  /** The "<" of the `<style>` element whose text the reader captures. */
  #styleOffset = 0;
  #result: ExtractedLinks | undefined;

  constructor(config: ExtractorConfig) {
    this.#config = config;
    this.#reader = new TagReader(this, { attributes: READ_ATTRIBUTES });
  }

  write(chunk: string): void {
    if (this.#result === undefined) this.#reader.write(chunk);
  }

  end(chunk?: string): ExtractedLinks {
    if (this.#result === undefined) {
      if (chunk !== undefined) this.#reader.write(chunk);
      this.#reader.end();
      this.#result = {
        references: this.#references,
        referenceCount: this.#referenceCount,
        base: this.#base,
        canonical: this.#canonical,
        anchors: this.#anchors,
        findings: this.#findings,
      };
    }
    return this.#result;
  }

  onEndTag(name: string): void {
    if (this.#textHolderDepth > 0 && TEXT_HOLDERS.has(name)) this.#textHolderDepth--;
  }

  onText(hasContent: boolean): void {
    if (hasContent && this.#textHolderDepth === 0) this.#hasBodyStarted = true;
  }

  onCapturedText(_name: string, text: string, offset: number, isVerbatim: boolean): void {
    this.#addCss('style', '#text', text, this.#styleOffset, offset, isVerbatim);
  }

  onStartTag(name: string, attributes: ReadonlyMap<string, string>, offset: number, values: AttributeValues): void {
    if (!this.#hasBodyStarted && !HEAD_CONTENT.has(name)) this.#hasBodyStarted = true;
    if (TEXT_HOLDERS.has(name)) {
      this.#textHolderDepth++;
      if (name === 'style') {
        this.#styleOffset = offset;
        this.#reader.captureText();
      }
    }
    // Every attribute read below is one the tag reader was asked for (READ_ATTRIBUTES).
    if (attributes.size === 0) return;

    const id = attributes.get('id');
    if (id !== undefined && id !== '') this.#anchors.add(id);
    if (name === 'a') {
      const anchorName = attributes.get('name');
      if (anchorName !== undefined && anchorName !== '') this.#anchors.add(anchorName);
    }

    if (name === 'base') this.#onBase(attributes, offset);
    else if (name === 'meta') this.#onMeta(attributes, offset, values);

    const urlAttributes = URL_ATTRIBUTES.get(name);
    if (urlAttributes === undefined) {
      if (attributes.has('style')) this.#onStyleAttribute(name, attributes, offset, values);
      return;
    }
    const relValue = REL_ELEMENTS.has(name) ? attributes.get('rel') : undefined;
    const rel = relValue === undefined ? undefined : splitTokens(relValue);
    const hreflang = REL_ELEMENTS.has(name) ? attributes.get('hreflang') : undefined;
    if (name === 'link' && rel?.includes('canonical') === true) this.#onCanonical(attributes, offset);
    // Attributes in source order; of duplicates, the first was kept, as HTML keeps it.
    let index = -1;
    for (const [attribute, value] of attributes) {
      index++;
      if (attribute === 'style') {
        this.#addCss(name, attribute, value, offset, values.valueOffset(index), !values.hasCharacterReference(index));
        continue;
      }
      const spec = urlAttributes.get(attribute);
      if (spec === undefined) continue;
      const valueOffset = values.valueOffset(index);
      if (spec.isSrcset) {
        const isVerbatim = !values.hasCharacterReference(index);
        for (const candidate of parseSrcset(value)) {
          this.#add(name, attribute, candidate.url, spec.kind, offset, isVerbatim ? valueOffset + candidate.offset : valueOffset, rel, hreflang);
        }
      } else {
        this.#add(name, attribute, value, spec.kind, offset, valueOffset, rel, hreflang);
      }
    }
  }

  #onStyleAttribute(name: string, attributes: ReadonlyMap<string, string>, offset: number, values: AttributeValues): void {
    let index = 0;
    for (const [attribute, value] of attributes) {
      if (attribute === 'style') {
        this.#addCss(name, attribute, value, offset, values.valueOffset(index), !values.hasCharacterReference(index));
        return;
      }
      index++;
    }
  }

  /**
   * The references of CSS in the page (a style attribute's declarations, a `<style>` text):
   * kind `resource`, resolved against the page's base as the attributes are.
   */
  #addCss(element: string, attribute: string, css: string, offset: number, cssOffset: number, isVerbatim: boolean): void {
    // Every url(, src(, image-set( … holds a literal "(" (an escaped one would be part of a name).
    if (!css.includes('(')) return;
    scanCssReferences(
      css,
      this.#config.maxCssReferences,
      (reference: CssReference) =>
        this.#add(element, attribute, reference.url, 'resource', offset, isVerbatim ? cssOffset + reference.offset : cssOffset, undefined, undefined, reference.kind),
      (finding: CssFinding) => this.#findings.push({ code: finding.code, offset }),
    );
  }

  // HTML §4.2.3: the document base URL comes from the first base element with an href.
  #onBase(attributes: ReadonlyMap<string, string>, offset: number): void {
    const href = attributes.get('href');
    if (href === undefined) return;
    if (this.#hasBodyStarted) this.#findings.push({ code: 'HTML_BASE_IN_BODY', offset });
    if (this.#base !== undefined) {
      this.#findings.push({ code: 'HTML_BASE_REPEATED', offset });
      return;
    }
    // A relative href is the base chain's finding (BASE_HREF_RELATIVE, RFC 3986 §5.1.1), not recorded here too.
    this.#base = { raw: href, offset };
  }

  // HTML §4.2.5.3: <meta http-equiv=refresh> (the keyword is ASCII case-insensitive).
  #onMeta(attributes: ReadonlyMap<string, string>, offset: number, values: AttributeValues): void {
    const httpEquiv = attributes.get('http-equiv');
    const content = attributes.get('content');
    if (httpEquiv === undefined || content === undefined || asciiLowerCase(httpEquiv) !== 'refresh') return;
    const refresh = parseMetaRefresh(content);
    if (refresh === undefined) this.#findings.push({ code: 'HTML_REFRESH_INVALID', offset });
    else if (refresh.url !== undefined) {
      this.#add('meta', 'content', refresh.url, 'refresh', offset, values.valueOffset(indexOf(attributes, 'content')), undefined);
    }
  }

  #onCanonical(attributes: ReadonlyMap<string, string>, offset: number): void {
    const href = attributes.get('href');
    if (href === undefined) return;
    if (this.#canonical === undefined) this.#canonical = { raw: href, offset };
    else this.#findings.push({ code: 'HTML_CANONICAL_REPEATED', offset });
  }

  #add(
    element: string,
    attribute: string,
    raw: string,
    kind: LinkKind,
    offset: number,
    valueOffset: number,
    rel: readonly string[] | undefined,
    hreflang?: string,
    cssKind?: CssReferenceKind,
  ): void {
    if (this.#referenceCount++ >= this.#config.maxReferences) return;
    const isFollowed = this.#config.follow.has(kind);
    const reference: LinkReference =
      hreflang !== undefined
        ? { element, attribute, raw, kind, isFollowed, offset, valueOffset, ...(rel === undefined ? {} : { rel }), hreflang }
        : rel !== undefined
        ? { element, attribute, raw, kind, isFollowed, offset, valueOffset, rel }
        : cssKind !== undefined
          ? { element, attribute, raw, kind, isFollowed, offset, valueOffset, cssKind }
          : { element, attribute, raw, kind, isFollowed, offset, valueOffset };
    this.#references.push(reference);
    this.#config.onReference?.(reference);
  }
}

/** The position of `name` in the map's iteration order (the reader's attribute order), or -1. */
function indexOf(attributes: ReadonlyMap<string, string>, name: string): number {
  let index = 0;
  for (const key of attributes.keys()) {
    if (key === name) return index;
    index++;
  }
  return -1;
}
