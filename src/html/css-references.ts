// The URLs a stylesheet names: `url()`, `src()`, `@import`, and the strings of
// `image-set()` / `image()`. Tokens come from @csstools/css-tokenizer (CSS Syntax
// Level 3 §4 "Tokenization", which also decodes escapes, §4.3.7, and unquotes
// strings); only the few rules below are ours. Never throws on bad CSS: the tokenizer
// recovers from every parse error as the spec says, and so do the rules here.
//
// Which base a reference resolves against is the caller's business, and it differs:
// - in a stylesheet fetched on its own (or `@import`ed), the stylesheet's own URL
//   (CSS Values and Units 4 §4.5.1: relative URLs resolve against the style sheet's URL);
// - in a `<style>` element or a `style=""` attribute, the document's base URL (the
//   page's base chain, `<base href>` included).
//
// What is not a reference, on purpose:
// - `url()` and `url("")` (empty): "resolve to an invalid resource" (CSS Values 4 §4.5.1), never fetched;
// - the URL of `@namespace`: a namespace name (CSS Namespaces 3 §2), never fetched;
// - strings in other functions (`local("Font")`, `format("woff2")`, `attr()` …).
// A fragment-only `url(#id)` is kept: it names an element of the same document, and
// resolves as a same-document reference (RFC 3986 §4.4), which the crawl never fetches.

import { tokenizer, TokenType, type CSSToken } from '@csstools/css-tokenizer';
import { OptionError, describeValue } from '../errors.js';
import { asciiLowerCase } from '../infra/index.js';
import type { CssFindingCode } from './findings.js';
import { LineIndex, type SourcePosition } from './line-index.js';

/**
 * - `import`: the stylesheet of an `@import` rule (CSS Cascade 4 §2): a stylesheet to check
 *   and to read for references in turn;
 * - `url`: anything else a stylesheet loads: images, fonts, cursors, SVG filters and masks.
 */
export type CssReferenceKind = 'import' | 'url';

/** How the reference is written. */
export type CssReferenceSyntax = 'url' | 'src' | 'string' | 'image-set';

/** One URL named by a stylesheet. */
export interface CssReference {
  readonly kind: CssReferenceKind;
  /** `url(…)` (quoted or not), `src("…")`, a bare string after `@import`, a string in `image-set()` / `image()`. */
  readonly syntax: CssReferenceSyntax;
  /** The URL as the stylesheet means it: quotes removed, escapes decoded (CSS Syntax 3 §4.3.7), whitespace around an unquoted url() removed. */
  readonly url: string;
  /** UTF-16 index in the text of the reference's first character (the `u` of `url(`, or the string's quote). */
  readonly offset: number;
}

/** Something wrong with the stylesheet's references that the audit reports. */
export interface CssFinding {
  readonly code: CssFindingCode;
  /** UTF-16 index in the text of the token concerned. */
  readonly offset: number;
}

/** A reference or a finding with its line and column in the text (CSS line breaks, CSS Syntax 3 §3.3). */
export type Positioned<T> = T & SourcePosition;

export interface CssReferences {
  /** In source order; at most `maxReferences`. */
  readonly references: readonly Positioned<CssReference>[];
  /** In source order. */
  readonly findings: readonly Positioned<CssFinding>[];
}

export interface CssReferenceOptions {
  /**
   * How many references to return at most; past it, one `CSS_REFERENCES_CAPPED` finding
   * (at the first reference left out) and the rest of the text is not read.
   * @default 10000
   */
  readonly maxReferences?: number;
}

export const CSS_REFERENCE_DEFAULTS = Object.freeze({ maxReferences: 10_000 });

