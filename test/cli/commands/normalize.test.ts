import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/index.js';
import { jsonLines, run } from '../cli-harness.js';

const INPUT = 'HTTP://Example.COM:80/%7e/./a/../b?%3f#F';

describe('linkladder normalize', () => {
  it('goes up to the scheme rung by default', async () => {
    const result = await run(['normalize', INPUT, 'http://a']);
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(result.out).toEqual(['http://example.com/~/b?%3F#F', 'http://a/']);
  });

  it.each([
    ['string', 'HTTP://Example.COM:80/%7e/./a/../b?%3f#F'],
    ['syntax', 'http://example.com:80/~/b?%3F#F'],
    ['scheme', 'http://example.com/~/b?%3F#F'],
  ])('--rung %s', async (rung, expected) => {
    const result = await run(['normalize', '--rung', rung, INPUT]);
    expect(result.out).toEqual([expected]);
  });

  it('--json writes {input, rung, ok, uri} or the error form', async () => {
    const result = await run(['normalize', '--json', '--rung', 'syntax'], { stdin: `${INPUT}\n%zz\n` });
    expect(result.code).toBe(EXIT_CODES.INVALID);
    expect(result.stderr).toBe('');
    expect(jsonLines(result)).toEqual([
      { input: INPUT, rung: 'syntax', ok: true, uri: 'http://example.com:80/~/b?%3F#F' },
      {
        input: '%zz',
        rung: 'syntax',
        ok: false,
        error: { code: 'ERR_URI_BAD_PERCENT', index: 1, message: '"%" not followed by two hexadecimal digits (RFC 3986 §2.1)' },
      },
    ]);
  });

  it('keeps plain batch output aligned with the input, failed lines included', async () => {
    const result = await run(['normalize'], { stdin: 'HTTP://A\r\n\r\n%zz\r\nB\r\n' });
    expect(result.code).toBe(EXIT_CODES.INVALID);
    expect(result.out).toEqual(['http://a/', '', '', 'B']);
    expect(result.err).toEqual([
      'error: "%zz": ERR_URI_BAD_PERCENT at index 1: "%" not followed by two hexadecimal digits (RFC 3986 §2.1)',
    ]);
  });

  it.each(['protocol', 'x'])('refuses --rung %s as a usage error', async (rung) => {
    const result = await run(['normalize', '--rung', rung, 'http://a/']);
    expect(result.code).toBe(EXIT_CODES.USAGE);
    expect(result.stdout).toBe('');
    expect(result.err).toEqual([
      `linkladder: error: option '--rung <rung>' argument '${rung}' is invalid. Allowed choices are string, syntax, scheme.`,
    ]);
  });
});
