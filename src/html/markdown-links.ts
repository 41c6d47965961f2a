// The links of a Markdown document (CommonMark 0.31 with the GitHub extensions of GFM),
// in the shape the HTML extractor gives (`ExtractedLinks`), so that a `.md` page is
// crawled, indexed and audited like an HTML one. Read with micromark's tokenizer (the
// parser under remark and mdast): its tokens place every destination exactly, so a
// reference's `valueOffset` is where the URL is written and `raw` is what the Markdown
// means by it (escapes and character references decoded, `<…>` dropped).
//
// What is a link, and how it is recorded (element and attribute as the HTML GitHub
// renders, so that the roles and kinds are the HTML ones):
// - `[text](dest)`, `<scheme:…>` and GFM's bare `https://…`, `www.…` (→ `http://`): `a href`;
//   e-mail autolinks (`<a@b.c>`, bare `a@b.c`) as `mailto:` (recorded, never fetched);
// - `![alt](src)`: `img src`, a resource;
// - `[text][label]`, `[label][]`, `[label]`: their definition `[label]: dest` is recorded
//   once, at the definition (where the URL is written and fixed), as `a href` — or as
//   `img src` when only images use it. A definition that nothing uses is recorded too
//   (remark-validate-links checks it as well): it is a URL the author wrote and keeps.
//   A reference to a label defined nowhere is text, as CommonMark says.
// - raw HTML, inline or as a block: read by the HTML extractor, offsets moved to the
//   Markdown's; its ids and `<a name>`s are anchors. `<base href>` is ignored, as
//   GitHub's sanitizer drops it: a Markdown page's base is its URL.
// - code spans, indented and fenced code: nothing.
// Anchors: each heading's GitHub slug (github-slugger, one per document, so a repeated
// heading gets `-1`, `-2` …), from the heading's text as GitHub renders it.
//
// Bounded on hostile input: micromark is linear but slow (bench/markdown-extract: about
// 1/30 of the HTML extractor's speed on the same documents rendered, 1/4 of marked's)
// and super-linear in container nesting on one line; so
// - only the first `maxLength` characters are read (`HTML_MARKDOWN_CAPPED` past it);
// - a line's container markers past `MAX_NESTING` (and past column `MAX_INDENT`) are
//   read as text (the copy micromark reads has the same length, so offsets hold);
// - the document is parsed a piece at a time (`MarkdownExtractor#step`), cut where a
//   blank line is followed by a line at column 0, which closes every block but an open
//   fence or an HTML block of kinds 1–5: those are read to their end by hand. A piece
//   with no such cut for `MAX_PIECE` characters is cut at a line start (a construct
//   spanning that line break may then be misread: only in such text).

