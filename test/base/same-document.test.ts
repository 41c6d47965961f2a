import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBaseChain, isSameDocumentReference } from '../../src/base/index.js';
import { absoluteUri, queryOrFragment } from '../support/arbitraries.js';

const BASE = 'http://a/b/c/d;p?q';

describe('isSameDocumentReference (RFC 3986 §4.4)', () => {
  it.each([
    ['', BASE, true],
    ['#x', BASE, true],
    ['#', BASE, true],
    ['?q', BASE, true],
    ['?q#x', BASE, true],
    ['d;p?q', BASE, true],
    ['./d;p?q#s', BASE, true],
    ['?a', BASE, false],
    ['?', BASE, false],
    ['d;p', BASE, false],
    ['d;p?q#x', 'http://a/b/c/d;p?q#other', true],
    ['', 'http://a/b/c/d;p?q#frag', true],
    ['/b/c/d;p?q', BASE, true],
    ['//a/b/c/d;p?q', BASE, true],
    ['http://A:80/b/c/d;p?q#f', BASE, true],
    ['HTTP://a:/b/c/%64;p?q', BASE, true],
    ['http://a/b/c/./d;p?q', BASE, true],
    ['https://a/b/c/d;p?q', BASE, false],
    ['http://a:8080/b/c/d;p?q', BASE, false],
    ['http://a/b/c/D;p?q', BASE, false],
    ['http://a/b/c/d;p?Q', BASE, false],
    ['g', BASE, false],
    ['http://a', 'http://a/', true],
    ['', 'http://a', true],
    ['x', 'http://a/x#f', true],
    ['#f', 'urn:isbn:0451450523', true],
    ['urn:ISBN:0451450523', 'urn:isbn:0451450523', false],
    ['URN:isbn:0451450523#p', 'urn:isbn:0451450523', true],
  ])('%j against %j is %s', (target, base, expected) => {
    expect(isSameDocumentReference(target, base)).toBe(expected);
  });

  it('compares at the scheme rung, not character by character: http://A/x and http://a/x#f', () => {
    expect(isSameDocumentReference('http://A/x', 'http://a/x#f')).toBe(true);
    expect(isSameDocumentReference('http://a/x#f', 'http://A:80/x')).toBe(true);
    expect(isSameDocumentReference('http://a/%7Ex', 'http://a/~x')).toBe(true);
  });

  it('Apache MultiViews: #x on /manual/mod/core.html (Content-Location: core.html.en) is the page itself', () => {
    const chain = computeBaseChain({ retrievalUrl: 'http://httpd.example/manual/mod/core.html', contentLocation: 'core.html.en' });
    const base = chain.baseText!;
    expect(isSameDocumentReference('#x', base)).toBe(true);
    expect(isSameDocumentReference('', base)).toBe(true);
    expect(isSameDocumentReference('core.html.en#x', base)).toBe(true);
    expect(isSameDocumentReference('/manual/mod/core.html.en', base)).toBe(true);
    // The retrieval URL is met through the seen-set and the protocol-rung alias, not here.
    expect(isSameDocumentReference('core.html', base)).toBe(false);
    expect(isSameDocumentReference('core.html.de', base)).toBe(false);
    expect(isSameDocumentReference('?x', base)).toBe(false);
  });

  it('in browser mode #x on the same page resolves against the retrieval URL, still the same document', () => {
    const chain = computeBaseChain(
      { retrievalUrl: 'http://httpd.example/manual/mod/core.html', contentLocation: 'core.html.en' },
      { mode: 'browser' },
    );
    expect(isSameDocumentReference('#x', chain.baseText!)).toBe(true);
    expect(isSameDocumentReference('core.html#x', chain.baseText!)).toBe(true);
  });

  it('http:g counts only with the RFC 1808 loophole (strict: false)', () => {
    expect(isSameDocumentReference('http:g', 'http://a/b/c/g')).toBe(false);
    expect(isSameDocumentReference('http:g', 'http://a/b/c/g', { strict: false })).toBe(true);
  });

  it('invalid input is never the same document, and never throws', () => {
    expect(isSameDocumentReference('', 'relative/base')).toBe(false);
    expect(isSameDocumentReference('#x', '')).toBe(false);
    expect(isSameDocumentReference('#x', 'http://a b/')).toBe(false);
    expect(isSameDocumentReference('#x y', BASE)).toBe(false);
    expect(isSameDocumentReference('%zz', BASE)).toBe(false);
  });

  it('remembers the last base without mixing bases up', () => {
    expect(isSameDocumentReference('', 'http://a/1')).toBe(true);
    expect(isSameDocumentReference('http://a/1', 'http://a/2')).toBe(false);
    expect(isSameDocumentReference('http://a/2', 'http://a/2')).toBe(true);
    expect(isSameDocumentReference('', 'no-scheme')).toBe(false);
    expect(isSameDocumentReference('', 'http://a/1')).toBe(true);
  });

  it('"" and any fragment-only reference are same-document against every absolute URI', () => {
    fc.assert(
      fc.property(absoluteUri, queryOrFragment, (base, fragment) => {
        expect(isSameDocumentReference('', base)).toBe(true);
        expect(isSameDocumentReference(`#${fragment}`, base)).toBe(true);
        expect(isSameDocumentReference(base, base)).toBe(true);
      }),
    );
  });

  it('holds for a base whose %2E segments sit next to literal dot segments', () => {
    const base = 'bI://qy:465//%2e%2E/..#0)P8C';
    expect(isSameDocumentReference('', base)).toBe(true);
    expect(isSameDocumentReference(base, base)).toBe(true);
    expect(isSameDocumentReference('#x', base)).toBe(true);
  });

  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.oneof(fc.string(), absoluteUri), (target, base) => {
        expect(typeof isSameDocumentReference(target, base)).toBe('boolean');
      }),
    );
  });
});
