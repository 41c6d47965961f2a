import { describe, expect, it } from 'vitest';
import { trimAsciiWhitespace } from '../../src/infra/ascii-whitespace.js';

describe('trimAsciiWhitespace', () => {
  it.each([
    ['', 0, ''],
    ['a', 0, 'a'],
    [' \t\n\f\ra b\r\n', 5, 'a b'],
    ['   ', 3, ''],
    ['\u00a0a\u00a0', 0, '\u00a0a\u00a0'],
    ['\va\v', 0, '\va\v'],
  ])('%j → start %i, %j', (value, start, text) => {
    expect(trimAsciiWhitespace(value)).toEqual({ start, text });
  });
});
