import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/cli/io.js';

async function collect(chunks: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(Readable.from(chunks))) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it.each<[string, string[], string[]]>([
    ['LF lines, final newline', ['a\nb\n'], ['a', 'b']],
    ['no final newline', ['a\nb'], ['a', 'b']],
    ['an empty line in the middle', ['a\n\nb\n'], ['a', '', 'b']],
    ['a single empty line', ['\n'], ['']],
    ['empty input', [], []],
    ['CRLF lines', ['a\r\nb\r\n'], ['a', 'b']],
    ['CRLF split across chunks', ['a\r', '\n', 'b\r', '\n'], ['a', 'b']],
    ['a line split across chunks', ['ht', 'tp://a/', '\n'], ['http://a/']],
  ])('%s', async (_name, chunks, expected) => {
    expect(await collect(chunks)).toEqual(expected);
  });

  it('decodes a UTF-8 sequence split between two Buffer chunks', async () => {
    const bytes = Buffer.from('/\u00e9\n', 'utf8');
    const lines: string[] = [];
    for await (const line of readLines(Readable.from([bytes.subarray(0, 2), bytes.subarray(2)]))) lines.push(line);
    expect(lines).toEqual(['/\u00e9']);
  });

  it('streams 10,000 lines in order', async () => {
    const expected = Array.from({ length: 10_000 }, (_, i) => `http://a/${i}`);
    expect(await collect([expected.join('\n')])).toEqual(expected);
  });
});
