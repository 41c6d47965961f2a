import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/index.js';
import { jsonLines, run } from '../cli-harness.js';

type Example = readonly [ref: string, target: string];

// RFC 3986 §5.4.1 normal and §5.4.2 abnormal examples, shared with test/uri.
const FIXTURE = JSON.parse(
  readFileSync(new URL('../../fixtures/uri/rfc3986-examples.json', import.meta.url), 'utf8'),
) as { base: string; normal: Example[]; abnormal: Example[]; nonStrict: Example[] };

const BASE = FIXTURE.base;
const EXAMPLES: readonly Example[] = [...FIXTURE.normal, ...FIXTURE.abnormal];

describe('linkladder resolve', () => {
  it('resolves the RFC 3986 §5.4 examples given as arguments', async () => {
    const result = await run(['resolve', '--base', BASE, ...EXAMPLES.map(([ref]) => ref)]);
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(result.out).toEqual(EXAMPLES.map(([, target]) => target));
    expect(result.stderr).toBe('');
  });

  it('resolves the same examples read from stdin, the empty reference as an empty line', async () => {
    expect(EXAMPLES.map(([ref]) => ref)).toContain('');
    const stdin = `${EXAMPLES.map(([ref]) => ref).join('\r\n')}\r\n`;
    const result = await run(['resolve', '--base', BASE, '--json'], { stdin });
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(jsonLines(result)).toEqual(EXAMPLES.map(([ref, uri]) => ({ base: BASE, ref, ok: true, uri })));
  });

  it('--non-strict reads http:g as relative (the RFC 1808 loophole)', async () => {
    const result = await run(['resolve', '--base', BASE, '--non-strict', ...FIXTURE.nonStrict.map(([ref]) => ref), 'https:g']);
    expect(result.out).toEqual([...FIXTURE.nonStrict.map(([, target]) => target), 'https:g']);
  });

  it('reports an invalid reference with subject "reference" and goes on', async () => {
    const plain = await run(['resolve', '--base', BASE, 'g', 'a b', 'h']);
    expect(plain.code).toBe(EXIT_CODES.INVALID);
    expect(plain.out).toEqual(['http://a/b/c/g', '', 'http://a/b/c/h']);
    expect(plain.err).toEqual([
      'error: "a b": ERR_URI_BAD_PATH at index 1 of reference: character not allowed in path (RFC 3986 §3.3)',
    ]);

    const json = await run(['resolve', '--base', BASE, '--json', 'a b']);
    expect(jsonLines(json)).toEqual([
      {
        base: BASE,
        ref: 'a b',
        ok: false,
        error: { code: 'ERR_URI_BAD_PATH', index: 1, message: 'character not allowed in path (RFC 3986 §3.3)', subject: 'reference' },
      },
    ]);
  });

  it('treats a relative base as an input error, reported once per reference (exit 1, not 2)', async () => {
    const message = 'a base URI must be absolute: it needs a scheme (RFC 3986 §5.1, §4.3)';
    const plain = await run(['resolve', '--base', 'b/c', 'g', 'h']);
    expect(plain.code).toBe(EXIT_CODES.INVALID);
    expect(plain.out).toEqual(['', '']);
    expect(plain.err).toEqual([
      `error: "b/c": ERR_URI_NOT_ABSOLUTE at index 0 of base: ${message}`,
      `error: "b/c": ERR_URI_NOT_ABSOLUTE at index 0 of base: ${message}`,
    ]);

    const json = await run(['resolve', '--base', 'b/c', '--json'], { stdin: 'g\n' });
    expect(json.code).toBe(EXIT_CODES.INVALID);
    expect(jsonLines(json)).toEqual([
      { base: 'b/c', ref: 'g', ok: false, error: { code: 'ERR_URI_NOT_ABSOLUTE', index: 0, message, subject: 'base' } },
    ]);
  });

  it('requires --base (usage error, one line, exit 2)', async () => {
    const result = await run(['resolve', 'g']);
    expect(result.code).toBe(EXIT_CODES.USAGE);
    expect(result.stdout).toBe('');
    expect(result.err).toEqual(["linkladder: error: required option '--base <uri>' not specified"]);
  });
});
