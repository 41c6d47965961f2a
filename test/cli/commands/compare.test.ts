import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/index.js';
import { jsonLines, run } from '../cli-harness.js';

describe('linkladder compare', () => {
  it.each([
    ['http://a/b', 'http://a/b', 'string'],
    ['http://a/%7e', 'HTTP://A/~', 'syntax'],
    ['http://a:80/', 'http://a', 'scheme'],
  ])('%s and %s meet at the %s rung (exit 0)', async (a, b, rung) => {
    const plain = await run(['compare', a, b]);
    expect(plain).toMatchObject({ code: EXIT_CODES.OK, out: [`equivalent at rung ${rung}`], stderr: '' });

    const json = await run(['compare', '--json', a, b]);
    expect(json.code).toBe(EXIT_CODES.OK);
    expect(jsonLines(json)).toEqual([{ a, b, ok: true, equivalent: true, rung }]);
  });

  it('says "different" and exits 1', async () => {
    const plain = await run(['compare', 'a', 'b']);
    expect(plain).toMatchObject({ code: EXIT_CODES.INVALID, out: ['different'], stderr: '' });

    const json = await run(['compare', 'a', 'b', '--json']);
    expect(json.code).toBe(EXIT_CODES.INVALID);
    expect(json.out).toEqual(['{"a":"a","b":"b","ok":true,"equivalent":false,"rung":null}']);
  });

  it('reports an invalid argument with its subject and exits 1', async () => {
    const plain = await run(['compare', 'http://a/', 'b c']);
    expect(plain.code).toBe(EXIT_CODES.INVALID);
    expect(plain.stdout).toBe('');
    expect(plain.err).toEqual([
      'error: "b c": ERR_URI_BAD_PATH at index 1 of b: character not allowed in path (RFC 3986 §3.3)',
    ]);

    const json = await run(['compare', '--json', '%', 'x']);
    expect(json.code).toBe(EXIT_CODES.INVALID);
    expect(json.stderr).toBe('');
    expect(jsonLines(json)).toEqual([
      {
        a: '%',
        b: 'x',
        ok: false,
        error: {
          code: 'ERR_URI_BAD_PERCENT',
          index: 1,
          message: '"%" not followed by two hexadecimal digits (RFC 3986 §2.1)',
          subject: 'a',
        },
      },
    ]);
  });

  it('compares empty references', async () => {
    const result = await run(['compare', '', '']);
    expect(result.out).toEqual(['equivalent at rung string']);
  });
});
