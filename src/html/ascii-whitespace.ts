// WHATWG Infra: ASCII whitespace = U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE.
// The HTML microsyntaxes (srcset, meta refresh) and the Link header parser skip it.

import { isAsciiWhitespace } from '../base/index.js';

export { isAsciiWhitespace };

/** Index of the first code unit at or after `position` that is not ASCII whitespace. */
export function skipAsciiWhitespace(input: string, position: number): number {
  while (position < input.length && isAsciiWhitespace(input.charCodeAt(position))) position++;
  return position;
}

/** ASCII lower case, leaving every other character alone (Infra "ASCII lowercase"). */
export function asciiLowerCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text;
}

/** The space-separated tokens of an attribute value, ASCII-lower-cased (HTML rel, Link rel). */
export function splitTokens(value: string): string[] {
  const tokens: string[] = [];
  let position = skipAsciiWhitespace(value, 0);
  while (position < value.length) {
    const start = position;
    while (position < value.length && !isAsciiWhitespace(value.charCodeAt(position))) position++;
    tokens.push(asciiLowerCase(value.slice(start, position)));
    position = skipAsciiWhitespace(value, position);
  }
  return tokens;
}
