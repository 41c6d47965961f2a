// The character encoding of an HTML byte stream: a simplified transcription of the
// HTML Standard's encoding sniffing algorithm (§13.2.3.2) and of its prescan, with
// the WHATWG Encoding Standard's labels as Node's TextDecoder knows them.
// https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm

import { TextDecoder } from 'node:util';
import { isAsciiWhitespace } from '../infra/index.js';

/** Where the encoding of a decoded body came from. */
export type EncodingSource = 'bom' | 'header' | 'meta' | 'default';

export interface SniffedEncoding {
  /** The WHATWG encoding name (`TextDecoder#encoding`): `utf-8`, `windows-1252`, `shift_jis`, … */
  readonly encoding: string;
  readonly source: EncodingSource;
}

/** The HTML Standard's default for a page that declares nothing, in this crawler. */
export const DEFAULT_ENCODING = 'utf-8';

/** How many bytes the prescan looks at (HTML §13.2.3.2 step 5: "the first 1024 bytes"). */
export const PRESCAN_BYTES = 1024;

const knownLabels = new Map<string, string | undefined>();

/**
 * WHATWG Encoding "get an encoding": the encoding a label names, or `undefined`
 * for a label the Encoding Standard does not know — or that this Node's ICU cannot
 * decode (a Node built with `small-icu` knows only UTF-8, UTF-16LE and latin1).
 */
export function getEncoding(label: string): string | undefined {
  const key = label.trim().toLowerCase();
  if (knownLabels.has(key)) return knownLabels.get(key);
  let encoding: string | undefined;
  try {
    encoding = new TextDecoder(key).encoding;
  } catch {
    encoding = undefined;
  }
  if (knownLabels.size < 256) knownLabels.set(key, encoding);
  return encoding;
}

