import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize, OptionError, resolve, RUNGS, tryParse, UriError, type Rung } from '../../src/entry/uri.js';
import { removeDotSegmentsFromRelativePath } from '../../src/ladder/syntax-normalize.js';
import { hasDotSegments } from '../../src/uri/index.js';
import { hierarchicalBase, uriReference } from '../support/arbitraries.js';

const SYNTACTIC: Rung[] = ['string', 'syntax', 'scheme'];

describe('normalize (RFC 3986 §6.2)', () => {
  it('§6.2.2 example: case, percent-encoding and dot segments', () => {
    expect(normalize('eXAMPLE://a/./b/../b/%63/%7bfoo%7d', { rung: 'syntax' })).toBe('example://a/b/c/%7Bfoo%7D');
  });

  it('§6.2.3 examples: all four spellings of http://example.com/ meet at the scheme rung', () => {
    for (const spelling of ['http://example.com', 'http://example.com/', 'http://example.com:/', 'http://example.com:80/']) {
      expect(normalize(spelling)).toBe('http://example.com/');
    }
  });

  it('decodes before removing dots, so %2E%2E segments go too (idempotent)', () => {
    expect(normalize('http://a/b/%2e%2E/c', { rung: 'syntax' })).toBe('http://a/c');
    expect(normalize('http://a/b/%2e%2E/c', { rung: 'string' })).toBe('http://a/b/%2e%2E/c');
  });

  it('keeps userinfo, path, query and fragment case; lowers scheme and host', () => {
    expect(normalize('HTTP://User:PW@WWW.Example.COM/A/B?Q#F')).toBe('http://User:PW@www.example.com/A/B?Q#F');
    expect(normalize('http://%7Euser%3a@%41%42.com/%7A', { rung: 'syntax' })).toBe('http://~user%3A@ab.com/z');
  });

  it('keeps an empty query or fragment (§6.2.3, last paragraph)', () => {
    expect(normalize('http://a/?')).toBe('http://a/?');
    expect(normalize('http://a/#')).toBe('http://a/#');
    expect(normalize('http://a?#')).toBe('http://a/?#');
  });

  it.each([
    ['http://a:80/', 'http://a/'],
    ['https://a:443', 'https://a/'],
    ['https://a:80/', 'https://a:80/'],
    ['ws://a:80', 'ws://a/'],
    ['wss://a:443/x', 'wss://a/x'],
    ['ftp://a:21', 'ftp://a/'],
    ['ftp://a/f;type=i', 'ftp://a/f;type=i'],
    ['gopher://a:70', 'gopher://a/1'],
    ['gopher://a/', 'gopher://a/1'],
    ['gopher://a/0about', 'gopher://a/0about'],
    ['nntp://a:119/g', 'nntp://a/g'],
    ['news:Comp.Lang', 'news:Comp.Lang'],
    ['telnet://a:23', 'telnet://a/'],
    ['wais://a:210/db?q', 'wais://a/db?q'],
    ['prospero://a:1525/x;f=v', 'prospero://a/x;f=v'],
    ['file://localhost/etc/x', 'file:///etc/x'],
    ['file://LOCALHOST/x', 'file:///x'],
    ['file://host/x', 'file://host/x'],
    ['mailto:Joe.Bloggs@EXAMPLE.com,Ann@B.ORG', 'mailto:Joe.Bloggs@example.com,Ann@b.org'],
    ['http://a:0080/', 'http://a/'],
    ['http://a:08080/', 'http://a:8080/'],
    ['http://a:000/', 'http://a:0/'],
    ['http://a:099999999999999999999/', 'http://a:99999999999999999999/'],
    ['foo://a:/x', 'foo://a/x'],
    ['foo://a:80', 'foo://a:80'],
    ['foo://a', 'foo://a'],
    ['http://[2001:DB8::0:1]:80/', 'http://[2001:db8::1]/'],
    ['http://[::FFFF:192.0.2.1]/', 'http://[::ffff:192.0.2.1]/'],
    ['http://[V7.Ab]/', 'http://[v7.ab]/'],
    ['http://M%C3%BCnchen.DE/', 'http://xn--mnchen-3ya.de/'],
    ['http://%E4%BE%8B%E3%81%88.jp/', 'http://xn--r8jz45g.jp/'],
    ['http://%FF.com/', 'http://%FF.com/'],
    ['http://0x7f.1/', 'http://0x7f.1/'],
    ['foo://[0:0::1]:/x', 'foo://[::1]/x'],
    ['//[2001:DB8:0:0:0:0:0:1]', '//[2001:db8::1]'],
  ])('scheme rung (§6.2.3, scheme registry; DEVIATION(§6.2.3) RFC 5952 for every scheme): %s → %s', (input, expected) => {
    expect(normalize(input, { rung: 'scheme' })).toBe(expected);
  });

  it('DEVIATION(§6.2.2.3) normalizes relative references without changing what they resolve to', () => {
    expect(normalize('a/./b/../c', { rung: 'syntax' })).toBe('a/c');
    expect(normalize('../g', { rung: 'syntax' })).toBe('../g');
    expect(normalize('a/..', { rung: 'syntax' })).toBe('./');
    expect(normalize('./a:b', { rung: 'syntax' })).toBe('./a:b');
    expect(normalize('x/../a:b', { rung: 'syntax' })).toBe('./a:b');
    expect(normalize('.//g', { rung: 'syntax' })).toBe('.//g');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('.', '..', 'a', 'b:c', '', '%2E'), { minLength: 1, maxLength: 7 }),
        hierarchicalBase,
        (segments, base) => {
          const ref = segments.join('/');
          fc.pre(hasDotSegments(ref) && !ref.startsWith('/') && !ref.split('/')[0]!.includes(':'));
          const normalized = removeDotSegmentsFromRelativePath(ref);
          expect(resolve(normalized, base)).toBe(resolve(ref, base));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('law: every rung is idempotent', () => {
    fc.assert(
      fc.property(uriReference, (input) => {
        for (const rung of SYNTACTIC) {
          const once = normalize(input, { rung });
          expect(normalize(once, { rung })).toBe(once);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('law: a higher rung never splits what a lower rung joined', () => {
    // Pairs built to meet at some rung: the same reference, re-spelled.
    const respell = fc.tuple(uriReference, fc.nat(), fc.boolean()).map(([input, seed, upper]) => {
      let variant = upper ? input.replace(/^[a-z][a-z0-9+.-]*:/i, (s) => s.toUpperCase()) : input;
      variant = variant.replace(/%[0-9a-f]{2}/gi, (t) => (seed % 2 ? t.toLowerCase() : t.toUpperCase()));
      if (seed % 3 === 0) variant = variant.replace(/~/g, '%7E');
      return [input, variant] as const;
    });
    fc.assert(
      fc.property(fc.oneof(respell, fc.tuple(uriReference, uriReference)), ([a, b]) => {
        fc.pre(tryParse(b).ok); // "%7E" is not allowed inside an IPvFuture literal
        let joined = false;
        for (const rung of SYNTACTIC) {
          const same = normalize(a, { rung }) === normalize(b, { rung });
          if (joined) expect(same).toBe(true);
          joined ||= same;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('throws UriError on invalid input and OptionError on a bad rung', () => {
    expect(() => normalize('http://a b')).toThrow(UriError);
    expect(() => normalize('http://a', { rung: 'loud' as Rung })).toThrow(OptionError);
    expect(() => normalize('http://a', { rung: 'loud' as Rung })).toThrow(
      'Expected `rung` to be one of string, syntax, scheme, protocol, got `loud` (string)',
    );
    expect(() => normalize('http://a', { rung: 'protocol' })).toThrow(/aliases/);
    expect(RUNGS).toEqual(['string', 'syntax', 'scheme', 'protocol']);
  });
});
