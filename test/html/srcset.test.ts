import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSrcset } from '../../src/html/index.js';

const urls = (value: string): string[] => parseSrcset(value).map((c) => c.url);

describe('parseSrcset (HTML "parse a srcset attribute")', () => {
  it('splits candidates at commas and reads the descriptors', () => {
    expect(parseSrcset('a.png 1x, b.png 2x')).toEqual([
      { url: 'a.png', descriptors: ['1x'], offset: 0 },
      { url: 'b.png', descriptors: ['2x'], offset: 10 },
    ]);
    expect(parseSrcset('small.jpg 480w, large.jpg 1080w 720h')).toEqual([
      { url: 'small.jpg', descriptors: ['480w'], offset: 0 },
      { url: 'large.jpg', descriptors: ['1080w', '720h'], offset: 16 },
    ]);
    expect(parseSrcset('only.png')).toEqual([{ url: 'only.png', descriptors: [], offset: 0 }]);
  });

  it('keeps commas inside a URL: only a comma followed by whitespace, or ending the URL, splits', () => {
    expect(urls('img,2x.png 2x')).toEqual(['img,2x.png']);
    expect(urls('a.png,b.png 1x')).toEqual(['a.png,b.png']);
    expect(urls('data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x')).toEqual(['data:image/png;base64,iVBORw0KGgo=', 'b.png']);
    expect(urls('/r?w=1,h=2 1x,/s?x=3 2x')).toEqual(['/r?w=1,h=2', '/s?x=3']);
  });

  it('ends a candidate at a URL with trailing commas, which are dropped', () => {
    expect(parseSrcset('a.png,, b.png')).toEqual([
      { url: 'a.png', descriptors: [], offset: 0 },
      { url: 'b.png', descriptors: [], offset: 8 },
    ]);
    expect(urls('a.png,')).toEqual(['a.png']);
  });

  it('skips leading and repeated separators and whitespace of every kind', () => {
    expect(urls(' ,\t,\n a.png \f 1x \r, ,, b.png ')).toEqual(['a.png', 'b.png']);
    expect(urls('')).toEqual([]);
    expect(urls(' , , ')).toEqual([]);
  });

  it('keeps a comma inside parentheses in the descriptors (future-compatible syntax)', () => {
    // the descriptor "(x, y)" is invalid, so the candidate is dropped, but the comma does not split
    expect(urls('a.png (x, y), b.png 2x')).toEqual(['b.png']);
    expect(urls('a.png 1x (unclosed, b.png')).toEqual([]);
  });

  it('drops candidates whose descriptors are invalid (step 13)', () => {
    const dropped = [
      'a.png 1q',
      'a.png 1x 2x',
      'a.png 100w 1x',
      'a.png 100w 100w',
      'a.png 0w',
      'a.png -1w',
      'a.png 1.5w',
      'a.png 10h',
      'a.png 100w 0h',
      'a.png 1x 10h',
      'a.png -1x',
      'a.png 1.x',
      'a.png .x',
      'a.png x',
      'a.png 1X',
      'a.png 1e',
    ];
    for (const value of dropped) expect(urls(value), value).toEqual([]);
    const kept = ['a.png 0x', 'a.png 1.5x', 'a.png .5x', 'a.png 1e2x', 'a.png 2E-1x', 'a.png -0x', 'a.png 100w 50h', 'a.png 007w'];
    for (const value of kept) expect(urls(value), value).toEqual(['a.png']);
    expect(urls('bad.png 1q, good.png 1x')).toEqual(['good.png']);
  });

  it('never throws and never returns an empty or whitespace-holding URL', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ',', ' ', '\t', '(', ')', '1', 'x', 'w', 'h', '.', '-') }), (value) => {
        for (const candidate of parseSrcset(value)) {
          expect(candidate.url).not.toBe('');
          expect(candidate.url).not.toMatch(/[\t\n\f\r ]/);
          expect(candidate.url.endsWith(',')).toBe(false);
          // The offset places the URL in the input.
          expect(value.startsWith(candidate.url, candidate.offset)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
