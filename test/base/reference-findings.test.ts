import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countDotSegmentsAboveRoot, pathToRemoveDotsFrom, referenceFindings } from '../../src/base/index.js';
import { resourceKey } from '../../src/ladder/index.js';
import { parseBase, parseUriReference, removeDotSegments, serialize, transformReference, type UriReference } from '../../src/uri/index.js';
import { compose, referenceParts } from '../support/arbitraries.js';

interface Examples {
  readonly base: string;
  readonly normal: readonly [string, string][];
  readonly abnormal: readonly [string, string][];
}

const examples = JSON.parse(readFileSync(new URL('../fixtures/uri/rfc3986-examples.json', import.meta.url), 'utf8')) as Examples;

function parsed(reference: string): UriReference {
  const R = parseUriReference(reference);
  if (!R.ok) throw new Error(`bad reference in test: ${reference}`);
  return R.value;
}

function findingsOf(reference: string, baseText: string = examples.base): string[] {
  const base = parseBase(baseText);
  if (!base.ok) throw new Error(`bad base in test: ${baseText}`);
  const R = parsed(reference);
  return referenceFindings(R, base.value, transformReference(R, base.value));
}

// RFC 3986 §5.2.4 rule C literally, counting a pop with nothing to pop.
function literalCount(path: string): number {
  let input = path;
  let output = '';
  let above = 0;
  while (input.length > 0) {
    if (input.startsWith('../')) {
      input = input.slice(3);
      above++;
    } else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = '/' + input.slice(3);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../') || input === '/..') {
      input = '/' + input.slice(input === '/..' ? 3 : 4);
      if (output === '') above++;
      const lastSlash = output.lastIndexOf('/');
      output = lastSlash === -1 ? '' : output.slice(0, lastSlash);
    } else if (input === '.') input = '';
    else if (input === '..') {
      input = '';
      above++;
    } else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const end = next === -1 ? input.length : next;
      output += input.slice(0, end);
      input = input.slice(end);
    }
  }
  return above;
}

describe('countDotSegmentsAboveRoot (RFC 3986 §5.2.4)', () => {
  it.each([
    ['', 0],
    ['/a/b/c/./../../g', 0],
    ['mid/content=5/../6', 0],
    ['/..', 1],
    ['/../..', 2],
    ['..', 1],
    ['../', 1],
    ['../../g', 2],
    ['./../g', 1],
    ['a/..', 0],
    ['a/../..', 1],
    ['/a/../../b', 1],
    ['/b/c/../../../g', 1],
    ['/b/c/../../../../g', 2],
    ['/a/.b/..c/...', 0],
    ['/%2E%2E/x', 0],
    ['/a//../../b', 0],
  ])('%j → %i', (path, expected) => {
    expect(countDotSegmentsAboveRoot(path)).toBe(expected);
    expect(literalCount(path)).toBe(expected);
  });

  it('equals a literal transcription of rules A–E on dot-heavy paths', () => {
    const piece = fc.constantFrom('.', '..', '/', 'a', '', '...', '.a');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (parts, slashed) => {
        const path = parts.join(slashed ? '/' : '');
        expect(countDotSegmentsAboveRoot(path)).toBe(literalCount(path));
      }),
    );
  });

  it('a segment put in front absorbs one drop; with none dropped, what is above does not matter', () => {
    const piece = fc.constantFrom('.', '..', 'a', 'b', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), fc.nat(4), (parts, extra) => {
        const path = '/' + parts.join('/');
        const above = countDotSegmentsAboveRoot(path);
        expect(countDotSegmentsAboveRoot('/s'.repeat(extra) + path)).toBe(Math.max(0, above - extra));
        // Nothing dropped: remove_dot_segments gives the same path whatever is put above it.
        if (above === 0) expect(removeDotSegments('/s' + path)).toBe('/s' + removeDotSegments(path));
      }),
    );
  });
});

describe('pathToRemoveDotsFrom (RFC 3986 §5.2.2)', () => {
  const base = parseBase(examples.base);
  if (!base.ok) throw new Error('bad base');
  it.each([
    ['g', '/b/c/g'],
    ['../../../g', '/b/c/../../../g'],
    ['/./g', '/./g'],
    ['//h/../x', '/../x'],
    ['http:/../x', '/../x'],
    ['?y', undefined],
    ['', undefined],
    ['#s', undefined],
  ])('%j → %j', (reference, expected) => {
    expect(pathToRemoveDotsFrom(parsed(reference), base.value)).toBe(expected);
  });
});

