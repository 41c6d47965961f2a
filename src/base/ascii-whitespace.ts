// Surrounding whitespace that HTML and HTTP allow around a URI.

/**
 * Where `value` starts and ends once trimmed of ASCII whitespace (HTML: TAB, LF,
 * FF, CR, SPACE). This also covers HTTP's OWS (SP, HTAB) around a field value
 * (RFC 9110 §5.5). Whitespace inside the value is left alone: RFC 3986 rejects it.
 */
export function trimAsciiWhitespace(value: string): { readonly start: number; readonly text: string } {
  let start = 0;
  let end = value.length;
  while (start < end && isAsciiWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(value.charCodeAt(end - 1))) end--;
  return { start, text: start === 0 && end === value.length ? value : value.slice(start, end) };
}

/** Whether code unit `c` is ASCII whitespace (WHATWG Infra: TAB, LF, FF, CR, SPACE). */
export function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}
