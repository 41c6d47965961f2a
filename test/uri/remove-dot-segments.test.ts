import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dotSegmentKind, hasDotSegments, removeDotSegments } from '../../src/uri/index.js';

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

// DEVIATION(§5.2.4): a segment of dots spelled "%2E" is a dot segment. The
// transcription stays literal; its input gets those segments as plain dots
// (they never reach the output, so nothing else changes).
function spellDotsLiterally(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      const kind = dotSegmentKind(segment, 0, segment.length);
      return kind === 0 ? segment : '.'.repeat(kind);
    })
    .join('/');
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
  ])('%j → %j', (input, expected) => {
    expect(removeDotSegments(input)).toBe(expected);
    expect(literalRemoveDotSegments(spellDotsLiterally(input))).toBe(expected);
  });

  it.each([
    ['/%2E/x', '/x'],
    ['/%2e/x', '/x'],
    ['/x/%2E/..', '/'],
    ['/a/b/%2E%2E/c', '/a/c'],
    ['/a/b/%2e./c', '/a/c'],
    ['/a/b/.%2E', '/a/'],
    ['%2E%2E/%2E/g', 'g'],
    ['%2E', ''],
    ['/a/%2E%2E%2E/b', '/a/%2E%2E%2E/b'],
    ['/a/%2F/b', '/a/%2F/b'],
    ['/a/%252E/b', '/a/%252E/b'],
  ])('DEVIATION(§5.2.4) percent-encoded dots are dot segments: %j → %j', (input, expected) => {
    expect(removeDotSegments(input)).toBe(expected);
    expect(hasDotSegments(input)).toBe(input !== expected);
    expect(dotSegmentKind('%2e', 0, 3)).toBe(1);
    expect(dotSegmentKind('.%2E', 0, 4)).toBe(2);
  });

  it('equals a literal transcription of rules A–E on dot-heavy paths', () => {
    const piece = fc.constantFrom('.', '..', '/', 'a', 'b', '', '...', '.a', '%2E', '%2e%2E', '.%2e', '%2E.', '%2E%2E%2E', '%2F');
    const path = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
    const slashed = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.oneof(path, slashed), (input) => {
        expect(removeDotSegments(input)).toBe(literalRemoveDotSegments(spellDotsLiterally(input)));
      }),
      { numRuns: 20000 },
    );
  });

  it('hasDotSegments says exactly when the path can change', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('.', '..', 'a', '', '.a', 'a.', '%2E', '%2e.', 'a%2E'), { maxLength: 6 }), (parts) => {
        const input = parts.join('/');
        if (!hasDotSegments(input)) expect(removeDotSegments(input)).toBe(input);
        else expect(spellDotsLiterally(input).split('/').some((segment) => segment === '.' || segment === '..')).toBe(true);
      }),
    );
  });
});
