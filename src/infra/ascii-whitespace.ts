// WHATWG Infra: ASCII whitespace = U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE.
// HTML's microsyntaxes (srcset, meta refresh, rel tokens), the Link header parser, the
// base chain and the encoding sniffer all skip it; it also covers HTTP's OWS (SP, HTAB)
// around a field value (RFC 9110 §5.5).

/** Whether code unit `c` is ASCII whitespace (WHATWG Infra: TAB, LF, FF, CR, SPACE). */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * Where `value` starts and ends once trimmed of ASCII whitespace. Whitespace inside
 * the value is left alone: RFC 3986 rejects it.
 */
export function trimAsciiWhitespace(value: string): { readonly start: number; readonly text: string } {
  let start = 0;
  let end = value.length;
  while (start < end && isAsciiWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(value.charCodeAt(end - 1))) end--;
  return { start, text: start === 0 && end === value.length ? value : value.slice(start, end) };
}

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
