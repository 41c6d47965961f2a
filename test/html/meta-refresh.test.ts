import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMetaRefresh } from '../../src/html/index.js';

describe('parseMetaRefresh (HTML "shared declarative refresh steps")', () => {
  it.each([
    ['5', 5, undefined],
    ['0; url=/next', 0, '/next'],
    ['0;URL=/next', 0, '/next'],
    ['0,url=/next', 0, '/next'],
    ['0 url=/next', 0, '/next'],
    ['3; Url = /spaced ', 3, '/spaced '],
    ["1; url='/single' trailing", 1, '/single'],
    ['1; url="/double"', 1, '/double'],
    ['1; url="/unclosed', 1, '/unclosed'],
    ['1; "/quoted-without-url"', 1, '/quoted-without-url'],
    ['1; /no-prefix', 1, '/no-prefix'],
    ['1; urlx', 1, 'urlx'], // "url" without "=": the whole rest is the URL
    ['1; ur', 1, 'ur'],
    ['1; u', 1, 'u'],
    ['1; url=', 1, ''],
    ['1; url= ', 1, ''],
    ['  7.25 ,  x', 7, 'x'],
    ['.5; url=/half', 0, '/half'],
    ['5.; url=/dot', 5, '/dot'],
    ['1.2.3;url=/dots', 1, '/dots'],
    ['007', 7, undefined],
    ['2 ;', 2, undefined],
    ['99999999999999999999; url=/big', 1e20, '/big'],
  ])('%j → delay %j, url %j', (content, delay, url) => {
    expect(parseMetaRefresh(content)).toEqual({ delay, url });
  });

  it.each(['', ' ', 'x', 'soon; url=/x', '-1; url=/x', '+1', '; url=/x', '1x; url=/x', '1:url=/x'])(
    '%j is ignored (no leading delay, or a bad separator)',
    (content) => {
      expect(parseMetaRefresh(content)).toBeUndefined();
    },
  );

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '.', ';', ',', ' ', 'u', 'R', 'l', '=', "'", '"', 'x') }), (content) => {
        expect(() => parseMetaRefresh(content)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});
