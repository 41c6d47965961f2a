import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUriReference, serialize } from '../../src/uri/index.js';
import { compose, referenceParts, uriReference } from '../support/arbitraries.js';
import { APPENDIX_B, URI_REFERENCE } from '../support/rfc3986-regex.js';

const components = (input: string): unknown => {
  const result = parseUriReference(input);
  if (!result.ok) throw new Error(`${input}: ${result.error.code} at ${result.error.index}`);
  return result.value;
};

const errorOf = (input: string): unknown => {
  const result = parseUriReference(input);
  return result.ok ? 'valid' : result.error;
};

describe('parseUriReference (RFC 3986 §3, §4.1)', () => {
  it('splits a full URI into its seven components', () => {
    expect(components('foo://user:pw@example.com:8042/over/there?name=ferret#nose')).toEqual({
      scheme: 'foo',
      userinfo: 'user:pw',
      host: 'example.com',
      port: '8042',
      path: '/over/there',
      query: 'name=ferret',
      fragment: 'nose',
    });
  });

  it('keeps undefined and empty components apart (§5.2.1, §5.3)', () => {
    expect(components('http://@:/?#')).toEqual({
      scheme: 'http',
      userinfo: '',
      host: '',
      port: '',
      path: '/',
      query: '',
      fragment: '',
    });
    expect(components('http:')).toEqual({
      scheme: 'http',
      userinfo: undefined,
      host: undefined,
      port: undefined,
      path: '',
      query: undefined,
      fragment: undefined,
    });
    expect(components('')).toMatchObject({ scheme: undefined, host: undefined, path: '', query: undefined });
  });

  it.each([
    ['urn:example:animal:ferret:nose', { scheme: 'urn', host: undefined, path: 'example:animal:ferret:nose' }],
    ['mailto:fred@example.com', { scheme: 'mailto', path: 'fred@example.com' }],
    ['news:comp.infosystems.www.servers.unix', { scheme: 'news', path: 'comp.infosystems.www.servers.unix' }],
    ['tel:+1-816-555-1212', { scheme: 'tel', path: '+1-816-555-1212' }],
    ['telnet://192.0.2.16:80/', { scheme: 'telnet', host: '192.0.2.16', port: '80', path: '/' }],
    ['ldap://[2001:db8::7]/c=GB?objectClass?one', { host: '[2001:db8::7]', path: '/c=GB', query: 'objectClass?one' }],
    ['//g', { scheme: undefined, host: 'g', path: '' }],
    ['./a:b', { scheme: undefined, path: './a:b' }],
    ['/a:b', { path: '/a:b' }],
    ['?q', { path: '', query: 'q' }],
    ['#f', { path: '', fragment: 'f' }],
    ['http://a/b?c?d/e#f?g/', { query: 'c?d/e', fragment: 'f?g/' }],
    ['http://[v1.fe80::a+en1]/', { host: '[v1.fe80::a+en1]' }],
    ['s://h:0123', { port: '0123' }],
    ['s://a@b@', undefined],
  ])('parses %s (§1.1.2 examples and edge cases)', (input, expected) => {
    if (expected === undefined) {
      expect(errorOf(input)).toEqual({ code: 'ERR_URI_BAD_HOST', index: 7 });
      return;
    }
    expect(components(input)).toMatchObject(expected);
  });

  it.each([
    ['http://a b/', 'ERR_URI_BAD_HOST', 8],
    ['http://a/b c', 'ERR_URI_BAD_PATH', 10],
    ['http://a/?q q', 'ERR_URI_BAD_QUERY', 11],
    ['http://a/#f#g', 'ERR_URI_BAD_FRAGMENT', 11],
    ['http://a/%zz', 'ERR_URI_BAD_PERCENT', 10],
    ['http://a/%a', 'ERR_URI_BAD_PERCENT', 11],
    ['%', 'ERR_URI_BAD_PERCENT', 1],
    ['http://a/%', 'ERR_URI_BAD_PERCENT', 10],
    ['http://a:8o/', 'ERR_URI_BAD_PORT', 10],
    ['http://[::1/', 'ERR_URI_BAD_IP_LITERAL', 11],
    ['http://[::1]x/', 'ERR_URI_BAD_HOST', 12],
    ['http://[::1%25eth0]/', 'ERR_URI_BAD_IP_LITERAL', 11],
    ['http://[1:2:3:4:5:6:7:8::]/', 'ERR_URI_BAD_IP_LITERAL', 23],
    ['http://[vG.x]/', 'ERR_URI_BAD_IP_LITERAL', 9],
    ['http://u[@h/', 'ERR_URI_BAD_USERINFO', 8],
    [':a', 'ERR_URI_BAD_SCHEME', 0],
    ['1a:b', 'ERR_URI_BAD_SCHEME', 2],
    ['a b:c', 'ERR_URI_BAD_PATH', 1],
    ['a\\b', 'ERR_URI_BAD_PATH', 1],
    ['é', 'ERR_URI_BAD_PATH', 0],
  ] as const)('rejects %j with %s at index %i', (input, code, index) => {
    expect(errorOf(input)).toEqual({ code, index });
  });

  it('accepts every one of the nine IPv6address forms of §3.2.2', () => {
    for (const literal of [
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:1.2.3.4',
      '::2:3:4:5:6:7:8',
      '::3:4:5:6:7:1.2.3.4',
      '1::3:4:5:6:7:8',
      '1::4:5:6:7:1.2.3.4',
      '1:2::4:5:6:7:8',
      '1:2::5:6:7:1.2.3.4',
      '1:2:3::5:6:7:8',
      '1:2:3::6:7:1.2.3.4',
      '1:2:3:4::6:7:8',
      '1:2:3:4::1.2.3.4',
      '1:2:3:4:5::7:8',
      '1:2:3:4:5::1.2.3.4',
      '1:2:3:4:5:6::8',
      '1:2:3:4:5:6:7::',
      '::',
      '::1',
      'ffff::',
    ]) {
      expect(errorOf(`//[${literal}]`), literal).toBe('valid');
    }
  });

  it('rejects IPv6 literals the grammar does not produce', () => {
    for (const literal of [':', ':1', '1:', '1:::2', '1::2::3', '12345::', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::01.1.1.1', '::1.2.3', '1:2:3:4:5:6:7:1.2.3.4', 'g::']) {
      expect(errorOf(`//[${literal}]`), literal).not.toBe('valid');
    }
  });

  it('reads a scheme only when a colon ends a valid scheme before any / ? #', () => {
    expect(components('a+b.c-d:x')).toMatchObject({ scheme: 'a+b.c-d', path: 'x' });
    expect(components('./x:y')).toMatchObject({ scheme: undefined });
    expect(components('x/y:z')).toMatchObject({ scheme: undefined, path: 'x/y:z' });
    expect(components('x?y:z')).toMatchObject({ scheme: undefined, query: 'y:z' });
  });

  it('law: parse ∘ serialize is the identity on valid input', () => {
    fc.assert(
      fc.property(uriReference, (input) => {
        const parsed = parseUriReference(input);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(serialize(parsed.value)).toBe(input);
      }),
      { numRuns: 3000 },
    );
  });

  it('returns exactly the components that built the reference', () => {
    fc.assert(
      fc.property(referenceParts(), (parts) => {
        const parsed = parseUriReference(compose(parts));
        expect(parsed.ok && parsed.value).toEqual(parts);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseUriReference against an independent oracle (Appendix A as regexes, Appendix B split)', () => {
  const alphabet = fc.constantFrom(...'aZ09:/?#[]@%.-_~!$&\'()*+,;= \\"<>^`{|}vV'.split(''), 'ff', '::', '//', '%2e', '%zz', 'é');

  it('accepts exactly the strings the grammar produces, and splits them as Appendix B does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(alphabet, { maxLength: 24 }).map((a) => a.join('')), uriReference), (input) => {
        const result = parseUriReference(input);
        expect(result.ok, input).toBe(URI_REFERENCE.test(input));
        if (!result.ok) {
          expect(result.error.index).toBeGreaterThanOrEqual(0);
          expect(result.error.index).toBeLessThanOrEqual(input.length);
          return;
        }
        const m = APPENDIX_B.exec(input)!;
        const v = result.value;
        expect(v.scheme).toBe(m[2]);
        expect(v.path).toBe(m[5]);
        expect(v.query).toBe(m[7]);
        expect(v.fragment).toBe(m[9]);
        const authority = m[4];
        expect(v.host !== undefined).toBe(authority !== undefined);
        if (authority !== undefined) {
          expect((v.userinfo !== undefined ? `${v.userinfo}@` : '') + v.host + (v.port !== undefined ? `:${v.port}` : '')).toBe(authority);
        }
      }),
      { numRuns: 20000 },
    );
  });
});
