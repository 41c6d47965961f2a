// RFC 3986 §2.1 percent-encoding, §2.4 when to encode and decode, §6.2.2.1–2
// their normalization. Percent-encoding is byte-oriented: characters outside
// ASCII are encoded as their UTF-8 octets (RFC 3986 §2.5, RFC 3987 §3.1).

import { CHAR_CLASS, hexValue, isUnreservedOctet } from './char-tables.js';

const PERCENT = 0x25;
const HEX_UPPER = '0123456789ABCDEF';

/** "%XX" for one octet, with upper-case hex digits (§2.1). */
export function percentEncodeOctet(byte: number): string {
  return '%' + HEX_UPPER[byte >> 4]! + HEX_UPPER[byte & 15]!;
}

/**
 * RFC 3986 §6.2.2.1 and §6.2.2.2: upper-case the hex digits of every triplet and
 * decode the triplets of unreserved octets. Reserved octets stay encoded (decoding
 * `%2F` would change the hierarchy). A "%" that does not start a triplet is kept.
 */
export function normalizePercentEncoding(component: string): string {
  let i = component.indexOf('%');
  if (i === -1) return component;
  let out = '';
  let copiedTo = 0;
  const n = component.length;
  while (i !== -1) {
    if (i + 2 < n) {
      const c1 = component.charCodeAt(i + 1);
      const c2 = component.charCodeAt(i + 2);
      const hi = hexValue(c1);
      const lo = hexValue(c2);
      if (hi >= 0 && lo >= 0) {
        const byte = (hi << 4) | lo;
        if (isUnreservedOctet(byte)) {
          out += component.slice(copiedTo, i) + String.fromCharCode(byte);
          copiedTo = i + 3;
        } else if ((c1 >= 0x61 && c1 <= 0x66) || (c2 >= 0x61 && c2 <= 0x66)) {
          out += component.slice(copiedTo, i) + percentEncodeOctet(byte);
          copiedTo = i + 3;
        }
        i = component.indexOf('%', i + 3);
        continue;
      }
    }
    i = component.indexOf('%', i + 1);
  }
  return copiedTo === 0 ? component : out + component.slice(copiedTo);
}

/**
 * Percent-encode every character of `text` that is not in the character classes
 * `allowedMask` (see char-tables), as UTF-8 octets. A "%" already starting a valid
 * triplet is kept when `keepTriplets` is true. Lone surrogates become U+FFFD.
 */
export function percentEncode(text: string, allowedMask: number, keepTriplets = true): string {
  let out = '';
  let copiedTo = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((CHAR_CLASS[c]! & allowedMask) !== 0) continue;
      if (
        keepTriplets &&
        c === PERCENT &&
        hexValue(text.charCodeAt(i + 1)) >= 0 &&
        hexValue(text.charCodeAt(i + 2)) >= 0
      ) {
        i += 2;
        continue;
      }
    }
    const codePoint = text.codePointAt(i)!;
    out += text.slice(copiedTo, i) + utf8PercentEncode(codePoint);
    if (codePoint > 0xffff) i++;
    copiedTo = i + 1;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** The UTF-8 octets of one code point, each as "%XX" (a lone surrogate as U+FFFD). */
export function utf8PercentEncode(codePoint: number): string {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) codePoint = 0xfffd;
  if (codePoint < 0x80) return percentEncodeOctet(codePoint);
  if (codePoint < 0x800) {
    return percentEncodeOctet(0xc0 | (codePoint >> 6)) + percentEncodeOctet(0x80 | (codePoint & 63));
  }
  if (codePoint < 0x10000) {
    return (
      percentEncodeOctet(0xe0 | (codePoint >> 12)) +
      percentEncodeOctet(0x80 | ((codePoint >> 6) & 63)) +
      percentEncodeOctet(0x80 | (codePoint & 63))
    );
  }
  return (
    percentEncodeOctet(0xf0 | (codePoint >> 18)) +
    percentEncodeOctet(0x80 | ((codePoint >> 12) & 63)) +
    percentEncodeOctet(0x80 | ((codePoint >> 6) & 63)) +
    percentEncodeOctet(0x80 | (codePoint & 63))
  );
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decode every triplet of `component` and read the octets as UTF-8 (§2.5).
 * Returns `undefined` when the octets are not well-formed UTF-8.
 */
export function percentDecodeUtf8(component: string): string | undefined {
  if (component.indexOf('%') === -1) return component;
  const bytes: number[] = [];
  for (let i = 0; i < component.length; i++) {
    const c = component.charCodeAt(i);
    if (c === PERCENT) {
      const hi = hexValue(component.charCodeAt(i + 1));
      const lo = hexValue(component.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        bytes.push((hi << 4) | lo);
        i += 2;
        continue;
      }
    }
    if (c >= 128) return undefined;
    bytes.push(c);
  }
  try {
    return UTF8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
