// Start tags, end tags and text out of htmlparser2's Tokenizer, without its Parser.
//
// Why not the Parser: it keeps a stack of open elements with `Array#unshift` and looks
// end tags up in it, so a page with 100 000 unclosed elements costs quadratic time
// (a 2 MB page took 45 s). Link extraction needs no tree: whole start tags with their
// attributes, and a few counters. The Tokenizer is linear, handles the raw-text
// elements (script, style, title, textarea, xmp, iframe, noembed, noframes, plaintext)
// and decodes character references with HTML's attribute rules.
//
// What a tree builder would add and we keep by hand, each in O(1) per tag:
// - the foreign-content flag the Tokenizer asks for (in <svg>/<math>, <style> or <title>
//   is not raw text), from a small stack of svg/math/integration-point elements;
// - HTML "in body" rules that change which start tags exist: `<image>` is `<img>`
//   outside foreign content, and a `<form>` inside an open form is dropped (with its
//   attributes) because the form element pointer is set.

//
// The cost per tag is kept to what the handler reads: names the reader knows (every
// HTML element, the attributes asked for) are found in the text without cutting them
// out (name-table.ts), attributes the handler did not ask for are skipped unread, and
// one attribute map is reused from tag to tag.
//
// Source positions: each attribute value's first character (UTF-16 index in the whole
// document) is kept beside its value, from the Tokenizer's indices; a handler can also
// ask for the whole text of the element just opened (`captureText`, for `<style>`).

import { Tokenizer, type TokenizerCallbacks, QuoteType } from 'htmlparser2';
import { NameTable } from './name-table.js';

/** What the reader reports. Names are lower-cased; attributes keep the first of duplicates. */
export interface TagHandler {
  /**
   * `offset` is the UTF-16 index of the tag's "<" in the whole document. `attributes`
   * is the reader's own map, refilled for the next tag: read it during the call.
   * `values` places each attribute's value in the source, by its index in `attributes`
   * (iteration order): read it during the call too.
   */
  onStartTag(name: string, attributes: ReadonlyMap<string, string>, offset: number, values: AttributeValues): void;
  onEndTag(name: string): void;
  /** Called for every piece of text, with whether it holds anything but ASCII whitespace. */
  onText(hasContent: boolean): void;
  /**
   * The text of an element whose start tag asked for it (`TagReader#captureText`), once its
   * end tag (or the end of the document) is reached; not called for an element without text.
   * `offset` is the UTF-16 index of the text's first character; `isVerbatim` is false when
   * character references were decoded in it (only outside raw-text elements, e.g. an SVG
   * `<style>`), so that an index in `text` is no longer `offset` + that index in the source.
   */
  onCapturedText?(name: string, text: string, offset: number, isVerbatim: boolean): void;
}

/** Where the values of the current start tag's attributes are written. */
export interface AttributeValues {
  /**
   * UTF-16 index, in the whole document, of the first character of the value of the
   * `index`-th attribute (after its quote); for an attribute without a value, the end of its name.
   */
  valueOffset(index: number): number;
  /** Whether character references were decoded in that value: then `valueOffset` + i is not the source of character i. */
  hasCharacterReference(index: number): boolean;
}

/** Where HTML content is HTML again inside SVG and MathML (HTML §13.2.6.5 "HTML integration point"). */
const INTEGRATION_POINTS: ReadonlySet<string> = new Set([
  'foreignobject',
  'desc',
  'title',
  'annotation-xml',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
]);

const REPLACEMENT_CHARACTER = '\uFFFD';

const EQUALS_SIGN = 0x3d;
const QUOTATION_MARK = 0x22;
const APOSTROPHE = 0x27;

/** The HTML elements (HTML §4) and the SVG and MathML ones it names, which most tags are. */
const ELEMENT_NAMES = new NameTable([
  ...'a abbr address area article aside audio b base basefont bdi bdo bgsound big blink blockquote body br button canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins kbd keygen label legend li link listing main map mark marquee menu meta meter nav nobr noembed noframes noscript object ol optgroup option output p param picture plaintext pre progress q rb rp rt rtc ruby s samp script search section select slot small source span strike strong style sub summary sup table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr xmp'.split(' '),
  ...'svg math foreignobject desc annotation-xml mi mo mn ms mtext'.split(' '),
]);