/** Validate `CssReferenceOptions` once, at the boundary. Throws `OptionError`. */
export function validateCssReferenceOptions(options: CssReferenceOptions = {}): Required<CssReferenceOptions> {
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const maxReferences = options.maxReferences ?? CSS_REFERENCE_DEFAULTS.maxReferences;
  if (!Number.isInteger(maxReferences) || maxReferences < 0) {
    throw new OptionError(`Expected \`maxReferences\` to be an integer >= 0, got ${describeValue(maxReferences)}`);
  }
  return Object.freeze({ maxReferences });
}

/**
 * The references of a stylesheet, a `<style>` element's text or a `style` attribute's
 * declarations, with their line and column. Throws `OptionError` for bad options, never for bad CSS.
 */
export function extractCssReferences(css: string, options: CssReferenceOptions = {}): CssReferences {
  const { maxReferences } = validateCssReferenceOptions(options);
  const references: CssReference[] = [];
  const findings: CssFinding[] = [];
  scanCssReferences(css, maxReferences, (reference) => references.push(reference), (finding) => findings.push(finding));
  if (references.length === 0 && findings.length === 0) return { references: [], findings: [] };
  const lines = new LineIndex(css, { isFormFeedLineBreak: true });
  return {
    references: references.map((reference) => ({ ...reference, ...lines.position(reference.offset) })),
    findings: findings.map((finding) => ({ ...finding, ...lines.position(finding.offset) })),
  };
}

/** Functions whose string arguments are URLs (CSS Images 4 §2.2 image-set(), §3 image(); the prefixed form browsers still parse). */
const IMAGE_STRING_FUNCTIONS: ReadonlySet<string> = new Set(['image-set', '-webkit-image-set', 'image']);

/**
 * The open functions and blocks, innermost last, a byte each: a stylesheet of 10 MiB
 * of `(` opens 10 million blocks (§5.4.8 consume a simple block keeps each open to
 * the end of the input), which an object a level would make ~500 MB.
 */
class BlockStack {
  #levels = new Uint8Array(64);
  #length = 0;

  get isEmpty(): boolean {
    return this.#length === 0;
  }

  /** The innermost block's code (`BLOCK_*`), or 0 at the top level. */
  get top(): number {
    return this.#length === 0 ? 0 : this.#levels[this.#length - 1]!;
  }

