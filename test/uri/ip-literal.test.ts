import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv6ToCanonicalText, isIPv4Address, isIPv6Address, scanIPv6Address } from '../../src/uri/index.js';
import { ipv6 } from '../support/arbitraries.js';

describe('IP literals (RFC 3986 §3.2.2, RFC 5952)', () => {
  it('accepts only dotted-decimal dec-octets as IPv4address', () => {
    for (const ok of ['0.0.0.0', '255.255.255.255', '192.0.2.16', '10.0.0.1']) expect(isIPv4Address(ok), ok).toBe(true);
    for (const bad of ['256.1.1.1', '01.1.1.1', '1.1.1', '1.1.1.1.', '0x7f.1', '2130706433', '1..1.1', ''])
      expect(isIPv4Address(bad), bad).toBe(false);
  });

  it.each([
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8::0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['1:0:0:0:0:0:0:0', '1::'],
    ['0:0:0:0:0:ffff:c000:0201', '::ffff:192.0.2.1'],
    ['::192.0.2.1', '::c000:201'],
    ['2001:db8:1f70::999:de8:7648:6e8', '2001:db8:1f70:0:999:de8:7648:6e8'],
  ])('writes %s as %s (RFC 5952 §4, §5)', (input, expected) => {
    expect(ipv6ToCanonicalText(input)).toBe(expected);
  });

  it('canonical text denotes the same address, is itself canonical, and matches the grammar', () => {
    fc.assert(
      fc.property(ipv6, ({ text, pieces }) => {
        expect(isIPv6Address(text)).toBe(true);
        const canonical = ipv6ToCanonicalText(text)!;
        const reparsed: number[] = [];
        expect(scanIPv6Address(canonical, 0, canonical.length, reparsed)).toBe(-1);
        expect(reparsed).toEqual(pieces);
        expect(ipv6ToCanonicalText(canonical)).toBe(canonical);
      }),
      { numRuns: 3000 },
    );
  });
});
