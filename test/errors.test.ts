import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, LinkladderError, OptionError, UriError, type ErrorCode } from '../src/errors.js';

const documented = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

describe('error codes', () => {
  it.each(Object.keys(ERROR_MESSAGES) as ErrorCode[])('%s is documented in docs/errors.md', (code) => {
    expect(documented).toContain(`| \`${code}\` |`);
  });

  it('documents no code that does not exist', () => {
    const codes = [...documented.matchAll(/\| `(ERR_[A-Z_]+)` \|/g)].map((m) => m[1]);
    expect(codes.sort()).toEqual(Object.keys(ERROR_MESSAGES).sort());
  });

  it.each(Object.entries(ERROR_MESSAGES).filter(([code]) => code.startsWith('ERR_URI_')))(
    'UriError %s carries name, code, index and the default message',
    (code, message) => {
      const error = new UriError(code as never, 3, 'abc def', 'base');
      expect(error).toBeInstanceOf(LinkladderError);
      expect(error.name).toBe('UriError');
      expect(error.code).toBe(code);
      expect(error.index).toBe(3);
      expect(error.subject).toBe('base');
      expect(error.message).toBe(`${message}, at index 3 of base`);
    },
  );

  it('OptionError and LinkladderError', () => {
    const option = new OptionError('Expected `x` to be 1, got `2` (number)');
    expect(option).toMatchObject({ name: 'OptionError', code: 'ERR_API_BAD_OPTION' });
    const wrapped = new LinkladderError('ERR_API_BAD_OPTION', undefined, { cause: option });
    expect(wrapped.message).toBe(ERROR_MESSAGES.ERR_API_BAD_OPTION);
    expect(wrapped.cause).toBe(option);
  });
});
