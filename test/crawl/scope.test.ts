import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ScopeTest, describeVerdict, isNegotiatedVariant, type ScopeRules } from '../../src/crawl/index.js';
import { ladderForms } from '../../src/ladder/index.js';
import { parseUriReference, type AbsoluteUri } from '../../src/uri/index.js';
import { absoluteUri } from '../support/arbitraries.js';

const rules = (extra: Partial<ScopeRules> = {}): ScopeRules => ({
  seeds: ['http://Example.com:80/docs/index.html'],
  scope: 'origin',
  include: [],
  exclude: [],
  allowPrivate: false,
  ...extra,
});

describe('ScopeTest', () => {
  it('origin: compared at the scheme rung', () => {
    const scope = new ScopeTest(rules());
    expect(scope.check('HTTP://EXAMPLE.COM/anything#x')).toBeUndefined();
    expect(scope.check('http://example.com:80/')).toBeUndefined();
    expect(scope.check('https://example.com/')).toEqual({ reason: 'scope', scope: 'origin' });
    expect(scope.check('http://example.com:8080/')).toEqual({ reason: 'scope', scope: 'origin' });
    expect(scope.check('http://www.example.com/')).toEqual({ reason: 'scope', scope: 'origin' });
  });

  it('only http and https are crawled', () => {
    const scope = new ScopeTest(rules({ scope: 'host' }));
    expect(scope.check('ftp://example.com/')).toEqual({ reason: 'scheme', scheme: 'ftp' });
    expect(scope.check('mailto:a@example.com')).toEqual({ reason: 'scheme', scheme: 'mailto' });
    expect(scope.check('not a uri')).toEqual({ reason: 'scheme', scheme: '' });
  });

  it('host, domain and prefix', () => {
    expect(new ScopeTest(rules({ scope: 'host' })).check('https://example.com:8443/x')).toBeUndefined();
    const domain = new ScopeTest(rules({ scope: 'domain' }));
    expect(domain.check('https://docs.example.com/')).toBeUndefined();
    expect(domain.check('http://badexample.com/')).toEqual({ reason: 'scope', scope: 'domain' });
    const prefix = new ScopeTest(rules({ scope: 'prefix' }));
    expect(prefix.check('http://example.com/docs/a/b')).toBeUndefined();
    expect(prefix.check('http://example.com/docs/')).toBeUndefined();
    expect(prefix.check('http://example.com/docs')).toEqual({ reason: 'scope', scope: 'prefix' });
    expect(prefix.check('http://example.com/docs2/')).toEqual({ reason: 'scope', scope: 'prefix' });
  });

  it('the private-address guard comes before scope, unless allowPrivate', () => {
    const seeds = ['http://127.0.0.1/'];
    expect(new ScopeTest(rules({ seeds })).check('http://0x7f.1/')).toMatchObject({ reason: 'private-address' });
    expect(new ScopeTest(rules({ seeds, allowPrivate: true })).check('http://127.0.0.1/x')).toBeUndefined();
    // 0x7f.1 is another host name than 127.0.0.1 in RFC 3986 terms: out of origin scope, though the same address.
    expect(new ScopeTest(rules({ seeds, allowPrivate: true })).check('http://0x7f.1/x')).toEqual({ reason: 'scope', scope: 'origin' });
  });

  it('include and exclude test the key', () => {
    const scope = new ScopeTest(rules({ include: [/\/docs\//], exclude: [/\.pdf$/] }));
    expect(scope.check('http://EXAMPLE.com/docs/a.html')).toBeUndefined();
    expect(scope.check('http://example.com/blog/')).toEqual({ reason: 'include' });
    expect(scope.check('http://example.com/docs/a.pdf#page=2')).toEqual({ reason: 'exclude', pattern: '/\\.pdf$/' });
  });

  it('describes each verdict in one line', () => {
    expect(describeVerdict({ reason: 'private-address', address: { kind: 'loopback', address: '127.0.0.1' } })).toBe(
      'names a loopback address (127.0.0.1); set `allowPrivate` to crawl it',
    );
    expect(describeVerdict({ reason: 'scope', scope: 'origin' })).toBe("outside the crawl's scope (origin of the seeds)");
  });
});

describe('isNegotiatedVariant', () => {
  it.each([
    ['http://a/doc/page.html', 'http://a/doc/page.html.en', true],
    ['http://a/doc/page', 'http://a/doc/page.en.html', true],
    ['http://a/manual/', 'http://a/manual/index.html.en', true],
    ['http://A:80/doc/page.html', 'http://a/doc/page.html.fr', true],
    ['http://a/doc/page.html', 'http://a/', false],
    ['http://a/doc/page.html', 'http://a/doc/', false],
    ['http://a/doc/page.html', 'http://a/other/page.html.en', false],
    ['http://a/doc/page.html', 'http://a/doc/pages.html', false],
    ['http://a/doc/page.html', 'http://a/doc/page.htmlx', false],
    ['http://a/a', 'http://a/', false],
    ['http://a/', 'http://a/', false],
  ])('%s → %s: %s', (requested, variant, expected) => {
    expect(isNegotiatedVariant(requested, variant)).toBe(expected);
  });

  it("checkForms (a resolved link's forms) says what check says of its text, without parsing it", () => {
    const scopes = [
      new ScopeTest(rules()),
      new ScopeTest(rules({ scope: 'prefix', include: [/docs/], exclude: [/private/] })),
      new ScopeTest(rules({ scope: 'domain', allowPrivate: true })),
    ];
    const target = fc.oneof(
      absoluteUri,
      fc.constantFrom('HTTP://EXAMPLE.COM:80/docs/a#x', 'http://example.com/docs/private/x', 'http://sub.example.com/', 'http://127.0.0.1/', 'https://example.com/other'),
    );
    fc.assert(
      fc.property(target, (uri) => {
        const parsed = parseUriReference(uri);
        if (!parsed.ok || parsed.value.scheme === undefined) return;
        const forms = ladderForms(parsed.value as AbsoluteUri);
        for (const scope of scopes) expect(scope.checkForms(forms)).toEqual(scope.check(uri));
      }),
      { numRuns: 3000 },
    );
  });

  it('each scope says what its definition on origin strings says (scheme://host[:port], and the seed directory as a prefix)', () => {
    const seeds = ['http://Example.com:80/docs/index.html', 'https://[::1]:8443/a/b/', 'http://example.com:/x'];
    const origin = (u: { scheme?: string | undefined; host?: string | undefined; port?: string | undefined }): string =>
      `${u.scheme ?? ''}://${u.host ?? ''}${u.port === undefined ? '' : `:${u.port}`}`;
    const part = fc.constantFrom('example.com', 'EXAMPLE.com', 'sub.example.com', 'badexample.com', '[::1]', 'x.[::1]');
    const target = fc.oneof(
      absoluteUri,
      fc
        .tuple(fc.constantFrom('http', 'https', 'HTTP'), part, fc.constantFrom('', ':', ':80', ':443', ':8443'), fc.constantFrom('', '/', '/docs', '/docs/', '/docs/a', '/a/b/c', '/x'))
        .map(([scheme, host, port, path]) => `${scheme}://${host}${port}${path}`),
    );
    for (const seed of seeds) {
      const parsedSeed = parseUriReference(seed);
      if (!parsedSeed.ok) throw parsedSeed.error;
      const anchor = ladderForms(parsedSeed.value as AbsoluteUri).keyReference;
      const directory = origin(anchor) + anchor.path.slice(0, anchor.path.lastIndexOf('/') + 1);
      for (const scope of ['origin', 'host', 'domain', 'prefix'] as const) {
        const test = new ScopeTest(rules({ seeds: [seed], scope, allowPrivate: true }));
        fc.assert(
          fc.property(target, (uri) => {
            const parsed = parseUriReference(uri);
            if (!parsed.ok || parsed.value.scheme === undefined) return;
            const u = ladderForms(parsed.value as AbsoluteUri).keyReference;
            if ((u.scheme !== 'http' && u.scheme !== 'https') || u.host === undefined) return;
            const host = u.host;
            const isUnder = {
              origin: origin(u) === origin(anchor),
              host: host === anchor.host,
              domain: host === anchor.host || (!(anchor.host ?? '').startsWith('[') && host.endsWith(`.${anchor.host}`)),
              prefix: (origin(u) + u.path).startsWith(directory),
            }[scope];
            expect(test.check(uri) === undefined, `${scope} of ${seed}: ${uri}`).toBe(isUnder);
          }),
          { numRuns: 500 },
        );
      }
    }
  });
});
