import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { urlDifference } from '../../src/ladder/index.js';

describe('urlDifference: the segment-aligned prefixes two URLs differ in', () => {
  it.each([
    ['a language folder against none', 'http://h/manual/de/x.html.en', 'http://h/manual/x.html.en', '/manual/de/', '/manual/', 'x.html.en'],
    ['two language folders, deeper', 'http://h/manual/de/mod/core.html', 'http://h/manual/en/mod/core.html', '/manual/de/', '/manual/en/', 'mod/core.html'],
    ['the last segment', 'http://h/manual/x.html', 'http://h/manual/x.html.en', '/manual/x.html', '/manual/x.html.en', ''],
    ['a trailing slash shared', 'http://h/a/', 'http://h/b/', '/a/', '/b/', ''],
    ['another host', 'http://a.example/x/y', 'http://b.example/x/y', 'http://a.example/', 'http://b.example/', 'x/y'],
    ['a shared query', 'http://h/p?lang=1', 'http://h/q?lang=1', '/p', '/q', '?lang=1'],
    ['a query that differs', 'http://h/p?lang=de', 'http://h/p?lang=en', '/p?lang=de', '/p?lang=en', ''],
    ['the root against a page', 'http://h/', 'http://h/index.html', '/', '/index.html', ''],
  ])('%s', (_name, a, b, from, to, suffix) => {
    expect(urlDifference(a, b)).toEqual({ from, to, suffix });
    expect(urlDifference(b, a)).toEqual({ from: to, to: from, suffix });
  });

  it('says nothing of a URL against itself', () => {
    expect(urlDifference('http://h/x', 'http://h/x')).toBeUndefined();
  });

  it('never takes the first segment of a path into the suffix', () => {
    expect(urlDifference('http://a/x', 'http://b/x')).toEqual({ from: 'http://a/', to: 'http://b/', suffix: 'x' });
  });

  const segment = fc.stringMatching(/^[a-z.]{0,3}$/);
  const url = fc.tuple(fc.constantFrom('http://h', 'https://h', 'http://g'), fc.array(segment, { minLength: 1, maxLength: 4 })).map(([origin, segs]) => `${origin}/${segs.join('/')}`);

  it('splits each URL into its prefix and the shared suffix (property)', () => {
    fc.assert(
      fc.property(url, url, (a, b) => {
        const difference = urlDifference(a, b);
        if (a === b) {
          expect(difference).toBeUndefined();
          return;
        }
        const { from, to, suffix } = difference!;
        expect(a.endsWith(from + suffix)).toBe(true);
        expect(b.endsWith(to + suffix)).toBe(true);
        // Segment-aligned: the prefixes end where a segment ends (or hold the whole path).
        expect(suffix === '' || (from.endsWith('/') && to.endsWith('/'))).toBe(true);
        expect(from).not.toBe(to);
        expect(urlDifference(b, a)).toEqual({ from: to, to: from, suffix });
      }),
    );
  });
});
