import { describe, expect, it } from 'vitest';
import { iriToUri, tryIriToUri, UriError } from '../../src/entry/uri.js';
import { parseUriReference } from '../../src/uri/index.js';

describe('iriToUri (RFC 3987 §3.1)', () => {
  it('percent-encodes non-ASCII characters as UTF-8 and leaves ASCII alone', () => {
    expect(iriToUri('http://example.com/résumé?q=ü#ß')).toBe('http://example.com/r%C3%A9sum%C3%A9?q=%C3%BC#%C3%9F');
    expect(iriToUri('http://münchen.de/')).toBe('http://m%C3%BCnchen.de/');
    expect(iriToUri('http://a/😀')).toBe('http://a/%F0%9F%98%80');
    expect(iriToUri('plain ascii')).toBe('plain ascii');
  });

  it('gives a valid URI for an IRI', () => {
    const uri = iriToUri('https://例え.jp/パス?クエリ#断片');
    expect(parseUriReference(uri).ok).toBe(true);
  });

  it('rejects lone surrogates with their index', () => {
    expect(tryIriToUri('a\ud800b')).toEqual({ ok: false, error: { code: 'ERR_URI_BAD_IRI', index: 1 } });
    expect(tryIriToUri('ab\udc00')).toEqual({ ok: false, error: { code: 'ERR_URI_BAD_IRI', index: 2 } });
    expect(() => iriToUri('\ud800')).toThrow(UriError);
  });
});
