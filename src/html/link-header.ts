// RFC 8288 §3 the Link header field, parsed as Appendix B.2 ("Parsing a Link Field
// Value") and B.3 ("Parsing Parameters") describe, with RFC 8187 ext-values for
// "title*" and the like. https://www.rfc-editor.org/rfc/rfc8288#appendix-B
//
//   Link       = #link-value
//   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Targets are returned as written: resolving them (against the request URL, or the
// "anchor") is the base chain's job. Nothing here throws.

import { percentDecodeUtf8 } from '../uri/index.js';
import { asciiLowerCase, isAsciiWhitespace, splitTokens } from '../infra/index.js';

/** One parameter of a link-value, in the order written. */
export interface LinkHeaderParam {
  /** Lower-cased name, with its trailing "*" for an RFC 8187 ext-value (`title*`). */
  readonly name: string;
  /** Unquoted value (`""` for a parameter without "="); an ext-value decoded when its charset is known. */
  readonly value: string;
}

/** One link-value of a Link header. */
export interface LinkHeaderLink {
  /** The URI-Reference between "<" and ">", as written (not resolved). */
  readonly target: string;
  /** The relation types of the first "rel" parameter, lower-cased (B.2 step 2.9–2.10, 2.13); maybe none. */
  readonly rel: readonly string[];
  /** The first "anchor" parameter (the link context), or `undefined`. */
  readonly anchor: string | undefined;
  /** Every parameter, "rel" and "anchor" included. */
  readonly params: readonly LinkHeaderParam[];
}

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SEMICOLON = 0x3b;
const COMMA = 0x2c;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The links of a Link header field value (several field lines may be joined with
 * ","). Tolerant: a link-value that does not start with "<" or lacks its ">" is
 * skipped up to the next top-level ",", where parsing resumes.
 */
export function parseLinkHeader(value: string): LinkHeaderLink[] {
  const links: LinkHeaderLink[] = [];
  const n = value.length;
  let position = 0;
  while (position < n) {
    // B.2 2.1 Consume OWS (and the commas of empty list elements, RFC 9110 §5.6.1).
    while (position < n && (isOws(value.charCodeAt(position)) || value.charCodeAt(position) === COMMA)) position++;
    if (position >= n) break;
    // 2.2 DEVIATION(RFC 8288 B.2 step 2.2): B.2 stops at the first link-value without
    // "<"; we skip it and go on, so one bad value does not hide the good ones after it.
    const close = value.indexOf('>', position + 1);
    if (value.charCodeAt(position) !== LESS_THAN || close === -1) {
      position = skipToNextLinkValue(value, position);
      continue;
    }
    // 2.3–2.6
    const target = value.slice(position + 1, close);
    position = close + 1;
    // 2.7
    const params: LinkHeaderParam[] = [];
    position = parseParameters(value, position, params);
    // Whatever follows the parameters up to the next "," is garbage: skip it.
    position = skipToNextLinkValue(value, position);
    // 2.9–2.13 (2.8, resolving the target, is left to the caller)
    const rel = params.find((p) => p.name === 'rel');
    const anchor = params.find((p) => p.name === 'anchor');
    links.push({
      target,
      rel: rel === undefined ? [] : splitTokens(rel.value),
      anchor: anchor?.value,
      params,
    });
  }
  return links;
}

// B.3 Parsing Parameters: from `position`, append to `params`; return the position after them.
function parseParameters(value: string, position: number, params: LinkHeaderParam[]): number {
  const n = value.length;
  for (;;) {
    // 2.1, 2.2
    position = skipOws(value, position);
    if (value.charCodeAt(position) !== SEMICOLON) return position;
    // 2.3, 2.4
    position = skipOws(value, position + 1);
    // 2.5 parameter_name: up to BWS, "=", ";" or ","
    const nameStart = position;
    while (position < n) {
      const c = value.charCodeAt(position);
      if (isOws(c) || c === EQUALS || c === SEMICOLON || c === COMMA) break;
      position++;
    }
    const name = asciiLowerCase(value.slice(nameStart, position));
    // 2.6
    position = skipOws(value, position);
    let parameterValue = '';
    // 2.7
    if (value.charCodeAt(position) === EQUALS) {
      position = skipOws(value, position + 1);
      if (value.charCodeAt(position) === DOUBLE_QUOTE) {
        // 2.7.2.1 B.4 Parsing a Quoted String
        const quoted = parseQuotedString(value, position);
        parameterValue = quoted.text;
        position = quoted.end;
      } else {
        // 2.7.3.1 up to ";" or ","; trailing OWS is not part of a token.
        const valueStart = position;
        while (position < n && value.charCodeAt(position) !== SEMICOLON && value.charCodeAt(position) !== COMMA) position++;
        let valueEnd = position;
        while (valueEnd > valueStart && isOws(value.charCodeAt(valueEnd - 1))) valueEnd--;
        parameterValue = value.slice(valueStart, valueEnd);
      }
      // 2.7.4 "If the last character of parameter_name is an asterisk, decode parameter_value (RFC 8187)."
      if (name.endsWith('*')) parameterValue = decodeExtValue(parameterValue);
    }
    // 2.8 (an empty name is garbage, not a parameter)
    if (name !== '') params.push({ name, value: parameterValue });
  }
}

// B.4 Parsing a Quoted String, starting at the opening DQUOTE. An unclosed string
// runs to the end of the value.
function parseQuotedString(value: string, position: number): { text: string; end: number } {
  let text = '';
  let i = position + 1;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (c === BACKSLASH) {
      i++;
      if (i < value.length) text += value[i];
    } else if (c === DOUBLE_QUOTE) {
      return { text, end: i + 1 };
    } else {
      text += value[i];
    }
    i++;
  }
  return { text, end: i };
}

// RFC 8187 §3.2 ext-value = charset "'" [ language ] "'" value-chars. UTF-8 and
// ISO-8859-1 are decoded; an unknown charset or broken octets leave it as written.
function decodeExtValue(extValue: string): string {
  const firstQuote = extValue.indexOf("'");
  const secondQuote = firstQuote === -1 ? -1 : extValue.indexOf("'", firstQuote + 1);
  if (secondQuote === -1) return extValue;
  const charset = asciiLowerCase(extValue.slice(0, firstQuote));
  const encoded = extValue.slice(secondQuote + 1);
  if (charset === 'utf-8') return percentDecodeUtf8(encoded) ?? extValue;
  if (charset === 'iso-8859-1') {
    return encoded.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  }
  return extValue;
}

// Past the next "," that is outside a quoted string and outside "<…>", or the end.
function skipToNextLinkValue(value: string, position: number): number {
  const n = value.length;
  let inQuotes = false;
  let inTarget = false;
  for (; position < n; position++) {
    const c = value.charCodeAt(position);
    if (inQuotes) {
      if (c === BACKSLASH) position++;
      else if (c === DOUBLE_QUOTE) inQuotes = false;
    } else if (inTarget) {
      if (c === GREATER_THAN) inTarget = false;
    } else if (c === DOUBLE_QUOTE) {
      inQuotes = true;
    } else if (c === LESS_THAN) {
      inTarget = true;
    } else if (c === COMMA) {
      return position + 1;
    }
  }
  return n;
}

// RFC 9110 §5.6.3 OWS = *( SP / HTAB ); header values seen in the wild also fold lines, so CR/LF count too.
function isOws(c: number): boolean {
  return isAsciiWhitespace(c);
}

function skipOws(value: string, position: number): number {
  while (position < value.length && isOws(value.charCodeAt(position))) position++;
  return position;
}
