import { describe, expect, it } from 'vitest';
import { AliasMap, compare, tryCompare, UriError } from '../../src/entry/uri.js';

describe('compare (RFC 3986 §6.2): the lowest rung at which two URIs meet', () => {
  it.each([
    ['http://host/b', 'http://host/b', 'string'],
    ['http://host/a/../b', 'http://host/b', 'syntax'],
    ['http://host/B%2e', 'http://host/B.', 'syntax'],
    ['HTTP://HOST/b', 'http://host/b', 'syntax'],
    ['http://host:80/b', 'http://host/b', 'scheme'],
    ['http://host', 'http://host/', 'scheme'],
    ['http://host/b#x', 'http://host/b', null],
    ['http://host/b', 'https://host/b', null],
    ['http://host/b?', 'http://host/b', null],
    ['http://host/%2F', 'http://host//', null],
  ] as const)('%s vs %s → %s', (a, b, rung) => {
    expect(compare(a, b)).toEqual({ equivalent: rung !== null, rung });
    expect(compare(b, a)).toEqual({ equivalent: rung !== null, rung });
  });

  it('climbs to the protocol rung with server evidence, following chains', () => {
    const aliases = new AliasMap();
    aliases.add({ from: 'http://host/a', to: 'http://host/a/', evidence: 'redirect', detail: '301' });
    aliases.add({ from: 'http://host/a/', to: 'http://host/a/index.html.en', evidence: 'content-location' });
    expect(compare('http://HOST/a', 'http://host/a/index.html.en#top', { aliases })).toEqual({
      equivalent: false,
      rung: null,
    });
    expect(compare('http://HOST:80/a#top', 'http://host/a/index.html.en#top', { aliases })).toEqual({
      equivalent: true,
      rung: 'protocol',
    });
    expect(compare('http://host/a', 'http://host/a/', {})).toEqual({ equivalent: false, rung: null });
  });

  it('names the invalid argument', () => {
    expect(tryCompare('http://a', 'http://a b')).toEqual({
      ok: false,
      error: { code: 'ERR_URI_BAD_HOST', index: 8, subject: 'b' },
    });
    expect(() => compare('a b', 'x')).toThrow(UriError);
  });
});
