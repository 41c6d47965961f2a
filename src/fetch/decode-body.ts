// Bytes of a body to text.

import { TextDecoder } from 'node:util';
import { DEFAULT_ENCODING, getEncoding, sniffBom, sniffEncoding, type SniffedEncoding } from './sniff-encoding.js';

export interface DecodedText {
  readonly text: string;
  /** The WHATWG name of the encoding used, lower-cased. */
  readonly charset: string;
  readonly source: SniffedEncoding['source'];
}

/**
 * An HTML body as text: the encoding sniffed (BOM, Content-Type charset, `<meta>`,
 * UTF-8), then decoded without `fatal`, so malformed bytes become U+FFFD as in a
 * browser. A BOM is not part of the text.
 */
export function decodeHtml(bytes: Uint8Array, headerCharset: string | undefined): DecodedText {
  const { encoding, source } = sniffEncoding(bytes, headerCharset);
  return { text: decode(bytes, encoding), charset: encoding, source };
}

/**
 * A body that RFC 9309 §2.3 says is UTF-8 (robots.txt), whatever its header says.
 * A UTF-8 BOM is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  return { text: decode(bytes, 'utf-8'), charset: 'utf-8', source: 'default' };
}

/**
 * A stylesheet as text, its encoding determined as CSS Syntax 3 §3.2 says: a BOM,
 * else the Content-Type charset, else an `@charset "…";` rule written exactly so at
 * the very start (a UTF-16 label there means UTF-8), else UTF-8. (The referring
 * document's encoding, the step before the last, is not known here: UTF-8.)
 */
export function decodeCss(bytes: Uint8Array, headerCharset: string | undefined): DecodedText {
  const bom = sniffBom(bytes);
  if (bom !== undefined) return { text: decode(bytes, bom), charset: bom, source: 'bom' };
  const fromHeader = headerCharset === undefined ? undefined : getEncoding(headerCharset);
  if (fromHeader !== undefined) return { text: decode(bytes, fromHeader), charset: fromHeader, source: 'header' };
  const fromRule = charsetRule(bytes);
  const encoding = fromRule === undefined ? DEFAULT_ENCODING : fromRule === 'utf-16be' || fromRule === 'utf-16le' ? 'utf-8' : fromRule;
  return { text: decode(bytes, encoding), charset: encoding, source: fromRule === undefined ? 'default' : 'meta' };
}

/**
 * A Markdown text as text: a BOM, else the Content-Type charset (RFC 7763 §2 makes it
 * required), else UTF-8. No `<meta>` is sniffed: Markdown has no place for one.
 */
export function decodeMarkdown(bytes: Uint8Array, headerCharset: string | undefined): DecodedText {
  const bom = sniffBom(bytes);
  if (bom !== undefined) return { text: decode(bytes, bom), charset: bom, source: 'bom' };
  const fromHeader = headerCharset === undefined ? undefined : getEncoding(headerCharset);
  if (fromHeader !== undefined) return { text: decode(bytes, fromHeader), charset: fromHeader, source: 'header' };
  return { text: decode(bytes, DEFAULT_ENCODING), charset: DEFAULT_ENCODING, source: 'default' };
}

/** CSS Syntax 3 §3.2: the label of `@charset "label";` when the bytes start with exactly that. */
function charsetRule(bytes: Uint8Array): string | undefined {
  const PREFIX = '@charset "';
  for (let i = 0; i < PREFIX.length; i++) if (bytes[i] !== PREFIX.charCodeAt(i)) return undefined;
  for (let end = PREFIX.length; end < Math.min(bytes.length - 1, 1024); end++) {
    if (bytes[end] === 0x22) {
      if (bytes[end + 1] !== 0x3b) return undefined;
      return getEncoding(Buffer.from(bytes.subarray(PREFIX.length, end)).toString('latin1'));
    }
  }
  return undefined;
}

const decoders = new Map<string, TextDecoder>();

function decode(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'windows-1252' && !hasWindows1252) return decodeWindows1252(bytes);
  let decoder = decoders.get(encoding);
  if (decoder === undefined) {
    // ignoreBOM false: TextDecoder drops a BOM of its own encoding.
    decoder = new TextDecoder(encoding);
    decoders.set(encoding, decoder);
  }
  return decoder.decode(bytes);
}

/**
 * WHATWG Encoding index-windows-1252 for 0x80–0x9F (the rest is ISO-8859-1).
 * 0x81, 0x8D, 0x8F, 0x90 and 0x9D map to the C1 control of the same number.
 */
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

// Node 20's TextDecoder decodes windows-1252 (the encoding of the labels latin1,
// iso-8859-1, ascii, …) as ISO-8859-1: 0x80–0x9F come out as C1 controls, not
// "€", curly quotes or dashes. Checked once; the table below is used where it is wrong.
const hasWindows1252 = new TextDecoder('windows-1252').decode(Uint8Array.of(0x80)) === '\u20ac';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] ?? c);
}
