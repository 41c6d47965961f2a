import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasDotSegments, removeDotSegments } from '../../src/uri/index.js';

// RFC 3986 §5.2.4 rules A–E transcribed literally over an input buffer: the
// reference the fast index-based implementation is checked against.
function literalRemoveDotSegments(path: string): string {
  let input = path;
  let output = '';
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = '/' + input.slice(3);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../') || input === '/..') {
      input = '/' + input.slice(input === '/..' ? 3 : 4);
      const lastSlash = output.lastIndexOf('/');
      output = lastSlash === -1 ? '' : output.slice(0, lastSlash);
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const end = next === -1 ? input.length : next;
      output += input.slice(0, end);
      input = input.slice(end);
    }
  }
  return output;
}

describe('removeDotSegments (RFC 3986 §5.2.4)', () => {
  it('follows the two traces of §5.2.4', () => {
    expect(removeDotSegments('/a/b/c/./../../g')).toBe('/a/g');
    expect(removeDotSegments('mid/content=5/../6')).toBe('mid/6');
  });

  it.each([
    ['', ''],
    ['.', ''],
    ['..', ''],
    ['./', ''],
    ['../', ''],
    ['/.', '/'],
    ['/..', '/'],
    ['/../..', '/'],
    ['a/..', '/'],
    ['a/../b', '/b'],
    ['/a//../b', '/a/b'],
    ['.//a', '/a'],
    ['/a/.b/..c/...', '/a/.b/..c/...'],
    ['/%2E/x', '/%2E/x'],
  ])('%j → %j', (input, expected) => {
    expect(removeDotSegments(input)).toBe(expected);
    expect(literalRemoveDotSegments(input)).toBe(expected);
  });

  it('equals a literal transcription of rules A–E on dot-heavy paths', () => {
    const piece = fc.constantFrom('.', '..', '/', 'a', 'b', '', '...', '.a');
    const path = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const slashed = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.oneof(path, slashed), (input) => {
        expect(removeDotSegments(input)).toBe(literalRemoveDotSegments(input));
      }),
      { numRuns: 20000 },
    );
  });

  it('hasDotSegments says exactly when the path can change', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('.', '..', 'a', '', '.a', 'a.'), { maxLength: 6 }), (parts) => {
        const input = parts.join('/');
        if (!hasDotSegments(input)) expect(removeDotSegments(input)).toBe(input);
      }),
    );
  });
});