  push(block: number): void {
    if (this.#length === this.#levels.length) {
      const grown = new Uint8Array(this.#levels.length * 2);
      grown.set(this.#levels);
      this.#levels = grown;
    }
    this.#levels[this.#length++] = block;
  }

  pop(): void {
    this.#length--;
  }
}

/** A `(` block or a function other than the image ones; both close with `)`. */
const BLOCK_PAREN = 1;
/** `image-set(`, `image(`: their strings are URLs (`IMAGE_STRING_FUNCTIONS`). */
const BLOCK_IMAGE_FUNCTION = 2;
const BLOCK_SQUARE = 3;
const BLOCK_CURLY = 4;

/** The block code an opening token pushes. */
const BLOCK_OF: Partial<Record<TokenType, number>> = {
  [TokenType.OpenParen]: BLOCK_PAREN,
  [TokenType.OpenSquare]: BLOCK_SQUARE,
  [TokenType.OpenCurly]: BLOCK_CURLY,
};

/** The code of the token that closes a block: an image function closes as any `(`. */
const closerOf = (block: number): number => (block === BLOCK_IMAGE_FUNCTION ? BLOCK_PAREN : block);

/** The block code a closing token closes. */
const CLOSES: Partial<Record<TokenType, number>> = {
  [TokenType.CloseParen]: BLOCK_PAREN,
  [TokenType.CloseSquare]: BLOCK_SQUARE,
  [TokenType.CloseCurly]: BLOCK_CURLY,
};

/**
 * The streaming core of `extractCssReferences`, without line numbers: the link extractor
 * calls it on `<style>` text and `style` attributes and places offsets in the page itself.
 * `maxReferences` is trusted (validated by the caller).
 */
export function scanCssReferences(
  css: string,
  maxReferences: number,
  onReference: (reference: CssReference) => void,
  onFinding: (finding: CssFinding) => void,
): void {
  const tokens = tokenizer({ css });
  const blocks = new BlockStack();
  let count = 0;
  /** After a top-level `@import`: the next significant token says what it imports. */
  let isImportPending = false;
  /** Inside the prelude of a top-level `@namespace`, up to its `;` or `{`. */
  let isInNamespace = false;
  /** After `url(` or `src(`: the string token that follows is the URL. */
  let pendingFunction: { readonly syntax: 'url' | 'src'; readonly kind: CssReferenceKind; readonly offset: number } | undefined;

  const add = (kind: CssReferenceKind, syntax: CssReferenceSyntax, url: string, offset: number): boolean => {
    // CSS Values 4 §4.5.1: an empty URL resolves to an invalid resource; nothing is fetched.
    if (url === '' || isInNamespace) return true;
    if (count === maxReferences) {
      onFinding({ code: 'CSS_REFERENCES_CAPPED', offset });
      return false;
    }
    count++;
    onReference({ kind, syntax, url, offset });
    return true;
  };

  for (;;) {
    const token: CSSToken = tokens.nextToken();
    const type = token[0];
    if (type === TokenType.EOF) return;
    if (type === TokenType.Whitespace || type === TokenType.Comment) continue;

    const function_ = pendingFunction;
    pendingFunction = undefined;
    const isImport = isImportPending;
    isImportPending = false;
    const kind: CssReferenceKind = isImport ? 'import' : 'url';

    switch (type) {
      case TokenType.URL:
        // CSS Syntax 3 §4.3.6 consume a url token: unquoted, escapes decoded, outer whitespace dropped.
        if (!add(kind, 'url', token[4].value, token[2])) return;
        break;
      case TokenType.BadURL:
        // §4.3.6: a bad url token makes its declaration (or @import) invalid: nothing is loaded.
        if (!isInNamespace) onFinding({ code: 'CSS_URL_INVALID', offset: token[2] });
        break;
      case TokenType.String: {
        const url = token[4].value;
        if (function_ !== undefined) {
          // CSS Values 4 §4.5: url("…") and src("…"), the string their first argument.
          if (!add(function_.kind, function_.syntax, url, function_.offset)) return;
        } else if (isImport) {
          // CSS Cascade 4 §2: @import "x" is @import url("x").
          if (!add('import', 'string', url, token[2])) return;
        } else if (blocks.top === BLOCK_IMAGE_FUNCTION) {
          if (!add('url', 'image-set', url, token[2])) return;
        }
        break;
      }
      case TokenType.Function: {
        const name = asciiLowerCase(token[4].value);
        // §4.3.4: `url(` followed by a quote is a function token; `src(` always is.
        if (name === 'url' || name === 'src') pendingFunction = { syntax: name, kind, offset: token[2] };
        blocks.push(IMAGE_STRING_FUNCTIONS.has(name) ? BLOCK_IMAGE_FUNCTION : BLOCK_PAREN);
        break;
      }
      case TokenType.OpenParen:
      case TokenType.OpenSquare:
      case TokenType.OpenCurly:
        if (type === TokenType.OpenCurly && blocks.isEmpty) isInNamespace = false;
        blocks.push(BLOCK_OF[type]!);
        break;
      case TokenType.CloseParen:
      case TokenType.CloseSquare:
      case TokenType.CloseCurly:
        // §5.4.8 consume a simple block: only the mirror token closes it; another is a plain token.
        if (!blocks.isEmpty && closerOf(blocks.top) === CLOSES[type]) blocks.pop();
        break;
      case TokenType.Semicolon:
        if (blocks.isEmpty) isInNamespace = false;
        break;
      case TokenType.AtKeyword:
        if (blocks.isEmpty) {
          const name = asciiLowerCase(token[4].value);
          if (name === 'import') isImportPending = true;
          else if (name === 'namespace') isInNamespace = true;
        }
        break;
      default:
        break;
    }
  }
}
