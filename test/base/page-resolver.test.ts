import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PageResolver, computeBaseChain, isSameDocumentReference, referenceFindings } from '../../src/base/index.js';
import { resourceKey, resourceKeyOf } from '../../src/ladder/index.js';
import { parseBase, parseUriReference, serialize, transformReference, type UriReference } from '../../src/uri/index.js';
import { hierarchicalBase, uriReference } from '../support/arbitraries.js';

function parse(ref: string): UriReference {
  const parsed = parseUriReference(ref);
  if (!parsed.ok) throw new Error(`not a URI-reference: ${ref}`);
  return parsed.value;
}

// The record as the pipeline computed it before there was a resolver: each step
// from strings, one at a time. PageResolver must give the same answers.
function expectedRecord(ref: string, baseText: string, pageUrl: string) {
  const base = parseBase(baseText);
  if (!base.ok) throw new Error('bad base');
  const R = parse(ref);
  const T = transformReference(R, base.value);
  const key = resourceKey(T);
  const pageKey = resourceKeyOf(pageUrl);
  const isSameDocument = isSameDocumentReference(ref, baseText) || key === pageKey;
  const targetText = isSameDocument ? (T.fragment === undefined ? pageUrl : `${pageUrl}#${T.fragment}`) : serialize(T);
  return { T, key: isSameDocument ? (pageKey ?? key) : key, isSameDocument, targetText, findings: referenceFindings(R, base.value, T, key) };
}

/** Bases rich in what the fast paths must notice: case, ports, "%", dot segments, empty paths. */
const base = fc.oneof(
  hierarchicalBase,
  fc.constantFrom(
    'http://a/b/c/d;p?q',
    'http://h',
    'HTTP://H/x',
    'http://h:80/a/b',
    'http://h/a/%7Eb/c',
    'http://h/a/./b/../c',
    'http://h/a/%2E%2E/c',
    'https://docs.python.test/library/os.html',
    'gopher://h',
    'foo:a/b',
    'file:///usr/share/doc/x.html',
  ),
);
const reference = fc.oneof(
  uriReference,
  fc.constantFrom('', '#x', '#', '?', '?q', 'g', 'os.html#x', './g', '../g', '../../../../g', '../a/../b', '%7Eg', 'G%2e', '/g', '/a/../g', '//h2/g', 'HTTP://A:80/g', 'http:g', '?%41#%42'),
);

describe('PageResolver', () => {
  it('gives, for any reference and base, the record the string steps give (§5.2, §4.4, §6.2.3, REF_* findings)', () => {
    fc.assert(
      fc.property(reference, base, fc.boolean(), (ref, baseText, pageIsBase) => {
        const pageUrl = pageIsBase ? baseText : 'http://page.test/p';
        const resolver = new PageResolver(computeBaseChain({ retrievalUrl: baseText }), pageUrl);
        const record = resolver.resolve(parse(ref));
        const expected = expectedRecord(ref, serialize({ ...parseBase(baseText).ok ? (parseBase(baseText) as { value: UriReference }).value : parse(baseText), fragment: undefined }), pageUrl);
        expect(record).toBeDefined();
        expect(record!.target).toEqual(expected.T);
        expect(record!.key).toBe(expected.key);
        expect(record!.isSameDocument).toBe(expected.isSameDocument);
        expect(record!.targetText).toBe(expected.targetText);
        expect([...record!.findings]).toEqual(expected.findings);
        expect(record!.fragment).toBe(expected.T.fragment);
        // The forms describe the target as the index will read it.
        const bare = record!.targetText.split('#')[0]!;
        if (record!.forms !== undefined) {
          expect(record!.forms.string).toBe(bare);
          expect(record!.forms.key).toBe(resourceKeyOf(bare));
        }
      }),
      { numRuns: 10000 },
    );
  });

  it('is bound to both base modes: the alternate target when Content-Location makes them differ', () => {
    const chain = computeBaseChain({ retrievalUrl: 'http://h/manual/mod/core.html', contentLocation: 'core.html.en' });
    const resolver = new PageResolver(chain, 'http://h/manual/mod/core.html');
    const fragment = resolver.resolve(parse('#x'))!;
    expect(fragment.isSameDocument).toBe(true);
    expect(fragment.targetText).toBe('http://h/manual/mod/core.html#x');
    expect(fragment.alternateTarget).toBeUndefined();
    const other = parse('../x');
    expect(resolver.resolve(other)!.alternateTarget).toBeUndefined();
    const withBase = computeBaseChain({ retrievalUrl: 'http://h/a/b', contentLocation: 'http://h/c/d' });
    const twoModes = new PageResolver(withBase, 'http://h/a/b');
    const g = twoModes.resolve(parse('g'))!;
    expect(g.targetText).toBe('http://h/c/g');
    expect(g.alternateTarget).toBe('http://h/a/g');
  });

  it('has no base when the chain has none', () => {
    const resolver = new PageResolver(computeBaseChain({}), 'not a uri');
    expect(resolver.hasBase).toBe(false);
    expect(resolver.resolve(parse('g'))).toBeUndefined();
  });
});
