// RFC 3986 §2 and Appendix A: the character classes of the generic syntax.
// One byte of flags per ASCII code point; a component accepts a character when
// `(CHAR_CLASS[c] & MASK) !== 0`. Code points >= 128 are never allowed in a URI.

/** unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
export const UNRESERVED = 1;
/** sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" */
export const SUB_DELIMS = 2;
/** ":" */
export const COLON = 4;
/** "@" */
export const AT = 8;
/** "/" */
export const SLASH = 16;
/** "?" */
export const QUESTION = 32;
/** HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F" (case-insensitive in ABNF) */
export const HEXDIG = 64;
/** scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) — the characters after the first */
export const SCHEME_CHAR = 128;

/** pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (pct-encoded checked apart) */
export const PCHAR = UNRESERVED | SUB_DELIMS | COLON | AT;
/** segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" ) */
export const SEGMENT_NZ_NC = UNRESERVED | SUB_DELIMS | AT;
/** path-* = segments of pchar separated by "/" */
export const PATH = PCHAR | SLASH;
/** query = *( pchar / "/" / "?" ); fragment = *( pchar / "/" / "?" ) */
export const QUERY = PCHAR | SLASH | QUESTION;
/** userinfo = *( unreserved / pct-encoded / sub-delims / ":" ) */
export const USERINFO = UNRESERVED | SUB_DELIMS | COLON;
/** reg-name = *( unreserved / pct-encoded / sub-delims ) */
export const REG_NAME = UNRESERVED | SUB_DELIMS;
/** IPvFuture tail: 1*( unreserved / sub-delims / ":" ) */
export const IPVFUTURE_TAIL = UNRESERVED | SUB_DELIMS | COLON;

const ALPHA_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGIT_CHARS = '0123456789';

function buildCharClass(): Uint8Array {
  const table = new Uint8Array(128);
  const mark = (chars: string, flag: number): void => {
    for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)]! |= flag;
  };
  mark(ALPHA_CHARS + DIGIT_CHARS + '-._~', UNRESERVED);
  mark("!$&'()*+,;=", SUB_DELIMS);
  mark(':', COLON);
  mark('@', AT);
  mark('/', SLASH);
  mark('?', QUESTION);
  mark(DIGIT_CHARS + 'ABCDEFabcdef', HEXDIG);
  mark(ALPHA_CHARS + DIGIT_CHARS + '+-.', SCHEME_CHAR);
  return table;
}

/** Flags of each ASCII code point. */
export const CHAR_CLASS: Uint8Array = buildCharClass();

/** Whether code unit `c` belongs to one of the classes in `mask`. */
export function isInClass(c: number, mask: number): boolean {
  return c < 128 && (CHAR_CLASS[c]! & mask) !== 0;
}

/** ALPHA = %x41-5A / %x61-7A */
export function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** DIGIT = %x30-39 */
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Value of a HEXDIG code unit, or -1. */
export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** Whether the octet `byte` is an unreserved character (RFC 3986 §2.3). */
export function isUnreservedOctet(byte: number): boolean {
  return byte < 128 && (CHAR_CLASS[byte]! & UNRESERVED) !== 0;
}
