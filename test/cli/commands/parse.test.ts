import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/index.js';
import { Sink, jsonLines, run } from '../cli-harness.js';

describe('linkladder parse', () => {
  it('writes the present components as tab-separated key=value pairs', async () => {
    const result = await run(['parse', 'http://u@a:80/b?q#f', 'g?', '', 'mailto:x@y']);
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(result.out).toEqual([
      'scheme=http\tuserinfo=u\thost=a\tport=80\tpath=/b\tquery=q\tfragment=f',
      'path=g\tquery=',
      'path=',
      'scheme=mailto\tpath=x@y',
    ]);
    expect(result.stderr).toBe('');
  });

  it('keeps an empty authority apart from an absent one', async () => {
    const result = await run(['parse', 'file:///x', 'file:/x']);
    expect(result.out).toEqual(['scheme=file\thost=\tpath=/x', 'scheme=file\tpath=/x']);
  });

  it('reports an invalid input on stderr, leaves an empty stdout line in its place and goes on', async () => {
    const result = await run(['parse', 'a', 'http://[::1', 'b']);
    expect(result.code).toBe(EXIT_CODES.INVALID);
    expect(result.out).toEqual(['path=a', '', 'path=b']);
    expect(result.err).toEqual([
      'error: "http://[::1": ERR_URI_BAD_IP_LITERAL at index 11: IP literal is not "[" ( IPv6address / IPvFuture ) "]" (RFC 3986 §3.2.2)',
    ]);
  });

  it('--json writes one object per input with null for absent components', async () => {
    const result = await run(['parse', '--json', 'http://a/b?', 'a b']);
    expect(result.code).toBe(EXIT_CODES.INVALID);
    expect(result.stderr).toBe('');
    expect(jsonLines(result)).toEqual([
      {
        input: 'http://a/b?',
        ok: true,
        components: { scheme: 'http', userinfo: null, host: 'a', port: null, path: '/b', query: '', fragment: null },
      },
      {
        input: 'a b',
        ok: false,
        error: { code: 'ERR_URI_BAD_PATH', index: 1, message: 'character not allowed in path (RFC 3986 §3.3)' },
      },
    ]);
  });

  it('keeps the JSON key order of the documented format', async () => {
    const result = await run(['parse', '--json', 'x']);
    expect(result.out).toEqual([
      '{"input":"x","ok":true,"components":{"scheme":null,"userinfo":null,"host":null,"port":null,"path":"x","query":null,"fragment":null}}',
    ]);
  });

  it('accepts an input starting with "-" after "--"', async () => {
    const result = await run(['parse', '--', '-x']);
    expect(result.out).toEqual(['path=-x']);
  });

  describe('stdin batch mode', () => {
    it('reads one input per line; an empty line is the empty reference', async () => {
      const result = await run(['parse'], { stdin: 'http://a/\n\nb\n' });
      expect(result.code).toBe(EXIT_CODES.OK);
      expect(result.out).toEqual(['scheme=http\thost=a\tpath=/', 'path=', 'path=b']);
    });

    it('strips the CR of CRLF lines, also when a chunk ends between CR and LF', async () => {
      const result = await run(['parse', '--json'], { stdin: ['a\r', '\nb\r\n\r\nc'] });
      expect(jsonLines(result).map((line) => (line as { input: string }).input)).toEqual(['a', 'b', '', 'c']);
    });

    it('reads nothing from empty stdin and succeeds', async () => {
      const result = await run(['parse'], { stdin: '' });
      expect(result).toMatchObject({ code: EXIT_CODES.OK, stdout: '', stderr: '' });
    });

    it('keeps 10,000 lines in order, with failed lines in place, through a slow stdout', async () => {
      const inputs = Array.from({ length: 10_000 }, (_, i) => (i % 1000 === 999 ? `bad ${i}` : `http://h${i}/p?${i}`));
      const stdout = new Sink({ highWaterMark: 64, isSlow: true });
      const result = await run(['parse', '--json'], { stdin: `${inputs.join('\n')}\n`, stdout });
      expect(result.code).toBe(EXIT_CODES.INVALID);
      const objects = jsonLines(result) as { input: string; ok: boolean }[];
      expect(objects.map((o) => o.input)).toEqual(inputs);
      expect(objects.filter((o) => !o.ok)).toHaveLength(10);
    });

    it('does not read stdin when inputs are given as arguments', async () => {
      const result = await run(['parse', 'x'], { stdin: 'y\n' });
      expect(result.out).toEqual(['path=x']);
    });
  });
});
