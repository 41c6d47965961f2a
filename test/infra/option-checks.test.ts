import { describe, expect, it } from 'vitest';
import { OptionError } from '../../src/errors.js';
import {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkKnownKeys,
  checkOptionsObject,
} from '../../src/infra/option-checks.js';

describe('option checks', () => {
  it('reads undefined options as {} and refuses what is not a plain object', () => {
    expect(checkOptionsObject(undefined)).toEqual({});
    expect(() => checkOptionsObject([])).toThrow(OptionError);
    expect(() => checkOptionsObject(null)).toThrow('Expected `options` to be an object');
  });

  it('names the unknown key and the replacement of a renamed one', () => {
    expect(() => checkKnownKeys({ a: 1 }, ['b'], {})).toThrow('Unknown option `a`; the options are `b`');
    expect(() => checkKnownKeys({ old: 1 }, ['b'], { old: 'b' })).toThrow('Option `old` is not supported; use `b`');
    expect(() => checkKnownKeys({ b: 1 }, ['b'], {})).not.toThrow();
  });

  it('checks integers, booleans and functions, with the fallback for undefined', () => {
    expect(checkInteger('n', undefined, 3, 1, 10)).toBe(3);
    expect(() => checkInteger('n', 0, 3, 1, Number.MAX_SAFE_INTEGER)).toThrow('Expected `n` to be an integer >= 1, got `0` (number)');
    expect(() => checkInteger('n', 11, 3, 1, 10)).toThrow('between 1 and 10');
    expect(checkBoolean('b', undefined, true)).toBe(true);
    expect(() => checkBoolean('b', 'yes', true)).toThrow('Expected `b` to be true or false');
    const f = (): void => {};
    expect(checkFunction('f', undefined, f)).toBe(f);
    expect(() => checkFunction('f', 1, f)).toThrow('Expected `f` to be a function');
  });
});
