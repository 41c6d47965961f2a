// RFC 3986 §3.2.2: IPv4address, IPv6address and IPvFuture, and the RFC 5952
// text form of an IPv6 address. Validators return -1 when the text matches the
// rule, else the index of the first character that breaks it.

import { hexValue, isDigit, isInClass, IPVFUTURE_TAIL, HEXDIG } from './char-tables.js';

const NO_ERROR = -1;
const DOT = 0x2e;
const COLON = 0x3a;

/**
 * RFC 3986 §3.2.2
 * IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
 * dec-octet   = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
 *
 * Checks `s[start, end)`; writes the four octets to `octets` when given.
 */
export function scanIPv4Address(s: string, start: number, end: number, octets?: number[]): number {
  let i = start;
  for (let part = 0; part < 4; part++) {
    if (part > 0) {
      if (i >= end || s.charCodeAt(i) !== DOT) return i;
      i++;
    }
    const octetStart = i;
    let value = 0;
    while (i < end && isDigit(s.charCodeAt(i))) {
      // A leading zero is a whole dec-octet: "01" is not one.
      if (i > octetStart && value === 0) return i;
      value = value * 10 + (s.charCodeAt(i) - 0x30);
      if (value > 255) return i;
      i++;
    }
    if (i === octetStart) return i;
    if (octets) octets[part] = value;
  }
  return i === end ? NO_ERROR : i;
}

/** Whether `text` is an IPv4address (dotted-decimal, no leading zeros). */
export function isIPv4Address(text: string): boolean {
  return scanIPv4Address(text, 0, text.length) === NO_ERROR;
}

/**
 * RFC 3986 §3.2.2 IPv6address: the nine ABNF alternatives, which come down to
 * eight 16-bit pieces written as h16 = 1*4HEXDIG, the last two of which may be an
 * IPv4address (ls32), with at most one "::" standing for one or more zero pieces.
 *
 * Checks `s[start, end)`; writes the eight pieces to `pieces` when given.
 */
export function scanIPv6Address(s: string, start: number, end: number, pieces?: number[]): number {
  const written: number[] = [];
  let compressAt = -1;
  let i = start;
  if (i < end && s.charCodeAt(i) === COLON) {
    if (i + 1 >= end || s.charCodeAt(i + 1) !== COLON) return i + 1;
    compressAt = 0;
    i += 2;
  }
  while (i < end) {
    const room = compressAt >= 0 ? 7 - written.length : 8 - written.length;
    if (room <= 0) return i;
    const pieceStart = i;
    let value = 0;
    let digits = 0;
    while (i < end && digits < 4) {
      const v = hexValue(s.charCodeAt(i));
      if (v < 0) break;
      value = value * 16 + v;
      i++;
      digits++;
    }
    if (digits === 0) return i;
    if (i < end && s.charCodeAt(i) === DOT) {
      // ls32 = ( h16 ":" h16 ) / IPv4address — only in the last two pieces.
      const octets = [0, 0, 0, 0];
      const bad = scanIPv4Address(s, pieceStart, end, octets);
      if (bad !== NO_ERROR) return bad;
      if (compressAt < 0 ? written.length !== 6 : room < 2) return pieceStart;
      written.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
      i = end;
      break;
    }
    written.push(value);
    if (i === end) break;
    // Eight pieces, or seven beside a "::" (which stands for at least one), are all there is.
    if (s.charCodeAt(i) !== COLON || written.length >= (compressAt >= 0 ? 7 : 8)) return i;
    i++;
    if (i < end && s.charCodeAt(i) === COLON) {
      if (compressAt >= 0) return i;
      compressAt = written.length;
      i++;
    } else if (i === end) {
      return i;
    }
  }
  if (compressAt < 0 && written.length !== 8) return end;
  if (pieces) {
    const zeros = 8 - written.length;
    pieces.length = 0;
    for (let k = 0; k < written.length; k++) {
      if (k === compressAt) for (let z = 0; z < zeros; z++) pieces.push(0);
      pieces.push(written[k]!);
    }
    if (compressAt === written.length) for (let z = 0; z < zeros; z++) pieces.push(0);
  }
  return NO_ERROR;
}

/** Whether `text` is an IPv6address (without brackets). */
export function isIPv6Address(text: string): boolean {
  return scanIPv6Address(text, 0, text.length) === NO_ERROR;
}

/**
 * RFC 3986 §3.2.2
 * IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
 */
export function scanIPvFuture(s: string, start: number, end: number): number {
  let i = start;
  if (i >= end || (s.charCodeAt(i) | 0x20) !== 0x76) return i;
  i++;
  const versionStart = i;
  while (i < end && isInClass(s.charCodeAt(i), HEXDIG)) i++;
  if (i === versionStart || i >= end || s.charCodeAt(i) !== DOT) return i;
  i++;
  const tailStart = i;
  while (i < end && isInClass(s.charCodeAt(i), IPVFUTURE_TAIL)) i++;
  if (i === tailStart || i !== end) return i;
  return NO_ERROR;
}

/**
 * RFC 3986 §3.2.2
 * IP-literal = "[" ( IPv6address / IPvFuture ) "]"
 * Checks the text between the brackets, `s[start, end)`.
 */
export function scanIPLiteralBody(s: string, start: number, end: number): number {
  if (start < end && (s.charCodeAt(start) | 0x20) === 0x76) return scanIPvFuture(s, start, end);
  return scanIPv6Address(s, start, end);
}

const IPV4_MAPPED_PREFIX = [0, 0, 0, 0, 0, 0xffff];

/**
 * RFC 5952 §4: the one text form of an IPv6 address — lower-case hex, no leading
 * zeros, the longest run (the first of equal runs) of two or more zero pieces as
 * "::"; §5: an IPv4-mapped address keeps its dotted tail (`::ffff:192.0.2.1`).
 * Returns `undefined` when `text` (without brackets) is not an IPv6address.
 */
export function ipv6ToCanonicalText(text: string): string | undefined {
  const pieces: number[] = [];
  if (scanIPv6Address(text, 0, text.length, pieces) !== NO_ERROR) return undefined;
  const isMapped = IPV4_MAPPED_PREFIX.every((v, k) => pieces[k] === v);
  const hexCount = isMapped ? 6 : 8;
  let bestStart = -1;
  let bestLength = 1;
  for (let k = 0; k < hexCount; ) {
    if (pieces[k] !== 0) {
      k++;
      continue;
    }
    let run = k;
    while (run < hexCount && pieces[run] === 0) run++;
    if (run - k > bestLength) {
      bestStart = k;
      bestLength = run - k;
    }
    k = run;
  }
  let out = '';
  for (let k = 0; k < hexCount; k++) {
    if (k === bestStart) {
      out += '::';
      k += bestLength - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += pieces[k]!.toString(16);
  }
  if (isMapped) {
    if (!out.endsWith(':')) out += ':';
    out += `${pieces[6]! >> 8}.${pieces[6]! & 255}.${pieces[7]! >> 8}.${pieces[7]! & 255}`;
  }
  return out;
}
