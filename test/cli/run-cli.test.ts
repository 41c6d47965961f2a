import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from '../../src/cli/index.js';
import { Sink, run } from './cli-harness.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

describe('runCli', () => {
  it('--help lists every command with a one-line description and the exit codes, exit 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(result.stderr).toBe('');
    for (const command of ['parse', 'resolve', 'normalize', 'compare', 'help']) {
      expect(result.out.some((line) => new RegExp(`^  ${command} .*\\S {2,}\\S`).test(line))).toBe(true);
    }
    expect(result.stdout).toContain('Exit codes:');
  });

  it.each([['help', 'resolve'], ['resolve', '--help'], ['help']])('%s %s prints help, exit 0', async (...argv) => {
    const result = await run(argv);
    expect(result.code).toBe(EXIT_CODES.OK);
    expect(result.stdout).toMatch(/^Usage: linkladder/);
    expect(result.stderr).toBe('');
  });

  it.each([['--version'], ['-V']])('%s prints the package version, exit 0', async (flag) => {
    const result = await run([flag]);
    expect(result).toMatchObject({ code: EXIT_CODES.OK, out: [packageVersion], stderr: '' });
  });

  describe('usage errors: exit 2, exactly one stderr line, nothing on stdout', () => {
    it.each<[string[], string]>([
      [[], "linkladder: error: missing command (see 'linkladder --help')"],
      [['frobnicate'], "linkladder: error: unknown command 'frobnicate'"],
      [['pars', 'x'], "linkladder: error: unknown command 'pars' (Did you mean parse?)"],
      [['help', 'frobnicate'], "linkladder: error: unknown command 'frobnicate'"],
      [['--json'], "linkladder: error: unknown option '--json'"],
      [['parse', '--jsn', 'x'], "linkladder: error: unknown option '--jsn' (Did you mean --json?)"],
      [['resolve', 'g'], "linkladder: error: required option '--base <uri>' not specified"],
      [['resolve', '--base'], "linkladder: error: option '--base <uri>' argument missing"],
      [['normalize', '--rung'], "linkladder: error: option '--rung <rung>' argument missing"],
      [['compare'], "linkladder: error: missing required argument 'a'"],
      [['compare', 'a'], "linkladder: error: missing required argument 'b'"],
      [['compare', 'a', 'b', 'c'], "linkladder: error: too many arguments for 'compare'. Expected 2 arguments but got 3."],
    ])('%j', async (argv, line) => {
      const result = await run(argv, { stdin: 'x\n' });
      expect(result.code).toBe(EXIT_CODES.USAGE);
      expect(result.stdout).toBe('');
      expect(result.err).toEqual([line]);
    });
  });

  it('turns a stdin read error into one line and exit 3', async () => {
    const stdin = new Readable({
      read() {
        this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
      },
    });
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await runCli(['parse'], { stdin, stdout, stderr });
    expect(code).toBe(EXIT_CODES.FAILURE);
    expect(stderr.text).toBe('linkladder: error: EIO: i/o error, read\n');
  });

  it('stops quietly with exit 3 when the reader of stdout goes away (EPIPE)', async () => {
    let written = 0;
    const stdout = new Sink();
    stdout._write = (_chunk, _encoding, callback): void => {
      written += 1;
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    };
    const stderr = new Sink();
    const lines = Array.from({ length: 100_000 }, (_, i) => `http://a/${i}\n`);
    const code = await runCli(['normalize'], { stdin: Readable.from(lines), stdout, stderr });
    expect(code).toBe(EXIT_CODES.FAILURE);
    expect(stderr.text).toBe('');
    // Node may still hand over the batch it holds, but reading input stops.
    expect(written).toBeLessThan(10_000);
  });
});
