import { describe, expect, it } from 'vitest';
import { parseBase } from '../../src/uri/index.js';
import { resolveLocation, toRequestTarget } from '../../src/fetch/index.js';

function target(url: string) {
  const result = toRequestTarget(url);
  if (!result.ok) throw new Error(`not a target: ${url} (${result.code})`);
  return result.target;
}

function base(url: string) {
  const parsed = parseBase(url);
  if (!parsed.ok) throw new Error(url);
  return parsed.value;
}

describe('toRequestTarget', () => {
  it('splits origin and origin-form, normalizing only the authority', () => {
    expect(target('HTTP://User:pw@Example.COM:80/a/%7e?q#f')).toMatchObject({
      origin: 'http://example.com',
      path: '/a/%7e?q',
    });
    expect(target('https://example.com:8443')).toMatchObject({ origin: 'https://example.com:8443', path: '/' });
    expect(target('http://[::1]:8080/x')).toMatchObject({ origin: 'http://[::1]:8080', path: '/x' });
    expect(target('http://example.com:/?')).toMatchObject({ origin: 'http://example.com', path: '/?' });
  });

  it('keys URLs by resource: http://a/x and http://A:80/x are one', () => {
    expect(target('http://a/x').key).toBe(target('http://A:80/x').key);
    expect(target('http://a/x').key).toBe(target('http://a/%78#frag').key);
    expect(target('http://a/x').key).toBe(target('http://a/y/../x').key);
    expect(target('http://a/x').key).not.toBe(target('https://a/x').key);
    expect(target('http://a/x').key).not.toBe(target('http://a/x?').key);
  });

  it.each([
    ['ftp://a/x', 'ERR_FETCH_UNSUPPORTED_SCHEME'],
    ['file:///etc/passwd', 'ERR_FETCH_UNSUPPORTED_SCHEME'],
    ['javascript:alert(1)', 'ERR_FETCH_UNSUPPORTED_SCHEME'],
    ['//a/x', 'ERR_FETCH_INVALID_URL'],
    ['http://a b/', 'ERR_FETCH_INVALID_URL'],
    ['http:///x', 'ERR_FETCH_INVALID_URL'],
    ['http:x', 'ERR_FETCH_INVALID_URL'],
    ['', 'ERR_FETCH_INVALID_URL'],
  ])('%s → %s', (url, code) => {
    expect(toRequestTarget(url)).toEqual({ ok: false, code });
  });
});

describe('resolveLocation (RFC 9110 §10.2.2, RFC 3986 §5.2)', () => {
  const from = base('http://a/b/c/d;p?q');

  it.each([
    ['g', 'http://a/b/c/g'],
    ['./g', 'http://a/b/c/g'],
    ['../g', 'http://a/b/g'],
    ['../../../g', 'http://a/g'],
    ['/g', 'http://a/g'],
    ['//g', 'http://g'],
    ['?y', 'http://a/b/c/d;p?y'],
    ['#s', 'http://a/b/c/d;p?q#s'],
    ['', 'http://a/b/c/d;p?q'],
    ['https://other.example/x', 'https://other.example/x'],
    ['  /g  ', 'http://a/g'],
    ['\t/g\r\n', 'http://a/g'],
    ['/a b', 'http://a/a%20b'],
    ['\\g\\h', 'http://a/g/h'],
    ['/caf\u00c3\u00a9', 'http://a/caf%C3%A9'],
    ['/caf\u00e9', 'http://a/caf%C3%A9'],
    ['/100%', 'http://a/100%25'],
  ])('%j → %s', (location, url) => {
    const result = resolveLocation(location, from);
    expect(result.ok && result.url).toBe(url);
  });

  it('is strict about http:g (RFC 3986 §5.2.2): a URI without authority, which is not fetchable', () => {
    const result = resolveLocation('http:g', from);
    expect(result.ok && result.url).toBe('http:g');
    expect(result.ok && result.target).toEqual({ ok: false, code: 'ERR_FETCH_INVALID_URL' });
  });

  it.each(['http://[::1/x', 'http://exa mple.com/', 'http://a:80x/'])('%j is not a URI-reference', (location) => {
    expect(resolveLocation(location, from)).toEqual({ ok: false });
  });
});