import { parse, postprocess, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { decodeString } from 'micromark-util-decode-string';
import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import type { Event, Token, TokenizeContext } from 'micromark-util-types';
import GithubSlugger from 'github-slugger';
import { OptionError, describeValue } from '../errors.js';
import { lastAtOrBefore } from './line-index.js';
import { extractLinks, type ExtractedLinks, type LinkReference, type PageFinding } from './link-extractor.js';
import { DEFAULT_FOLLOW, LINK_KINDS, isLinkKind, type LinkKind } from './url-attributes.js';

export interface MarkdownLinkOptions {
  /** The kinds followed (`navigation` for links, `resource` for images …). @default ['navigation', 'frame', 'refresh'] */
  readonly follow?: readonly LinkKind[];
  /** References kept; later ones are only counted. @default Infinity */
  readonly maxReferences?: number;
  /**
   * Characters of the document read; past it, `HTML_MARKDOWN_CAPPED`. Markdown parsing
   * costs far more than HTML's: this bounds the time one page takes.
   * @default 1048576 (1 MiB)
   */
  readonly maxLength?: number;
}

/** The default of `maxLength`. */
export const MARKDOWN_MAX_LENGTH = 1024 * 1024;
/** Container markers (`>`, list markers) read on one line; those past it are text. */
const MAX_NESTING = 32;
/** The column past which a line's container markers are text. */
const MAX_INDENT = 256;
/** How much one `step()` parses, at least (UTF-16 code units), and at most without a clean cut. */
const PIECE = 8 * 1024;
const MAX_PIECE = 16 * 1024;

/** The links, anchors and findings of a whole Markdown document at once. */
export function extractMarkdownLinks(markdown: string, options: MarkdownLinkOptions = {}): ExtractedLinks {
  const extractor = createMarkdownExtractor(markdown, options);
  while (!extractor.step());
  return extractor.end();
}

/** A Markdown document read a piece at a time: `step()` until it returns true, then `end()`. */
export interface MarkdownExtractor {
  /** Parse the next piece; true once the whole document is read. */
  step(): boolean;
  /** What was found (reads what is left first). */
  end(): ExtractedLinks;
}

/** Throws `OptionError` for bad options, never for any text. */
export function createMarkdownExtractor(markdown: string, options: MarkdownLinkOptions = {}): MarkdownExtractor {
  return new PieceReader(String(markdown), validateOptions(options));
}

interface Config {
  readonly follow: ReadonlySet<LinkKind>;
  readonly maxReferences: number;
  readonly maxLength: number;
}

function validateOptions(options: MarkdownLinkOptions): Config {
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const follow: unknown = options.follow ?? DEFAULT_FOLLOW;
  if (!Array.isArray(follow) || !follow.every(isLinkKind)) {
    throw new OptionError(`Expected \`follow\` to be an array of ${LINK_KINDS.join(', ')}, got ${describeValue(follow)}`);
  }
  const maxReferences: unknown = options.maxReferences ?? Infinity;
  if (typeof maxReferences !== 'number' || !(maxReferences === Infinity || (Number.isInteger(maxReferences) && maxReferences >= 0))) {
    throw new OptionError(`Expected \`maxReferences\` to be an integer >= 0 or Infinity, got ${describeValue(maxReferences)}`);
  }
  const maxLength: unknown = options.maxLength ?? MARKDOWN_MAX_LENGTH;
  if (typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength < 0) {
    throw new OptionError(`Expected \`maxLength\` to be an integer >= 0, got ${describeValue(maxLength)}`);
  }
  return Object.freeze({ follow: new Set(follow as LinkKind[]), maxReferences, maxLength });
}

/** A definition `[label]: dest` and how the document uses it. */
interface Definition {
  readonly raw: string;
  readonly offset: number;
  readonly valueOffset: number;
  isUsedByLink: boolean;
  isUsedByImage: boolean;
}

interface Found {
  readonly element: 'a' | 'img';
  readonly raw: string;
  readonly offset: number;
  readonly valueOffset: number;
}

/** Tokens whose text is not part of a heading's rendered text (GitHub's slug source). */
const HIDDEN_IN_HEADING: ReadonlySet<string> = new Set(['image', 'resource', 'reference', 'htmlText']);

/** CommonMark §4.6 HTML blocks of kinds 1–5, which blank lines do not end: their end marker. */
function htmlBlockEnd(text: string): RegExp | undefined {
  const start = /^[ \t]*<(?:(script|pre|style|textarea)(?=[\s>]|$)|(!--)|(\?)|(!\[CDATA\[)|(![A-Za-z]))/i.exec(text);
  if (start === null) return undefined;
  if (start[1] !== undefined) return /<\/(?:script|pre|style|textarea)>/i;
  if (start[2] !== undefined) return /-->/;
  if (start[3] !== undefined) return /\?>/;
  if (start[4] !== undefined) return /\]\]>/;
  return />/;
}

class PieceReader implements MarkdownExtractor {
  readonly #config: Config;
  /** The text micromark reads: the document up to `maxLength`, deep container markers made text. */
  readonly #text: string;
  readonly #defined: { includes(id: string): boolean; push(id: string): void };
  readonly #definitions = new Map<string, Definition>();
  readonly #found: Found[] = [];
  readonly #html: LinkReference[] = [];
  readonly #anchors = new Set<string>();
  readonly #findings: PageFinding[] = [];
  readonly #slugger = new GithubSlugger();
  #pos = 0;
  #result: ExtractedLinks | undefined;

  constructor(markdown: string, config: Config) {
    this.#config = config;
    const text = markdown.length > config.maxLength ? markdown.slice(0, config.maxLength) : markdown;
    if (text.length < markdown.length) this.#findings.push({ code: 'HTML_MARKDOWN_CAPPED', offset: text.length });
    this.#text = flattenDeepContainers(text);
    // A reference is a link only when its label is defined somewhere in the document,
    // later pieces included: micromark asks `defined` while it parses a piece, so it
    // gets every label that looks defined (a superset; one defined nowhere is dropped
    // when references are resolved). A Set, not micromark's array: `includes` is asked per label.
    const labels = new Set<string>();
    // CommonMark §4.7: a label holds at most 999 characters (so no line start scans further).
    for (const match of this.#text.matchAll(/^[ \t>*+\-0-9.)]*\[((?:[^[\]\\]|\\[^]){1,999}?)\]:/gm)) labels.add(normalizeIdentifier(match[1]!));
    this.#defined = { includes: (id) => labels.has(id), push: (id) => labels.add(id) };
  }

  step(): boolean {
    if (this.#result !== undefined) return true;
    const text = this.#text;
    if (this.#pos >= text.length) return true;
    const start = this.#pos;
    const end = cutAfter(text, start + PIECE);
    const events = this.#parse(start, end);
    const open = end < text.length ? lastOpenBlock(events) : undefined;
    this.#read(events, open?.start ?? end);
    if (open === undefined) {
      this.#pos = end;
    } else {
      // An open fence or HTML block runs past the cut: read it to its own end line, then go on.
      const closing = open.kind === 'fence' ? fenceEnd(text, open.start, open.fence!) : htmlEnd(text, open.start, open.marker!);
      if (open.kind === 'html') this.#readHtml([{ from: open.start, to: closing }]);
      this.#pos = closing;
    }
    return this.#pos >= text.length;
  }

  end(): ExtractedLinks {
    while (!this.step());
    if (this.#result !== undefined) return this.#result;
    const follow = this.#config.follow;
    const all: LinkReference[] = [...this.#html];
    const make = (element: 'a' | 'img', raw: string, offset: number, valueOffset: number): LinkReference => {
      const kind: LinkKind = element === 'img' ? 'resource' : 'navigation';
      return { element, attribute: element === 'img' ? 'src' : 'href', raw, kind, isFollowed: follow.has(kind), offset, valueOffset };
    };
    for (const found of this.#found) all.push(make(found.element, found.raw, found.offset, found.valueOffset));
    for (const definition of this.#definitions.values()) {
      const element = definition.isUsedByImage && !definition.isUsedByLink ? 'img' : 'a';
      all.push(make(element, definition.raw, definition.offset, definition.valueOffset));
    }
    all.sort((a, b) => a.offset - b.offset || a.valueOffset - b.valueOffset);
    const references = all.length > this.#config.maxReferences ? all.slice(0, this.#config.maxReferences) : all;
    this.#findings.sort((a, b) => a.offset - b.offset);
    this.#result = {
      references,
      referenceCount: all.length,
      base: undefined,
      canonical: undefined,
      anchors: this.#anchors,
      findings: this.#findings,
    };
    return this.#result;
  }

  #parse(start: number, end: number): Event[] {
    const parser = parse({ extensions: [gfm()] });
    (parser as { defined: unknown }).defined = this.#defined;
    const chunks = preprocess()(this.#text.slice(start, end), undefined, true);
    // preprocess drops a byte order mark that starts its text: the offsets start after it.
    const offset = this.#text.charCodeAt(start) === 0xfeff ? start + 1 : start;
    return postprocess(parser.document({ line: 1, column: 1, offset }).write(chunks));
  }

  /** The links, headings and HTML of the events of one piece, up to (not including) offset `limit`. */
  #read(events: readonly Event[], limit: number): void {
    let heading: { parts: string[]; hidden: number } | undefined;
    let html: { from: number; to: number }[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const [phase, token, context] = events[i]!;
      const type = token.type as string;
      if (token.start.offset >= limit) break;
      if (phase === 'exit') {
        if (heading !== undefined) {
          if (type === 'atxHeadingText' || type === 'setextHeadingText') {
            this.#anchors.add(this.#slugger.slug(heading.parts.join('')));
            heading = undefined;
          } else if (HIDDEN_IN_HEADING.has(type)) heading.hidden--;
        }
        if ((type === 'htmlFlow' || type === 'htmlText') && html !== undefined) {
          this.#readHtml(html);
          html = undefined;
        }
        continue;
      }
      if (html !== undefined) {
        if (type === 'htmlFlowData' || type === 'htmlTextData' || type === 'lineEnding') html.push({ from: token.start.offset, to: token.end.offset });
        continue;
      }
      if (heading !== undefined) {
        if (HIDDEN_IN_HEADING.has(type)) heading.hidden++;
        else if (heading.hidden === 0) {
          const text = headingText(type, token, context);
          if (text !== undefined) heading.parts.push(text);
        }
      }
      switch (type) {
        case 'atxHeadingText':
        case 'setextHeadingText':
          heading = { parts: [], hidden: 0 };
          break;
        case 'htmlFlow':
        case 'htmlText':
          html = [];
          break;
        case 'link':
        case 'image':
          this.#onLink(events, i, type === 'image' ? 'img' : 'a');
          break;
        case 'definition':
          this.#onDefinition(events, i);
          break;
        case 'autolinkProtocol':
          this.#found.push({ element: 'a', raw: context.sliceSerialize(token), offset: token.start.offset - 1, valueOffset: token.start.offset });
          break;
        case 'autolinkEmail':
          this.#found.push({ element: 'a', raw: `mailto:${context.sliceSerialize(token)}`, offset: token.start.offset - 1, valueOffset: token.start.offset });
          break;
        case 'literalAutolinkHttp':
        case 'literalAutolinkWww':
        case 'literalAutolinkEmail': {
          const value = context.sliceSerialize(token);
          // GFM autolink literal: `www.` links are `http://`, bare addresses `mailto:`.
          const raw = type === 'literalAutolinkWww' ? `http://${value}` : type === 'literalAutolinkEmail' ? `mailto:${value}` : value;
          this.#found.push({ element: 'a', raw, offset: token.start.offset, valueOffset: token.start.offset });
          break;
        }
        default:
      }
    }
    // A heading cut by `limit` (it cannot be: limit is the start of a block) or by the piece's end.
    if (heading !== undefined) this.#anchors.add(this.#slugger.slug(heading.parts.join('')));
    if (html !== undefined) this.#readHtml(html);
  }

  /** A link or image (`events[at]` enters it): its destination, or its definition's use. */
  #onLink(events: readonly Event[], at: number, element: 'a' | 'img'): void {
    const link = events[at]![1];
    let labelText: string | undefined;
    let referenceString: string | undefined;
    let resourceStart: number | undefined;
    for (let i = at + 1; i < events.length; i++) {
      const [phase, token, context] = events[i]!;
      if (token === link) break;
      if (phase === 'exit') continue;
      const type = token.type as string;
      if (type === 'labelText') {
        labelText = context.sliceSerialize(token);
        // What the label holds (an image of a linked image …) is read by the caller's loop.
        while (i + 1 < events.length && events[i + 1]![1] !== token) i++;
      } else if (type === 'referenceString') referenceString = context.sliceSerialize(token);
      else if (type === 'resource') resourceStart = token.start.offset;
      else if (type === 'resourceDestinationString') {
        this.#found.push({ element, raw: decodeString(context.sliceSerialize(token)), offset: link.start.offset, valueOffset: token.start.offset });
        return;
      }
    }
    if (resourceStart !== undefined) {
      // `[a]()` or `[a](<>)`: an empty reference, the document itself (as `href=""`).
      this.#found.push({ element, raw: '', offset: link.start.offset, valueOffset: resourceStart + 1 });
      return;
    }
    const label = referenceString ?? labelText;
    if (label === undefined) return;
    const id = normalizeIdentifier(label);
    const use = this.#definitions.get(id);
    if (use !== undefined) {
      if (element === 'img') use.isUsedByImage = true;
      else use.isUsedByLink = true;
    } else {
      // Defined later in the document: remember the use until the definition is read.
      this.#pendingUses.set(id, (this.#pendingUses.get(id) ?? 0) | (element === 'img' ? 2 : 1));
    }
  }

  readonly #pendingUses = new Map<string, number>();

  #onDefinition(events: readonly Event[], at: number): void {
    const definition = events[at]![1];
    let label: string | undefined;
    let destination: { raw: string; offset: number } | undefined;
    let destinationStart: number | undefined;
    for (let i = at + 1; i < events.length; i++) {
      const [phase, token, context] = events[i]!;
      if (token === definition) break;
      if (phase === 'exit') continue;
      const type = token.type as string;
      if (type === 'definitionLabelString') label = context.sliceSerialize(token);
      else if (type === 'definitionDestination') destinationStart = token.start.offset;
      else if (type === 'definitionDestinationString') destination = { raw: decodeString(context.sliceSerialize(token)), offset: token.start.offset };
    }
    if (label === undefined) return;
    const id = normalizeIdentifier(label);
    // CommonMark §4.7: the first definition of a label wins.
    if (this.#definitions.has(id)) return;
    // `[a]: <>`: an empty destination.
    destination ??= { raw: '', offset: destinationStart === undefined ? definition.start.offset : destinationStart + 1 };
    const uses = this.#pendingUses.get(id) ?? 0;
    this.#pendingUses.delete(id);
    this.#definitions.set(id, {
      raw: destination.raw,
      offset: definition.start.offset,
      valueOffset: destination.offset,
      isUsedByLink: (uses & 1) !== 0,
      isUsedByImage: (uses & 2) !== 0,
    });
  }

  /** Raw HTML (the spans of one HTML token, container prefixes left out) read by the HTML extractor. */
  #readHtml(spans: readonly { from: number; to: number }[]): void {
    const text = spans.map((span) => this.#text.slice(span.from, span.to)).join('');
    if (!text.includes('<')) return;
    const starts: number[] = [];
    let length = 0;
    for (const span of spans) {
      starts.push(length);
      length += span.to - span.from;
    }
    const toSource = (at: number): number => {
      const span = lastAtOrBefore(starts, at);
      return spans[span]!.from + (at - starts[span]!);
    };
    const extracted = extractLinks(text, { follow: [...this.#config.follow] });
    for (const reference of extracted.references) {
      // GitHub drops <base> from rendered Markdown: the page's base stays its URL.
      this.#html.push({ ...reference, offset: toSource(reference.offset), valueOffset: toSource(reference.valueOffset) });
    }
    for (const anchor of extracted.anchors) this.#anchors.add(anchor);
    for (const finding of extracted.findings) {
      if (!finding.code.startsWith('HTML_BASE_')) this.#findings.push({ code: finding.code, offset: toSource(finding.offset) });
    }
  }
}

/** The text a heading token adds to the heading's rendered text, or `undefined`. */
function headingText(type: string, token: Token, context: TokenizeContext): string | undefined {
  switch (type) {
    case 'data':
    case 'codeTextData':
    case 'characterEscapeValue':
    case 'autolinkProtocol':
    case 'autolinkEmail':
    case 'literalAutolinkHttp':
    case 'literalAutolinkWww':
    case 'literalAutolinkEmail':
      return context.sliceSerialize(token);
    case 'characterReference':
      return decodeString(context.sliceSerialize(token));
    case 'lineEnding':
      return '\n';
    default:
      return undefined;
  }
}

/** Top-level tokens that are no block. */
const SPACE_TOKENS: ReadonlySet<string> = new Set(['lineEnding', 'lineEndingBlank', 'linePrefix', 'whitespace']);

/** An open block at a piece's end that a blank line does not close. */
interface OpenBlock {
  readonly kind: 'fence' | 'html';
  readonly start: number;
  /** The opening fence's character and length. */
  readonly fence?: { readonly char: string; readonly length: number };
  readonly marker?: RegExp;
}

/** The piece's last top-level block when it is a fence without a closing one or an unended HTML block of kinds 1–5. */
function lastOpenBlock(events: readonly Event[]): OpenBlock | undefined {
  let depth = 0;
  let last: Event | undefined;
  let lastIndex = -1;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event[0] === 'enter') {
      if (depth === 0 && !SPACE_TOKENS.has(event[1].type)) {
        last = event;
        lastIndex = i;
      }
      depth++;
    } else depth--;
  }
  if (last === undefined) return undefined;
  const [, token, context] = last;
  if (token.type === 'codeFenced') {
    let fences = 0;
    let fence: OpenBlock['fence'];
    for (let i = lastIndex + 1; i < events.length && events[i]![1] !== token; i++) {
      const [phase, child, childContext] = events[i]!;
      if (phase === 'enter' && child.type === 'codeFencedFence') fences++;
      if (phase === 'enter' && child.type === 'codeFencedFenceSequence' && fence === undefined) {
        const sequence = childContext.sliceSerialize(child);
        fence = { char: sequence[0]!, length: sequence.length };
      }
    }
    return fences < 2 && fence !== undefined ? { kind: 'fence', start: token.start.offset, fence } : undefined;
  }
  if (token.type === 'htmlFlow') {
    const text = context.sliceSerialize(token);
    const marker = htmlBlockEnd(text);
    if (marker === undefined) return undefined;
    // The end condition holds on the line where the block starts, after its opening, too.
    const opening = /^[ \t]*<(?:[A-Za-z]+|!--|\?|!\[CDATA\[|!)/.exec(text)![0].length;
    return marker.test(text.slice(opening)) ? undefined : { kind: 'html', start: token.start.offset, marker };
  }
  return undefined;
}

/** The start of the line after the fence that closes the one opened at `start` (or the text's end). */
function fenceEnd(text: string, start: number, fence: { char: string; length: number }): number {
  const closing = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  let at = lineAfter(text, start);
  while (at < text.length) {
    const next = lineAfter(text, at);
    if (closing.test(lineText(text, at, next))) return next;
    at = next;
  }
  return text.length;
}

/** The start of the line after the line at or after `start` that holds `marker` (or the text's end). */
function htmlEnd(text: string, start: number, marker: RegExp): number {
  const opening = /^[ \t]*<(?:[A-Za-z]+|!--|\?|!\[CDATA\[|!)/.exec(text.slice(start, start + 64))?.[0].length ?? 1;
  const global = new RegExp(marker.source, marker.flags.includes('g') ? marker.flags : `${marker.flags}g`);
  global.lastIndex = start + opening;
  const found = global.exec(text);
  return found === null ? text.length : lineAfter(text, found.index);
}

/** The start of the line after the one holding `at`. */
function lineAfter(text: string, at: number): number {
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return i + 1;
    if (c === 0x0d) return text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
  }
  return text.length;
}

/** The line from `at` to `next` without its line ending. */
function lineText(text: string, at: number, next: number): string {
  let end = next;
  while (end > at && (text.charCodeAt(end - 1) === 0x0a || text.charCodeAt(end - 1) === 0x0d)) end--;
  return text.slice(at, end);
}

/**
 * Where the piece that starts before `from` ends: the start of the first line at or
 * after `from` that begins at column 0 with a character that is not white space and
 * follows a blank line (every block but a fence or an HTML block of kinds 1–5 is closed
 * there); else, past `MAX_PIECE`, any line start; else the text's end.
 */
function cutAfter(text: string, from: number): number {
  if (from >= text.length) return text.length;
  const limit = from + (MAX_PIECE - PIECE);
  const blank = /(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)(?=[^ \t\r\n])/g;
  const begin = Math.max(0, from - 1);
  // Searched in the window only: a text without blank lines costs no rescan per piece.
  const found = blank.exec(text.slice(begin, limit + 1));
  if (found !== null && begin + found.index + found[0].length <= limit) return begin + found.index + found[0].length;
  if (limit >= text.length) return text.length;
  // No clean cut: a line start, else a space or tab, else any character (a long line of hostile text).
  const window = text.slice(limit, limit + PIECE);
  const line = window.indexOf('\n');
  if (line !== -1) return limit + line + 1;
  const space = window.search(/[ \t]/);
  if (space !== -1) return limit + space + 1;
  const code = text.charCodeAt(limit);
  return code >= 0xdc00 && code <= 0xdfff ? limit + 1 : limit;
}

/**
 * The text with the container markers of deep lines made `x`: a marker past
 * `MAX_NESTING` on one line, or past column `MAX_INDENT`, opens no container (micromark
 * pays for each level on each line). Same length and line breaks: offsets hold.
 */
function flattenDeepContainers(text: string): string {
  const deep = /^[ \t>*+\-0-9.)]{64,}/gm;
  if (!deep.test(text)) return text;
  deep.lastIndex = 0;
  const parts: string[] = [];
  let copied = 0;
  for (const match of text.matchAll(deep)) {
    const start = match.index;
    const prefix = match[0];
    let column = 0;
    let depth = 0;
    for (let i = 0; i < prefix.length; i++) {
      const c = prefix[i]!;
      if (c === ' ') {
        column++;
        continue;
      }
      if (c === '\t') {
        column += 4 - (column % 4);
        continue;
      }
      let width = 0;
      if (c === '>') width = 1;
      else if (c === '-' || c === '+' || c === '*') width = 1;
      else if (c >= '0' && c <= '9') {
        while (width < 9 && /[0-9]/.test(prefix[i + width] ?? '')) width++;
        if (prefix[i + width] === '.' || prefix[i + width] === ')') width++;
        else break;
      } else break;
      depth++;
      if (depth > MAX_NESTING || column > MAX_INDENT) {
        parts.push(text.slice(copied, start + i), 'x'.repeat(width));
        copied = start + i + width;
        break;
      }
      column += width;
      i += width - 1;
    }
  }
  parts.push(text.slice(copied));
  return parts.join('');
}
