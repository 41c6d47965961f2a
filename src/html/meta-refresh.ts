// HTML Living Standard §4.2.5.3 pragma directives: the "shared declarative refresh steps", parsing part
// https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps
// Step numbers are the spec's. The URL is returned as written: resolving it is the
// base chain's job, not this one's.

import { isAsciiWhitespace, skipAsciiWhitespace } from '../infra/index.js';

/** What a `<meta http-equiv=refresh content>` asks for. */
export interface MetaRefresh {
  /** Seconds before the refresh (the integer part, as browsers read it). */
  readonly delay: number;
  /** The URL as written, or `undefined` when the page refreshes itself. */
  readonly url: string | undefined;
}

const SEMICOLON = 0x3b;
const COMMA = 0x2c;
const FULL_STOP = 0x2e;
const EQUALS = 0x3d;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Parse the `content` of a meta refresh: `"5"`, `"0; url=/next"`, `"3,URL='x'"`.
 * Returns `undefined` when browsers would ignore it. Never throws.
 */
export function parseMetaRefresh(input: string): MetaRefresh | undefined {
  const n = input.length;
  // 1. ("will declaratively refresh" is the caller's business.) 2., 3.
  let position = skipAsciiWhitespace(input, 0);
  // 4., 5.
  const timeStart = position;
  while (position < n && isDigit(input.charCodeAt(position))) position++;
  const timeString = input.slice(timeStart, position);
  let delay = 0;
  if (timeString === '') {
    // 6.1 Without digits, the time must at least start with "." (".5" means 0).
    if (input.charCodeAt(position) !== FULL_STOP) return undefined;
  } else {
    // 7.
    delay = Number.parseInt(timeString, 10);
  }
  // 8. The fractional part is read and ignored.
  while (position < n && (isDigit(input.charCodeAt(position)) || input.charCodeAt(position) === FULL_STOP)) position++;
  // 9. urlRecord is the document's own URL until step 11 says otherwise: `url` undefined.
  // 10.
  if (position < n) {
    const c = input.charCodeAt(position);
    // 10.1
    if (c !== SEMICOLON && c !== COMMA && !isAsciiWhitespace(c)) return undefined;
    // 10.2–10.4
    position = skipAsciiWhitespace(input, position);
    if (input.charCodeAt(position) === SEMICOLON || input.charCodeAt(position) === COMMA) position++;
    position = skipAsciiWhitespace(input, position);
  }
  // 11.
  if (position >= n) return { delay, url: undefined };
  return { delay, url: readRefreshUrl(input, position) };
}

// 11.1–11.10: an optional "url=" (any case, whitespace around "="), optional quotes.
function readRefreshUrl(input: string, position: number): string {
  // 11.1 urlString is the rest of the input unless a "url=" prefix is found.
  const urlString = input.slice(position);
  let p = position;
  // 11.2 No "U": straight to "skip quotes".
  if (input[p] === 'U' || input[p] === 'u') {
    p++;
    // 11.3, 11.4 "R", "L", else straight to "parse" with the whole urlString.
    if (!(input[p] === 'R' || input[p] === 'r') || !(input[p + 1] === 'L' || input[p + 1] === 'l')) return urlString;
    // 11.5
    p = skipAsciiWhitespace(input, p + 2);
    // 11.6
    if (input.charCodeAt(p) !== EQUALS) return urlString;
    // 11.7
    p = skipAsciiWhitespace(input, p + 1);
  }
  // 11.8 Skip quotes.
  const quote = input.charCodeAt(p);
  if (quote !== SINGLE_QUOTE && quote !== DOUBLE_QUOTE) return input.slice(p); // 11.9
  // 11.9, 11.10 The text after the quote, cut at the next same quote if there is one.
  const close = input.indexOf(input[p]!, p + 1);
  return close === -1 ? input.slice(p + 1) : input.slice(p + 1, close);
}
