import { describe, expect, it } from 'vitest';
import { BASE_CHAIN_DEFAULTS, computeBaseChain, validateBaseChainOptions, type BaseChainOptions } from '../../src/base/index.js';
import { OptionError } from '../../src/errors.js';

describe('base chain options', () => {
  it('defaults to rfc3986 mode and no default base', () => {
    expect(BASE_CHAIN_DEFAULTS).toEqual({ mode: 'rfc3986', defaultBase: undefined });
    expect(validateBaseChainOptions(undefined)).toEqual({ mode: 'rfc3986', defaultBase: undefined });
    expect(validateBaseChainOptions({})).toEqual({ mode: 'rfc3986', defaultBase: undefined });
  });

  it.each<[string, unknown, string]>([
    ['an unknown mode', { mode: 'whatwg' }, 'Expected `mode` to be one of rfc3986, browser, got `whatwg` (string)'],
    ['a mode of another type', { mode: 1 }, 'Expected `mode` to be one of rfc3986, browser, got `1` (number)'],
    ['a null mode', { mode: null }, 'Expected `mode` to be one of rfc3986, browser, got `null`'],
    ['a relative default base', { defaultBase: 'site/' }, 'Expected `defaultBase` to be an absolute URI (RFC 3986 §4.3), got `site/` (string) (ERR_URI_NOT_ABSOLUTE at index 0)'],
    ['an invalid default base', { defaultBase: 'file:///my site/' }, 'Expected `defaultBase` to be an absolute URI (RFC 3986 §4.3), got `file:///my site/` (string) (ERR_URI_BAD_PATH at index 10)'],
    ['a default base of another type', { defaultBase: 7 }, 'Expected `defaultBase` to be an absolute URI (RFC 3986 §4.3), got `7` (number)'],
    ['options that are not an object', 'browser', 'Expected `options` to be an object, got `browser` (string)'],
    ['null options', null, 'Expected `options` to be an object, got `null`'],
  ])('rejects %s with OptionError', (_name, options, message) => {
    const call = (): unknown => computeBaseChain({}, options as BaseChainOptions);
    expect(call).toThrow(OptionError);
    expect(call).toThrow(message);
    try {
      call();
    } catch (error) {
      expect((error as OptionError).code).toBe('ERR_API_BAD_OPTION');
    }
  });

  it('validates an options object once and remembers it', () => {
    const options: BaseChainOptions = { mode: 'browser', defaultBase: 'file:///srv/#x' };
    const first = validateBaseChainOptions(options);
    expect(validateBaseChainOptions(options)).toBe(first);
    expect(first.mode).toBe('browser');
    expect(first.defaultBase?.fragment).toBeUndefined();
    expect(Object.isFrozen(first)).toBe(true);
  });
});