describe('referenceFindings', () => {
  it('REF_ABOVE_ROOT for the abnormal examples of §5.4.2 that climb too far, for none of the normal ones', () => {
    for (const [reference] of examples.normal) {
      expect(findingsOf(reference).filter((c) => c === 'REF_ABOVE_ROOT'), reference).toEqual([]);
    }
    expect(findingsOf('../../../g')).toEqual(['REF_ABOVE_ROOT']);
    expect(findingsOf('../../../../g')).toEqual(['REF_ABOVE_ROOT']);
    expect(findingsOf('/../g')).toEqual(['REF_ABOVE_ROOT']);
    expect(findingsOf('g.')).toEqual([]);
    expect(findingsOf('..g')).toEqual([]);
  });

  it('REF_ABOVE_ROOT for absolute and network-path references too', () => {
    expect(findingsOf('http://a/../g')).toContain('REF_ABOVE_ROOT');
    expect(findingsOf('//a/x/../../g')).toContain('REF_ABOVE_ROOT');
    expect(findingsOf('http://a/x/../g')).not.toContain('REF_ABOVE_ROOT');
  });

  it.each([
    // spellings only the syntax rung (§6.2.2) folds
    ['%7Euser/', 'REF_FOLDED_SYNTAX'],
    ['HTTP://a/g', 'REF_FOLDED_SYNTAX'],
    ['http://A/g', 'REF_FOLDED_SYNTAX'],
    ['http://a/%7e', 'REF_FOLDED_SYNTAX'],
    ['/./g', 'REF_FOLDED_SYNTAX'],
    ['/x/../g', 'REF_FOLDED_SYNTAX'],
    ['//a/x/./g', 'REF_FOLDED_SYNTAX'],
    ['g%2fh%2a', 'REF_FOLDED_SYNTAX'],
    // … and those that need the scheme rung (§6.2.3)
    ['http://a:80/g', 'REF_FOLDED_SCHEME'],
    ['//a:/g', 'REF_FOLDED_SCHEME'],
    ['http://a', 'REF_FOLDED_SCHEME'],
    ['HTTP://A:80/g', 'REF_FOLDED_SCHEME'],
  ])('%j is %s', (reference, code) => {
    expect(findingsOf(reference)).toEqual([code]);
  });

  it.each(['g', './g', '../g', '../../g', 'g?y#s', '?y', '#s', '', 'http://a/g', '//g/', 'g;x?y', '~user/', 'mailto:A@EXAMPLE.COM', 'ftp://A:21/x'])(
    '%j is spelled as its normal form (or is not http): no finding',
    (reference) => {
      expect(findingsOf(reference)).toEqual([]);
    },
  );

  it('a relative-path reference is judged by its target: its dot segments are how it climbs', () => {
    expect(findingsOf('./g/../h')).toEqual([]);
    expect(findingsOf('g', 'HTTP://A:80/b/')).toEqual(['REF_FOLDED_SCHEME']);
    expect(findingsOf('/g', 'http://A/b/')).toEqual(['REF_FOLDED_SYNTAX']);
  });

  it('both kinds at once, in catalog order; dot segments above the root are not a second finding', () => {
    expect(findingsOf('/../%7Eg')).toEqual(['REF_ABOVE_ROOT', 'REF_FOLDED_SYNTAX']);
    expect(findingsOf('http://a/../g')).toEqual(['REF_ABOVE_ROOT']);
    expect(findingsOf('HTTP://a/../g')).toEqual(['REF_ABOVE_ROOT', 'REF_FOLDED_SYNTAX']);
    expect(findingsOf('/../x/./g')).toEqual(['REF_ABOVE_ROOT']);
  });

  it('an absolute http(s) reference is REF_FOLDED_* exactly when it is not its own key (RFC 3986 §6.2.3)', () => {
    const http = referenceParts({ withScheme: true }).filter((p) => p.host !== undefined);
    fc.assert(
      fc.property(http, fc.constantFrom('http', 'https', 'HTTP', 'Https'), (parts, scheme) => {
        const R = parsed(compose({ ...parts, scheme, fragment: undefined }));
        const base = parseBase('http://b/');
        if (!base.ok) throw new Error('bad base');
        const codes = referenceFindings(R, base.value, transformReference(R, base.value));
        const isFolded = codes.some((c) => c.startsWith('REF_FOLDED_'));
        if (codes.includes('REF_ABOVE_ROOT')) return;
        expect(isFolded, serialize(R)).toBe(resourceKey(R) !== serialize(R));
      }),
      { numRuns: 2000 },
    );
  });
});

