import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  charTables,
  normalizePercentEncoding,
  percentDecodeUtf8,
  percentEncode,
  utf8PercentEncode,
} from '../../src/uri/index.js';

describe('percent-encoding (RFC 3986 §2.1, §2.4, §6.2.2.1–2)', () => {
  it.each([
    ['%7e%7E%41%2d%2E%5f%30', '~~A-._0'],
    ['%2f%2F%3a%40%25', '%2F%2F%3A%40%25'],
    ['%c3%a9', '%C3%A9'],
    ['a%zz%', 'a%zz%'],
    ['plain', 'plain'],
  ])('normalizes %j to %j: unreserved decoded, hex upper, reserved kept', (input, expected) => {
    expect(normalizePercentEncoding(input)).toBe(expected);
  });

  it('never decodes a reserved octet', () => {
    for (let byte = 0; byte < 256; byte++) {
      const triplet = '%' + byte.toString(16).padStart(2, '0');
      const out = normalizePercentEncoding(triplet);
      const isUnreserved = charTables.isUnreservedOctet(byte);
      expect(out).toBe(isUnreserved ? String.fromCharCode(byte) : triplet.toUpperCase());
    }
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('%', '2', 'e', 'E', 'f', 'a', '/', '7', 'x') }), (s) => {
        const once = normalizePercentEncoding(s);
        expect(normalizePercentEncoding(once)).toBe(once);
      }),
    );
  });

  it('encodes characters outside a class as UTF-8 triplets and keeps valid ones', () => {
    expect(percentEncode('a b/é?%41%', charTables.PATH)).toBe('a%20b/%C3%A9%3F%41%25');
    expect(percentEncode('😀', charTables.PATH)).toBe('%F0%9F%98%80');
    expect(utf8PercentEncode(0xd800)).toBe('%EF%BF%BD');
  });

  it('decodes triplets as UTF-8 and refuses ill-formed octets', () => {
    expect(percentDecodeUtf8('m%C3%BCnchen')).toBe('münchen');
    expect(percentDecodeUtf8('%C3')).toBeUndefined();
    expect(percentDecodeUtf8('%FF')).toBeUndefined();
  });

  it('round-trips any string through percentEncode and percentDecodeUtf8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(percentDecodeUtf8(percentEncode(s, charTables.UNRESERVED, false))).toBe(s);
      }),
    );
  });
});
