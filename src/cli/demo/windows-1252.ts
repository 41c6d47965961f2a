// WHATWG Encoding Standard, windows-1252 (the encoding behind the labels
// "windows-1252", "latin1" and "iso-8859-1"), encoder only: the demo site serves
// one page in it. Bytes 00–7F are ASCII and A0–FF are U+00A0–U+00FF; 80–9F are
// the table below (index-windows-1252.txt). Not read back from Node's
// TextDecoder: Node 20 decodes 80–9F as U+0080–U+009F, as ISO-8859-1 would.

/** Byte 0x80 + i → its code point (index-windows-1252). */
const BYTES_80_TO_9F: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

const FROM_C1 = new Map(BYTES_80_TO_9F.map((codePoint, i) => [codePoint, 0x80 + i]));

/**
 * Encode `text` as windows-1252 bytes. Throws `RangeError` for a character the
 * encoding lacks: the demo site's own text is fixed, so that is a bug in it.
 */
export function encodeWindows1252(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const byte = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : FROM_C1.get(c);
    if (byte === undefined) {
      throw new RangeError(`windows-1252 has no byte for U+${c.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    bytes[i] = byte;
  }
  return bytes;
}
