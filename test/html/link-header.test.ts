import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLinkHeader } from '../../src/html/index.js';

describe('parseLinkHeader (RFC 8288 §3, Appendix B)', () => {
  it('reads one link with its target, relation types and parameters', () => {
    expect(parseLinkHeader('<https://example.com/page/2>; rel="next"')).toEqual([
      { target: 'https://example.com/page/2', rel: ['next'], anchor: undefined, params: [{ name: 'rel', value: 'next' }] },
    ]);
  });

  it('reads several links, separated by commas, with OWS anywhere allowed', () => {
    const links = parseLinkHeader('</a>;rel=prev , </b> ;  rel = next,</c>');
    expect(links.map((l) => [l.target, l.rel])).toEqual([
      ['/a', ['prev']],
      ['/b', ['next']],
      ['/c', []],
    ]);
  });

  it('splits rel into lower-cased relation types and keeps only the first rel', () => {
    const [link] = parseLinkHeader('</x>; rel="Canonical  alternate\tNEXT"; rel=ignored');
    expect(link?.rel).toEqual(['canonical', 'alternate', 'next']);
    expect(link?.params.map((p) => p.name)).toEqual(['rel', 'rel']);
  });

  it('unquotes quoted strings, with backslash escapes, commas and semicolons inside', () => {
    const [link] = parseLinkHeader('</x>; title="a \\"quoted\\" title, with; punctuation"; type=text/html');
    expect(link?.params).toEqual([
      { name: 'title', value: 'a "quoted" title, with; punctuation' },
      { name: 'type', value: 'text/html' },
    ]);
  });

  it('lower-cases parameter names, keeps parameters without a value, reads anchor', () => {
    const [link] = parseLinkHeader('</x>; REL=up; Anchor="#sec"; crossorigin; HrefLang=de');
    expect(link).toEqual({
      target: '/x',
      rel: ['up'],
      anchor: '#sec',
      params: [
        { name: 'rel', value: 'up' },
        { name: 'anchor', value: '#sec' },
        { name: 'crossorigin', value: '' },
        { name: 'hreflang', value: 'de' },
      ],
    });
  });

  it('decodes RFC 8187 ext-values (title*)', () => {
    const [link] = parseLinkHeader("</x>; title*=UTF-8'de'n%c3%a4chstes%20Kapitel; t2*=iso-8859-1''%E4; t3*=koi8-r''%E4; t4*=UTF-8''%ff");
    expect(link?.params).toEqual([
      { name: 'title*', value: 'nächstes Kapitel' },
      { name: 't2*', value: 'ä' },
      { name: 't3*', value: "koi8-r''%E4" }, // unknown charset: as written
      { name: 't4*', value: "UTF-8''%ff" }, // not UTF-8: as written
    ]);
  });

  it('keeps the target as written, commas and semicolons included', () => {
    expect(parseLinkHeader('<http://a/b;c,d?e=f,g>; rel=x')[0]?.target).toBe('http://a/b;c,d?e=f,g');
    expect(parseLinkHeader('<>; rel=self')[0]?.target).toBe('');
  });

  it('DEVIATION(RFC 8288 B.2 step 2.2) skips garbage and goes on with the next link-value', () => {
    const value = 'garbage, </ok>; rel=a, "quoted, junk", <unterminated; rel=b';
    expect(parseLinkHeader(value).map((l) => l.target)).toEqual(['/ok']);
    expect(parseLinkHeader('</a>; rel=x junk junk, </b>').map((l) => [l.target, l.rel])).toEqual([
      ['/a', ['x', 'junk', 'junk']],
      ['/b', []],
    ]);
    expect(parseLinkHeader('</a> trailing, </b>').map((l) => l.target)).toEqual(['/a', '/b']);
    expect(parseLinkHeader('</a>; ; =x; rel=ok').map((l) => l.params)).toEqual([
      [
        { name: 'rel', value: 'ok' },
      ],
    ]);
  });

  it.each(['', ' ', ',', ',,,', ';', '<', '>', '"', '\\', ';rel=x', 'rel=next', '</a>; title="unclosed'])(
    'returns what it can from %j without throwing',
    (value) => {
      expect(() => parseLinkHeader(value)).not.toThrow();
    },
  );

  it('an unclosed quoted string runs to the end', () => {
    expect(parseLinkHeader('</a>; title="unclosed, </b>')[0]?.params).toEqual([{ name: 'title', value: 'unclosed, </b>' }]);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', ';', ',', '=', '"', '\\', ' ', 'a', 'rel', '*', "'", '%') }), (value) => {
        for (const link of parseLinkHeader(value)) expect(typeof link.target).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });
});