export interface TagReaderOptions {
  /**
   * The attribute names to report; the others are skipped unread. Build the table once, not per page.
   * @default undefined (every attribute)
   */
  readonly attributes?: NameTable;
}

/** A chunk queue that hands out slices by absolute index and forgets what lies behind. */
class ChunkQueue {
  readonly #chunks: string[] = [];
  #head = 0;
  /** Absolute index of the first code unit of #chunks[#head]. */
  #headOffset = 0;

  push(chunk: string): void {
    this.#chunks.push(chunk);
  }

  /** Forget every chunk that ends at or before `index`. */
  release(index: number): void {
    while (this.#head < this.#chunks.length && index - this.#headOffset >= this.#chunks[this.#head]!.length) {
      this.#headOffset += this.#chunks[this.#head]!.length;
      this.#chunks[this.#head] = '';
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#chunks.length) {
      this.#chunks.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /**
   * Release everything before `start`; then, if one chunk holds all of `start` to `end`,
   * return the index of `start` in it (the chunk is `head`), else -1.
   */
  locate(start: number, end: number): number {
    this.release(start);
    const head = this.#chunks[this.#head];
    return head !== undefined && end - this.#headOffset <= head.length ? start - this.#headOffset : -1;
  }

  /** The chunk that `locate` found. */
  get head(): string {
    return this.#chunks[this.#head]!;
  }

  /** The code unit at absolute index `index`, or NaN past the text; everything before `index` is released. */
  charCodeAt(index: number): number {
    this.release(index);
    const head = this.#chunks[this.#head];
    return head === undefined ? Number.NaN : head.charCodeAt(index - this.#headOffset);
  }

  /** The text from absolute index `start` to `end`; everything before `start` is released. */
  slice(start: number, end: number): string {
    if (start >= end) return '';
    this.release(start);
    let i = this.#head;
    let offset = this.#headOffset;
    let text = this.#chunks[i]!.slice(start - offset, end - offset);
    while (end - offset > this.#chunks[i]!.length && i + 1 < this.#chunks.length) {
      offset += this.#chunks[i]!.length;
      i++;
      text += this.#chunks[i]!.slice(0, end - offset);
    }
    return text;
  }
}

/** Feeds htmlparser2's Tokenizer and turns its index-based callbacks into tags and text. */
export class TagReader implements TokenizerCallbacks, AttributeValues {
  readonly #handler: TagHandler;
  readonly #tokenizer: Tokenizer;
  readonly #chunks = new ChunkQueue();
  /** The attributes reported, or `undefined` for all. */
  readonly #wantedAttributes: NameTable | undefined;
  /** The open svg, math and integration-point elements, innermost last. */
  readonly #contexts: string[] = [];
  /** Whether the innermost of #contexts is svg or math, asked by the Tokenizer at every tag. */
  #isForeign = false;
  #isFormOpen = false;
  #tagName = '';
  #tagOffset = 0;
  readonly #attributes = new Map<string, string>();
  /** The attribute being read, or `undefined` when it is skipped. */
  #attributeName: string | undefined;
  #attributeValue = '';
  /** Where the name of the attribute being read ends, and its value starts (-1 until known). */
  #attributeNameEnd = 0;
  #attributeValueStart = -1;
  #hasAttributeEntity = false;
  /**
   * Per attribute of #attributes, in its order: where its value starts, as `start`, or as
   * `-1 - start` when character references were decoded in it. Written in place up to
   * #valueCount and never truncated (setting an array's length is a slow path in V8).
   */
  readonly #valueStarts: number[] = [];
  #valueCount = 0;
  #isSelfClosing = false;
  /** The name the current start tag was reported with (`image` may become `img`). */
  #emittedName = '';
  /** The element whose text is captured, or `undefined`. */
  #captureName: string | undefined;
  #captureText = '';
  #captureStart = -1;
  #isCaptureVerbatim = true;

  constructor(handler: TagHandler, options: TagReaderOptions = {}) {
    this.#handler = handler;
    this.#wantedAttributes = options.attributes;
    this.#tokenizer = new Tokenizer({ decodeEntities: true }, this);
  }

  write(chunk: string): void {
    this.#chunks.push(chunk);
    this.#tokenizer.write(chunk);
  }

  end(): void {
    this.#tokenizer.end();
  }

  isInForeignContext(): boolean {
    return this.#isForeign;
  }

  onopentagname(start: number, endIndex: number): void {
    this.#tagName = this.#elementName(start, endIndex);
    this.#tagOffset = start - 1; // the "<"
    // Map#clear allocates a new table even when the map is empty.
    if (this.#attributes.size > 0) {
      this.#attributes.clear();
      this.#valueCount = 0;
    }
  }

  onattribname(start: number, endIndex: number): void {
    const wanted = this.#wantedAttributes;
    if (wanted === undefined) {
      this.#attributeName = this.#chunks.slice(start, endIndex).toLowerCase();
    } else {
      const at = this.#chunks.locate(start, endIndex);
      this.#attributeName =
        at === -1
          ? wanted.get(this.#chunks.slice(start, endIndex).toLowerCase())
          : wanted.find(this.#chunks.head, at, at + endIndex - start);
    }
    this.#attributeValue = '';
    this.#attributeNameEnd = endIndex;
    this.#attributeValueStart = -1;
    this.#hasAttributeEntity = false;
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.#attributeName !== undefined) {
      if (this.#attributeValueStart < 0) this.#attributeValueStart = start;
      this.#attributeValue += this.#chunks.slice(start, endIndex);
    }
  }

  onattribentity(codepoint: number): void {
    if (this.#attributeName !== undefined) {
      if (this.#attributeValueStart < 0) this.#attributeValueStart = this.#valueStartAfterName();
      this.#hasAttributeEntity = true;
      this.#attributeValue += codepoint > 0x10ffff ? REPLACEMENT_CHARACTER : String.fromCodePoint(codepoint);
    }
  }

  onattribend(_quote: QuoteType, endIndex: number): void {
    const name = this.#attributeName;
    if (name !== undefined && !this.#attributes.has(name)) {
      this.#attributes.set(name, this.#attributeValue);
      // No value at all (`<img src>`): `endIndex` is the end of the name.
      const start = this.#attributeValueStart < 0 ? endIndex : this.#attributeValueStart;
      this.#valueStarts[this.#valueCount++] = this.#hasAttributeEntity ? -1 - start : start;
    }
    this.#attributeValue = '';
    this.#chunks.release(endIndex);
  }

  valueOffset(index: number): number {
    const start = index < this.#valueCount ? this.#valueStarts[index]! : 0;
    return start < 0 ? -1 - start : start;
  }

  hasCharacterReference(index: number): boolean {
    return index < this.#valueCount && this.#valueStarts[index]! < 0;
  }

  /**
   * Called by the handler during `onStartTag`: hand over the text of the element just
   * opened, up to its end tag, with `onCapturedText`. Ignored for a self-closing tag (the
   * Tokenizer closes it: even `<style/>` opens no raw text there) and while another
   * element's text is captured.
   */
  captureText(): void {
    if (this.#captureName !== undefined || this.#isSelfClosing) return;
    this.#captureName = this.#emittedName;
    this.#captureText = '';
    this.#captureStart = -1;
    this.#isCaptureVerbatim = true;
  }

  onopentagend(endIndex: number): void {
    this.#emitStartTag(false);
    this.#chunks.release(endIndex);
  }

  onselfclosingtag(endIndex: number): void {
    this.#emitStartTag(true);
    this.#chunks.release(endIndex);
  }

  onclosetag(start: number, endIndex: number): void {
    const name = this.#elementName(start, endIndex);
    if (name === this.#captureName) this.#endCapture();
    if (name === 'form') this.#isFormOpen = false;
    const contexts = this.#contexts;
    if (contexts.length > 0 && contexts[contexts.length - 1] === name) {
      contexts.pop();
      this.#updateForeign();
    }
    this.#handler.onEndTag(name);
  }

  ontext(start: number, endIndex: number): void {
    if (this.#captureName !== undefined) {
      if (this.#captureStart < 0) this.#captureStart = start;
      this.#captureText += this.#chunks.slice(start, endIndex);
    }
    const at = this.#chunks.locate(start, endIndex);
    this.#handler.onText(
      at === -1 ? hasContent(this.#chunks.slice(start, endIndex), 0, endIndex - start) : hasContent(this.#chunks.head, at, at + endIndex - start),
    );
  }

  ontextentity(codepoint: number, endIndex: number): void {
    if (this.#captureName !== undefined) {
      // Not a raw-text element (foreign content): the reference's source is longer than its
      // character, so offsets in the text are approximate from here on (`isVerbatim` false).
      if (this.#captureStart < 0) this.#captureStart = endIndex - 1;
      this.#captureText += codepoint > 0x10ffff ? REPLACEMENT_CHARACTER : String.fromCodePoint(codepoint);
      this.#isCaptureVerbatim = false;
    }
    // Only whitespace references (&#32;, &Tab;, …) leave text without content.
    this.#handler.onText(!(codepoint === 0x20 || codepoint === 0x09 || codepoint === 0x0a || codepoint === 0x0c || codepoint === 0x0d));
    this.#chunks.release(endIndex);
  }

  oncomment(_start: number, endIndex: number): void {
    this.#chunks.release(endIndex);
  }

  oncdata(_start: number, endIndex: number): void {
    this.#chunks.release(endIndex);
  }

  ondeclaration(_start: number, endIndex: number): void {
    this.#chunks.release(endIndex);
  }

  onprocessinginstruction(_start: number, endIndex: number): void {
    this.#chunks.release(endIndex);
  }

  onend(): void {
    if (this.#captureName !== undefined) this.#endCapture();
  }

  #endCapture(): void {
    const name = this.#captureName!;
    this.#captureName = undefined;
    if (this.#captureStart >= 0) {
      this.#handler.onCapturedText?.(name, this.#captureText, this.#captureStart, this.#isCaptureVerbatim);
    }
    this.#captureText = '';
  }

  /**
   * Where the value of the attribute being read starts, when it starts with a character
   * reference (the Tokenizer gives no index for that): past the name, "=", whitespace and
   * the opening quote (HTML §13.2.5.34–37). Rare, so read back from the retained chunks.
   */
  #valueStartAfterName(): number {
    let i = this.#attributeNameEnd;
    let c = this.#chunks.charCodeAt(i);
    while (isHtmlWhitespace(c)) c = this.#chunks.charCodeAt(++i);
    if (c === EQUALS_SIGN) c = this.#chunks.charCodeAt(++i);
    while (isHtmlWhitespace(c)) c = this.#chunks.charCodeAt(++i);
    return c === QUOTATION_MARK || c === APOSTROPHE ? i + 1 : i;
  }

  /** The lower-cased name of a tag, the table's own string when it is an element the reader knows. */
  #elementName(start: number, endIndex: number): string {
    const at = this.#chunks.locate(start, endIndex);
    const known = at === -1 ? undefined : ELEMENT_NAMES.find(this.#chunks.head, at, at + endIndex - start);
    return known ?? this.#chunks.slice(start, endIndex).toLowerCase();
  }

  #updateForeign(): void {
    const innermost = this.#contexts[this.#contexts.length - 1];
    this.#isForeign = innermost === 'svg' || innermost === 'math';
  }

  #emitStartTag(isSelfClosing: boolean): void {
    let name = this.#tagName;
    const isForeign = this.#isForeign;
    // HTML §13.2.6.4.7 "in body": a start tag "image" is treated as "img".
    if (name === 'image' && !isForeign) name = 'img';
    if (name === 'form' && !isForeign) {
      // "in body", start tag "form": ignored while the form element pointer is set.
      if (this.#isFormOpen) return;
      this.#isFormOpen = true;
    }
    // A self-closing foreign element is popped at once; HTML elements ignore the "/".
    const isOpened = !(isSelfClosing && (isForeign || name === 'svg' || name === 'math'));
    if (isOpened && (name === 'svg' || name === 'math' || (isForeign && INTEGRATION_POINTS.has(name)))) {
      this.#contexts.push(name);
      this.#updateForeign();
    }
    this.#isSelfClosing = isSelfClosing;
    this.#emittedName = name;
    this.#handler.onStartTag(name, this.#attributes, this.#tagOffset, this);
  }
}

/** Whether `text` from `start` to `end` holds anything but ASCII whitespace (or a BOM). */
function hasContent(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!(c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0xfeff)) return true;
  }
  return false;
}

/** HTML tokenizer whitespace: TAB, LF, FF, SPACE (CR is gone after preprocessing; the Tokenizer counts it too). */
function isHtmlWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}
