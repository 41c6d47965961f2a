import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize, tryResolve, resolve, UriError } from '../../src/entry/uri.js';
import { ReferenceResolver, hasDotSegments, parseBase, parseUriReference, serialize, transformReference } from '../../src/uri/index.js';
import { absoluteUri, hierarchicalBase, uriReference } from '../support/arbitraries.js';

interface Examples {
  base: string;
  normal: [string, string][];
  abnormal: [string, string][];
  nonStrict: [string, string][];
}
const examples = JSON.parse(
  readFileSync(new URL('../fixtures/uri/rfc3986-examples.json', import.meta.url), 'utf8'),
) as Examples;

describe('resolve (RFC 3986 §5.2)', () => {
  it.each(examples.normal)('§5.4.1 %j → %j', (ref, expected) => {
    expect(resolve(ref, examples.base)).toBe(expected);
  });

  it.each(examples.abnormal)('§5.4.2 %j → %j', (ref, expected) => {
    expect(resolve(ref, examples.base)).toBe(expected);
  });

  it('DEVIATION(§5.2.2) http:g: strict by default, the RFC 1808 loophole on request', () => {
    expect(resolve('http:g', examples.base)).toBe('http:g');
    for (const [ref, expected] of examples.nonStrict) {
      expect(resolve(ref, examples.base, { strict: false })).toBe(expected);
    }
    expect(resolve('HTTP:g', examples.base, { strict: false })).toBe('http://a/b/c/g');
    expect(resolve('ftp:g', examples.base, { strict: false })).toBe('ftp:g');
  });

  it('ignores the fragment of the base (§5.1)', () => {
    expect(resolve('', 'http://a/b#frag')).toBe('http://a/b');
    expect(resolve('#x', 'http://a/b#frag')).toBe('http://a/b#x');
  });

  it('merges against an empty base path with authority (§5.2.3)', () => {
    expect(resolve('g', 'http://a')).toBe('http://a/g');
    expect(resolve('g', 'http://a?q')).toBe('http://a/g');
  });

  it('DEVIATION(§5.3) keeps a path that starts with // without authority from reading as one', () => {
    expect(resolve('.//g', 'f:/a')).toBe('f:/.//g');
    expect(resolve('..//g', 'f:/a/')).toBe('f:/.//g');
    expect(resolve('//g', 'f:/a')).toBe('f://g');
  });

  it('resolves rootless bases strictly (§5.2.3, §5.2.4)', () => {
    expect(resolve('../c', 'foo:a/b')).toBe('foo:/c');
    expect(resolve('b', 'foo:a')).toBe('foo:b');
  });

  it('refuses a base without a scheme and says which argument is wrong', () => {
    const result = tryResolve('g', '/a/b');
    expect(result).toEqual({ ok: false, error: { code: 'ERR_URI_NOT_ABSOLUTE', index: 0, subject: 'base' } });
    expect(() => resolve('g', '/a/b')).toThrow(UriError);
    expect(tryResolve('a b', 'http://a/')).toEqual({
      ok: false,
      error: { code: 'ERR_URI_BAD_PATH', index: 1, subject: 'reference' },
    });
    try {
      resolve('g', 'http://a b/');
    } catch (error) {
      expect(error).toMatchObject({ code: 'ERR_URI_BAD_HOST', index: 8, subject: 'base', input: 'http://a b/' });
    }
  });

  it('normalizes the target in the same call with { rung }, equal to normalize(resolve())', () => {
    expect(resolve('../%7Ex/./y', 'HTTP://Example.COM:80/a/b', { rung: 'syntax' })).toBe('http://example.com:80/~x/y');
    expect(resolve('../%7Ex/./y', 'HTTP://Example.COM:80/a/b', { rung: 'scheme' })).toBe('http://example.com/~x/y');
    expect(() => resolve('g', 'http://a/', { rung: 'protocol' as never })).toThrow(/Expected `rung`/);
    fc.assert(
      fc.property(uriReference, hierarchicalBase, fc.constantFrom('syntax', 'scheme') as fc.Arbitrary<'syntax' | 'scheme'>, (ref, base, rung) => {
        expect(resolve(ref, base, { rung })).toBe(normalize(resolve(ref, base), { rung }));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same answers when bases alternate (the last base is cached)', () => {
    const bases = ['http://a/b/c/d;p?q', 'x:/y/z', 'http://a b/', 'rel/base'];
    for (let round = 0; round < 3; round++) {
      expect(tryResolve('g', bases[0]!)).toEqual({ ok: true, value: 'http://a/b/c/g' });
      expect(tryResolve('g', bases[1]!)).toEqual({ ok: true, value: 'x:/y/g' });
      expect(tryResolve('g', bases[2]!)).toMatchObject({ ok: false, error: { subject: 'base' } });
      expect(tryResolve('g', bases[3]!)).toMatchObject({ ok: false, error: { code: 'ERR_URI_NOT_ABSOLUTE' } });
    }
  });

  it('law: resolving an absolute reference without dot segments returns it', () => {
    fc.assert(
      fc.property(absoluteUri, absoluteUri, (ref, base) => {
        const parsed = parseUriReference(ref);
        fc.pre(parsed.ok && !hasDotSegments(parsed.value.path));
        expect(resolve(ref, base)).toBe(ref);
      }),
      { numRuns: 2000 },
    );
  });

  it('law: the target is always a valid URI with a scheme, and resolves to itself', () => {
    fc.assert(
      fc.property(uriReference, fc.oneof(absoluteUri, hierarchicalBase), (ref, base) => {
        // §5.2.2 copies the base path as it is for an empty path: a base with dot segments keeps them.
        const parsedBase = parseUriReference(base);
        fc.pre(parsedBase.ok && !hasDotSegments(parsedBase.value.path));
        const target = resolve(ref, base);
        const parsed = parseUriReference(target);
        expect(parsed.ok && parsed.value.scheme !== undefined).toBe(true);
        expect(resolve(target, base)).toBe(target);
        // Every dot segment is gone, but for the "/." that guards a "//" path without authority.
        if (parsed.ok) expect(hasDotSegments(parsed.value.path.replace(/^\/\.(?=\/\/)/, ''))).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('ReferenceResolver (RFC 3986 §5.2 bound to one base)', () => {
  it('gives what transformReference gives, for any reference and base, with no state between bases', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(uriReference, hierarchicalBase), { minLength: 1, maxLength: 4 }), (pairs) => {
        const resolvers = pairs.map(([, base]) => ReferenceResolver.forBase(base));
        // Interleaved: each resolver answers for its own base only.
        for (let k = pairs.length - 1; k >= 0; k--) {
          const [ref, base] = pairs[k]!;
          const resolver = resolvers[k]!;
          const R = parseUriReference(ref);
          const Base = parseBase(base);
          if (!R.ok || !Base.ok || !resolver.ok) throw new Error('generated input must parse');
          expect(resolver.value.resolve(R.value)).toEqual(transformReference(R.value, Base.value));
          expect(serialize(resolver.value.resolve(R.value))).toBe(resolve(ref, base));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a base that is no absolute URI, saying so', () => {
    const result = ReferenceResolver.forBase('/relative');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toEqual({ code: 'ERR_URI_NOT_ABSOLUTE', index: 0, subject: 'base' });
  });

  it('drops the base fragment (§5.1) and resolves "" to the base without it', () => {
    const resolver = ReferenceResolver.forBase('http://a/b?q#f');
    if (!resolver.ok) throw new Error('unreachable');
    const R = parseUriReference('');
    if (!R.ok) throw new Error('unreachable');
    expect(serialize(resolver.value.resolve(R.value))).toBe('http://a/b?q');
  });
});
