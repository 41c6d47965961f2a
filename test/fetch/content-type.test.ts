import { describe, expect, it } from 'vitest';
import { isHtmlMediaType, parseContentEncoding, parseContentType } from '../../src/fetch/index.js';

describe('parseContentType (RFC 9110 §8.3), lenient', () => {
  it.each([
    ['text/html', 'text/html', undefined],
    ['Text/HTML; Charset=UTF-8', 'text/html', 'UTF-8'],
    ['text/html;charset="iso-8859-1"', 'text/html', 'iso-8859-1'],
    ['text/html; foo=bar; charset=shift_jis ; x=y', 'text/html', 'shift_jis'],
    ['text/html; charset="a\\"b"', 'text/html', 'a"b'],
    ['text/html; charset="unterminated', 'text/html', 'unterminated'],
    ['text/html; charset=', 'text/html', undefined],
    ['  application/xhtml+xml  ', 'application/xhtml+xml', undefined],
    ['html', undefined, undefined],
    ['', undefined, undefined],
    ['; charset=utf-8', undefined, 'utf-8'],
  ])('%j → %s, %s', (value, mediaType, charset) => {
    expect(parseContentType(value)).toEqual({ mediaType, charset });
  });

  it('no header: nothing', () => {
    expect(parseContentType(undefined)).toEqual({ mediaType: undefined, charset: undefined });
  });

  it('only text/html and application/xhtml+xml are HTML', () => {
    expect(isHtmlMediaType('text/html')).toBe(true);
    expect(isHtmlMediaType('application/xhtml+xml')).toBe(true);
    for (const other of ['text/plain', 'image/png', 'application/xml', 'text/xml', undefined]) {
      expect(isHtmlMediaType(other)).toBe(false);
    }
  });
});

describe('parseContentEncoding (RFC 9110 §8.4)', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['identity', []],
    ['GZIP', ['gzip']],
    ['x-gzip', ['x-gzip']],
    ['deflate, br', ['deflate', 'br']],
    [' gzip ,identity, ', ['gzip']],
  ])('%j → %j', (value, codings) => {
    expect(parseContentEncoding(value)).toEqual(codings);
  });

  it.each(['zstd', 'compress', 'gzip, zstd', 'x-compress'])('%s is not undone', (value) => {
    expect(parseContentEncoding(value)).toBeUndefined();
  });
});
