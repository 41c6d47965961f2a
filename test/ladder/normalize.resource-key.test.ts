// The one key: for every absolute URI u and base b,
// key(u) = key(resolve(u, b)) = normalize(u) without its fragment.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize, resolve } from '../../src/entry/uri.js';
import { ladderForms, resourceKey, resourceKeyOf } from '../../src/ladder/index.js';
import { ReferenceResolver, parseBase, parseUriReference, serialize, transformReference, type AbsoluteUri } from '../../src/uri/index.js';
import { hierarchicalBase, host } from '../support/arbitraries.js';

/** Segments rich in what made one URL two keys: encoded dots, "..", empty segments. */
const dottySegment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('.', '..', '%2E', '%2e', '%2E%2E', '%2e%2E', '.%2E', '%2e.', '%2E%2E%2E', '...') },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom('a', 'B', 'x.y', '%7Ez', '%2F', '%41', 'c:d', '%2e%41') },
);
const dottyPath = fc.array(dottySegment, { maxLength: 8 });

const dottyAbsoluteUri: fc.Arbitrary<string> = fc
  .record({
    scheme: fc.constantFrom('http', 'HTTP', 'https', 'foo', 'file', 'gopher', 'urn'),
    authority: fc.option(
      fc.record({ host: fc.oneof(host, fc.constantFrom('Example.COM', 'h', '')), port: fc.option(fc.constantFrom('', '80', '443', '8080'), { nil: undefined }) }),
      { nil: undefined, freq: 4 },
    ),
    rooted: fc.boolean(),
    segments: dottyPath,
    query: fc.option(fc.constantFrom('', 'q=%2E', 'a/../b'), { nil: undefined }),
    fragment: fc.option(fc.constantFrom('', 'f', '%2E%2E/x'), { nil: undefined }),
  })
  .map(({ scheme, authority, rooted, segments, query, fragment }) => {
    let path = segments.join('/');
    if (authority !== undefined || rooted) path = '/' + path;
    // Without authority a path may not start with "//" (§3.3): one "/." before it keeps it a path.
    if (authority === undefined && path.startsWith('//')) path = '/.' + path;
    // A rootless path's first segment may not be empty.
    if (authority === undefined && !rooted && segments.length > 0 && segments[0] === '') path = 'a' + path;
    let uri = scheme + ':';
    if (authority !== undefined) uri += '//' + authority.host + (authority.port === undefined ? '' : ':' + authority.port);
    uri += path;
    if (query !== undefined) uri += '?' + query;
    if (fragment !== undefined) uri += '#' + fragment;
    return uri;
  });

const anyBase = fc.oneof(hierarchicalBase, fc.constantFrom('http://a/b/c/d;p?q', 'foo:a/b', 'urn:x:y', 'http://h', 'file:///'));

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

describe('resourceKey: one key for seeds and links', () => {
  it('DEVIATION(§5.2.4) percent-encoded dots: a URL with %2E%2E segments has one key, resolved or not', () => {
    const u = 'http://h/x/%2E/..';
    expect(normalize(u)).toBe('http://h/');
    expect(resolve(u, 'http://other/base', { rung: 'scheme' })).toBe('http://h/');
    expect(resourceKeyOf(u)).toBe('http://h/');
    expect(resolve('%2e%2E/y', 'http://h/a/b/c')).toBe('http://h/a/y');
  });

  it('key(u) = key(resolve(u, b)) = normalize(u) without its fragment, on inputs rich in %2E, "..", "//" and empty segments', () => {
    fc.assert(
      fc.property(dottyAbsoluteUri, anyBase, (u, b) => {
        const parsed = parseUriReference(u);
        expect(parsed.ok, u).toBe(true);
        if (!parsed.ok) return;
        const key = resourceKey(parsed.value);
        expect(resourceKeyOf(u)).toBe(key);
        // Resolved through the string API, the bound resolver and the bare §5.2.2 transform.
        expect(resourceKeyOf(resolve(u, b))).toBe(key);
        const base = parseBase(b);
        expect(base.ok).toBe(true);
        if (!base.ok) return;
        expect(resourceKey(new ReferenceResolver(base.value).resolve(parsed.value))).toBe(key);
        expect(resourceKey(transformReference(parsed.value, base.value))).toBe(key);
        expect(withoutFragment(normalize(u))).toBe(key);
        expect(ladderForms(parsed.value as AbsoluteUri).key).toBe(key);
      }),
      { numRuns: 20000 },
    );
  });

  it('a resolved link carries the key its string would get: ladderForms(T).key = resourceKeyOf(serialize(T))', () => {
    const reference = fc.tuple(fc.constantFrom('', '/', './', '../', '%2E%2E/', '//h2/'), dottyPath, fc.constantFrom('', '?q', '#f', '?%2E#%2E'));
    fc.assert(
      fc.property(reference, anyBase, ([prefix, segments, tail], b) => {
        let ref = prefix + segments.join('/') + tail;
        // A first segment may not hold ":" without a scheme before it (§4.2).
        if (ref.split(/[/?#]/)[0]!.includes(':')) ref = './' + ref;
        const R = parseUriReference(ref);
        const base = parseBase(b);
        if (!R.ok || !base.ok) return;
        const T = new ReferenceResolver(base.value).resolve(R.value);
        expect(T).toEqual(transformReference(R.value, base.value));
        const forms = ladderForms(T);
        expect(forms.key).toBe(resourceKeyOf(serialize(T)));
        expect(forms.string).toBe(withoutFragment(serialize(T)));
        expect(forms.syntax).toBe(withoutFragment(normalize(serialize(T), { rung: 'syntax' })));
      }),
      { numRuns: 20000 },
    );
  });
});
