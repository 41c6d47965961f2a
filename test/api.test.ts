// Pins the public API: what `import … from 'linkladder'` offers, and its types.

import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../src/index.js';
import type { Comparison, Result, Rung, UriReference } from '../src/index.js';

describe('public API', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ALIAS_EVIDENCE',
        'AliasMap',
        'ERROR_MESSAGES',
        'LinkladderError',
        'OptionError',
        'StoreError',
        'openIndex',
        'openIndexReader',
        'audit',
        'formatAuditText',
        'formatAuditJson',
        'formatAuditCsv',
        'formatAuditSarif',
        'exportGraph',
        'collectStats',
        'writeHtmlReport',
        'crawl',
        'explain',
        'CrawlError',
        'createFetcher',
        'createRobotsPolicy',
        'createRequestCredentials',
        'computeBaseChain',
        'isSameDocumentReference',
        'extractLinks',
        'cleanHref',
        'RUNGS',
        'SCHEMES',
        'UriError',
        'compare',
        'ipv6ToCanonicalText',
        'iriToUri',
        'isIPv4Address',
        'isIPv6Address',
        'normalize',
        'normalizePercentEncoding',
        'parse',
        'removeDotSegments',
        'resolve',
        'resolverFor',
        'resourceKey',
        'serialize',
        'tryCompare',
        'tryIriToUri',
        'tryNormalize',
        'tryParse',
        'tryResolve',
      ].sort(),
    );
  });

  it('has the documented signatures', () => {
    expectTypeOf(api.parse).toEqualTypeOf<(input: string) => UriReference>();
    expectTypeOf(api.tryParse).returns.toEqualTypeOf<Result<UriReference>>();
    expectTypeOf(api.resolve).parameters.toEqualTypeOf<[ref: string, base: string, options?: api.ResolveOptions]>();
    expectTypeOf(api.resolve).returns.toEqualTypeOf<string>();
    expectTypeOf(api.normalize).returns.toEqualTypeOf<string>();
    expectTypeOf(api.compare).returns.toEqualTypeOf<Comparison>();
    expectTypeOf<Comparison['rung']>().toEqualTypeOf<Rung | null>();
    expectTypeOf<UriReference['query']>().toEqualTypeOf<string | undefined>();
  });

  it('openIndex gives an IndexWriter', async () => {
    const store = await api.openIndex(':memory:');
    expectTypeOf(api.openIndex).returns.toEqualTypeOf<Promise<api.IndexWriter>>();
    expect((await store.admit([{ rawHref: 'http://a/', target: 'http://a/' }]))[0]).toMatchObject({ rung: 'new' });
    await store.close();
  });

  it('parse returns a frozen record', () => {
    expect(Object.isFrozen(api.parse('http://a/'))).toBe(true);
  });
});

describe('resolverFor: one base, parsed once', () => {
  it('resolves as resolve() does, for every RFC 3986 §5.4.1 example and at each rung', () => {
    const base = 'http://a/b/c/d;p?q';
    const bound = api.resolverFor(base);
    for (const ref of ['g:h', 'g', './g', 'g/', '/g', '//g', '?y', 'g?y', '#s', 'g#s', ';x', '', '.', '..', '../g', '../..', '../../g']) {
      expect(bound.resolve(ref)).toBe(api.resolve(ref, base));
    }
    const scheme = api.resolverFor('HTTP://Host:80/a/b', { rung: 'scheme' });
    expect(scheme.resolve('../%7Eu/./x')).toBe('http://host/~u/x');
    expect(scheme.base).toBe('HTTP://Host:80/a/b');
  });

  it('says which input is wrong', () => {
    expect(() => api.resolverFor('relative/base')).toThrow(expect.objectContaining({ code: 'ERR_URI_NOT_ABSOLUTE', subject: 'base' }));
    expect(api.resolverFor('http://a/').tryResolve('http://[::1')).toMatchObject({ ok: false, error: { subject: 'reference' } });
    expectTypeOf(api.resolverFor).returns.toEqualTypeOf<api.BoundResolver>();
  });
});
