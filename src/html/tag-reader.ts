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

import { Tokenizer, type TokenizerCallbacks, QuoteType } from 'htmlparser2';

/** What the reader reports. Names are ASCII-lower-cased; attributes keep the first of duplicates. */
export interface TagHandler {
  /** `offset` is the UTF-16 index of the tag's "<" in the whole document. */
  onStartTag(name: string, attributes: ReadonlyMap<string, string>, offset: number): void;
  onEndTag(name: string): void;
  /** Called for every piece of text, with whether it holds anything but ASCII whitespace. */
  onText(hasContent: boolean): void;
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
export class TagReader implements TokenizerCallbacks {
  readonly #handler: TagHandler;
  readonly #tokenizer: Tokenizer;
  readonly #chunks = new ChunkQueue();
  /** The open svg, math and integration-point elements, innermost last. */
  readonly #contexts: string[] = [];
  #isFormOpen = false;
  #tagName = '';
  #tagOffset = 0;
  #attributes = new Map<string, string>();
  #attributeName = '';
  #attributeValue = '';

  constructor(handler: TagHandler) {
    this.#handler = handler;
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
    const innermost = this.#contexts[this.#contexts.length - 1];
    return innermost === 'svg' || innermost === 'math';
  }

  onopentagname(start: number, endIndex: number): void {
    this.#tagName = this.#chunks.slice(start, endIndex).toLowerCase();
    this.#tagOffset = start - 1; // the "<"
    this.#attributes = new Map();
  }

  onattribname(start: number, endIndex: number): void {
    this.#attributeName = this.#chunks.slice(start, endIndex).toLowerCase();
    this.#attributeValue = '';
  }

  onattribdata(start: number, endIndex: number): void {
    this.#attributeValue += this.#chunks.slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    this.#attributeValue += codepoint > 0x10ffff ? REPLACEMENT_CHARACTER : String.fromCodePoint(codepoint);
  }

  onattribend(_quote: QuoteType, endIndex: number): void {
    if (!this.#attributes.has(this.#attributeName)) this.#attributes.set(this.#attributeName, this.#attributeValue);
    this.#attributeValue = '';
    this.#chunks.release(endIndex);
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
    const name = this.#chunks.slice(start, endIndex).toLowerCase();
    if (name === 'form') this.#isFormOpen = false;
    if (this.#contexts[this.#contexts.length - 1] === name) this.#contexts.pop();
    this.#handler.onEndTag(name);
  }

  ontext(start: number, endIndex: number): void {
    this.#handler.onText(hasContent(this.#chunks.slice(start, endIndex)));
  }

  ontextentity(codepoint: number, endIndex: number): void {
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

  onend(): void {}

  #emitStartTag(isSelfClosing: boolean): void {
    let name = this.#tagName;
    const isForeign = this.isInForeignContext();
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
    }
    this.#handler.onStartTag(name, this.#attributes, this.#tagOffset);
  }
}

function hasContent(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0xfeff)) return true;
  }
  return false;
}
