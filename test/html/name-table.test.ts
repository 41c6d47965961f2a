import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameTable } from '../../src/html/name-table.js';

const NAMES = ['a', 'href', 'http-equiv', 'annotation-xml', 'k', 'link', 'srcset', 'id'];

describe('NameTable', () => {
  const table = new NameTable(NAMES);

  it('finds a name in place, up to ASCII case, and returns the table’s own string', () => {
    const text = 'xx<HrEf>';
    expect(table.find(text, 3, 7)).toBe('href');
    expect(table.find(text, 3, 6)).toBeUndefined();
    expect(table.find('HTTP-EQUIV', 0, 10)).toBe('http-equiv');
    expect(table.find('', 0, 0)).toBeUndefined();
  });

  it('agrees with String#toLowerCase beyond ASCII (U+212A KELVIN SIGN lower-cases to "k")', () => {
    expect(table.find('lin\u212A', 0, 4)).toBe('link');
    expect(table.find('\u212A', 0, 1)).toBe('k');
    expect(table.find('\u0130d', 0, 2)).toBeUndefined();
  });

  it('finds exactly the ranges whose toLowerCase() is one of its names', () => {
    const piece = fc.oneof(
      fc.constantFrom(...NAMES, ...NAMES.map((name) => name.toUpperCase()), 'hre', 'hreff', '\u212A', 'ı', 'İ'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 4 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        const start = Math.min(a, b) % (text.length + 1);
        const end = start + (Math.max(a, b) % (text.length - start + 1));
        const lower = text.slice(start, end).toLowerCase();
        expect(table.find(text, start, end)).toBe(NAMES.includes(lower) ? lower : undefined);
        expect(table.get(lower)).toBe(NAMES.includes(lower) ? lower : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