/** WHATWG Encoding "BOM sniff": the encoding a byte order mark names. */
export function sniffBom(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * HTML §13.2.3.2 encoding sniffing, simplified: the BOM, then the transport layer's
 * charset (`headerCharset`, from Content-Type), then the prescan of the first 1024
 * bytes for `<meta charset>` or `<meta http-equiv=content-type content=…>`, then UTF-8.
 *
 * The BOM comes first, as in the HTML Standard (step 1) and every browser: a page
 * that starts with a UTF-16 BOM is UTF-16 whatever its header says. A label that
 * names no encoding is skipped, as the Standard skips it: the next source decides.
 * Left out: the "tentative" confidence and the change of encoding mid-parse, the
 * parent browsing context, and frequency analysis (steps 6–9 collapse to UTF-8).
 */
export function sniffEncoding(bytes: Uint8Array, headerCharset: string | undefined): SniffedEncoding {
  const bom = sniffBom(bytes);
  if (bom !== undefined) return { encoding: bom, source: 'bom' };
  if (headerCharset !== undefined) {
    const encoding = getEncoding(headerCharset);
    if (encoding !== undefined) return { encoding, source: 'header' };
  }
  const meta = prescanForMetaCharset(bytes.subarray(0, PRESCAN_BYTES));
  if (meta !== undefined) return { encoding: meta, source: 'meta' };
  return { encoding: DEFAULT_ENCODING, source: 'default' };
}

const SLASH = 0x2f;
const GT = 0x3e;
const LT = 0x3c;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;


function isAsciiAlpha(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

function lower(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
}

/** Whether `bytes` at `at` hold `ascii` (lower-case), compared ASCII case-insensitively. */
function startsWithAt(bytes: Uint8Array, at: number, ascii: string): boolean {
  if (at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i++) {
    if (lower(bytes[at + i] ?? 0) !== ascii.charCodeAt(i)) return false;
  }
  return true;
}

function indexOfSequence(bytes: Uint8Array, from: number, ascii: string): number {
  outer: for (let i = from; i + ascii.length <= bytes.length; i++) {
    for (let j = 0; j < ascii.length; j++) if (bytes[i + j] !== ascii.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/**
 * HTML §13.2.3.2 "prescan a byte stream to determine its encoding", over the bytes
 * given (the caller passes the first 1024). Returns the encoding, or `undefined`.
 */
export function prescanForMetaCharset(bytes: Uint8Array): string | undefined {
  const end = bytes.length;
  let position = 0;
  const at = (i: number): number => (i < end ? (bytes[i] ?? -1) : -1);

  // "get an attribute": returns [name, value] or undefined, moving `position`.
  const getAttribute = (): readonly [string, string] | undefined => {
    // 1. Skip whitespace and "/".
    while (position < end && (isAsciiWhitespace(at(position)) || at(position) === SLASH)) position++;
    // 2. ">" (or the end): no attribute.
    if (position >= end || at(position) === GT) return undefined;
    // 3–4. The attribute name.
    let name = '';
    let value = '';
    for (;;) {
      const b = at(position);
      if (b === -1) return undefined;
      if (b === EQUALS && name !== '') {
        position++;
        break;
      }
      if (isAsciiWhitespace(b)) {
        // 5. Spaces, then maybe "=".
        while (position < end && isAsciiWhitespace(at(position))) position++;
        if (at(position) !== EQUALS) return [name, ''];
        position++;
        break;
      }
      if (b === SLASH || b === GT) return [name, ''];
      name += String.fromCharCode(lower(b));
      position++;
    }
    // 9–10. The value: skip whitespace, then a quoted or an unquoted value.
    while (position < end && isAsciiWhitespace(at(position))) position++;
    const first = at(position);
    if (first === -1) return undefined;
    if (first === DQUOTE || first === SQUOTE) {
      for (;;) {
        position++;
        const b = at(position);
        if (b === -1) return undefined;
        if (b === first) {
          position++;
          return [name, value];
        }
        value += String.fromCharCode(lower(b));
      }
    }
    if (first === GT) return [name, ''];
    for (;;) {
      const b = at(position);
      if (b === -1) return undefined;
      if (isAsciiWhitespace(b) || b === GT) return [name, value];
      value += String.fromCharCode(lower(b));
      position++;
    }
  };

  while (position < end) {
    if (startsWithAt(bytes, position, '<!--')) {
      // A comment: to the "-->" whose ">" follows the "<!--" (so "<!-->" is one).
      const close = indexOfSequence(bytes, position + 2, '-->');
      if (close === -1) return undefined;
      position = close + 3;
      continue;
    }
    if (startsWithAt(bytes, position, '<meta') && (isAsciiWhitespace(at(position + 5)) || at(position + 5) === SLASH)) {
      position += 5;
      const seen = new Set<string>();
      let gotPragma = false;
      let needPragma: boolean | undefined;
      let charset: string | undefined;
      for (;;) {
        const attribute = getAttribute();
        if (attribute === undefined) break;
        const [name, value] = attribute;
        if (seen.has(name)) continue;
        seen.add(name);
        if (name === 'http-equiv') {
          if (value === 'content-type') gotPragma = true;
        } else if (name === 'content') {
          if (charset === undefined) {
            const label = extractCharsetFromMeta(value);
            const encoding = label === undefined ? undefined : getMetaEncoding(label);
            if (encoding !== undefined) {
              charset = encoding;
              needPragma = true;
            }
          }
        } else if (name === 'charset') {
          charset = getMetaEncoding(value);
          needPragma = false;
          // "If charset is failure" the meta does not count (below).
        }
      }
      if (needPragma === undefined || (needPragma && !gotPragma) || charset === undefined) continue;
      // A page that reaches the prescan is ASCII-compatible: a UTF-16 declaration is a mistake.
      if (charset === 'utf-16le' || charset === 'utf-16be') return 'utf-8';
      return charset;
    }
    const b1 = at(position + 1);
    if (at(position) === LT && (isAsciiAlpha(b1) || (b1 === SLASH && isAsciiAlpha(at(position + 2))))) {
      // A start or end tag: skip its name, then its attributes.
      position += b1 === SLASH ? 2 : 1;
      while (position < end && !isAsciiWhitespace(at(position)) && at(position) !== GT) position++;
      while (getAttribute() !== undefined) {
        /* skipped */
      }
      continue;
    }
    if (at(position) === LT && (b1 === BANG || b1 === SLASH || b1 === QUESTION)) {
      const close = bytes.indexOf(GT, position + 1);
      if (close === -1) return undefined;
      position = close + 1;
      continue;
    }
    position++;
  }
  return undefined;
}

/** "get an encoding", and the prescan's "If charset is x-user-defined, set it to windows-1252". */
function getMetaEncoding(label: string): string | undefined {
  return label.trim().toLowerCase() === 'x-user-defined' ? 'windows-1252' : getEncoding(label);
}

/**
 * HTML §2.4 "algorithm for extracting a character encoding from a meta element":
 * the label after `charset=` in a `content` attribute, or `undefined`.
 */
export function extractCharsetFromMeta(content: string): string | undefined {
  let position = 0;
  const lowerContent = content.toLowerCase();
  for (;;) {
    const found = lowerContent.indexOf('charset', position);
    if (found === -1) return undefined;
    position = found + 'charset'.length;
    while (position < content.length && isAsciiWhitespace(content.charCodeAt(position))) position++;
    if (content[position] !== '=') continue;
    position++;
    while (position < content.length && isAsciiWhitespace(content.charCodeAt(position))) position++;
    const quote = content[position];
    if (quote === undefined) return undefined;
    if (quote === '"' || quote === "'") {
      const close = content.indexOf(quote, position + 1);
      return close === -1 ? undefined : content.slice(position + 1, close);
    }
    let stop = position;
    while (stop < content.length && !isAsciiWhitespace(content.charCodeAt(stop)) && content[stop] !== ';') stop++;
    return content.slice(position, stop);
  }
}
