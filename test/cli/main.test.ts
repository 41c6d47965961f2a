// End to end: the built executable, as a shell would run it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAIN, ensureBuilt } from './built-cli.js';

function linkladder(
  args: readonly string[],
  stdin = '',
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [MAIN, ...args], { input: stdin, encoding: 'utf8', timeout: 20_000, ...options });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the linkladder executable', () => {
  beforeAll(ensureBuilt, 120_000);

  it('echo … | linkladder normalize --json', () => {
    const result = linkladder(['normalize', '--json'], 'HTTP://A:80/%7e\r\n\r\n%zz\r\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').map((line) => (line === '' ? null : (JSON.parse(line) as unknown)))).toEqual([
      { input: 'HTTP://A:80/%7e', rung: 'scheme', ok: true, uri: 'http://a/~' },
      { input: '', rung: 'scheme', ok: true, uri: '' },
      {
        input: '%zz',
        rung: 'scheme',
        ok: false,
        error: { code: 'ERR_URI_BAD_PERCENT', index: 1, message: '"%" not followed by two hexadecimal digits (RFC 3986 §2.1)' },
      },
      null,
    ]);
  });

  it('linkladder compare a b; a usage error', () => {
    expect(linkladder(['compare', 'a', 'b'])).toEqual({ status: 1, stdout: 'different\n', stderr: '' });
    expect(linkladder(['compare', 'http://a/%7e', 'http://a:80/~'])).toEqual({
      status: 0,
      stdout: 'equivalent at rung scheme\n',
      stderr: '',
    });
    expect(linkladder(['normalize', '--rung', 'protocol'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "linkladder: error: option '--rung <rung>' argument 'protocol' is invalid. Allowed choices are string, syntax, scheme.\n",
    });
  });

  it('linkladder crawl --config bad.json: one line, exit 2; the process environment and working directory are read', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'linkladder-main-config-'));
    try {
      writeFileSync(path.join(cwd, 'bad.json'), JSON.stringify({ retries: -1, maxDepth: 'deep' }));
      expect(linkladder(['crawl', 'http://127.0.0.1:9/', '--config', 'bad.json', '--allow-private'], '', { cwd })).toEqual({
        status: 2,
        stdout: '',
        stderr:
          'linkladder: error: invalid config file bad.json: Expected `maxDepth` to be an integer >= 0, got `deep` (string); Expected `retries` to be an integer from 0 to 10, got `-1` (number)\n',
      });
      const env = { ...process.env, LINKLADDER_RETRIES: 'many' };
      expect(linkladder(['crawl', 'http://127.0.0.1:9/', '--allow-private'], '', { cwd, env })).toEqual({
        status: 2,
        stdout: '',
        stderr: 'linkladder: error: invalid LINKLADDER_* variables: `LINKLADDER_RETRIES=many`: Expected an integer from 0 to 10\n',
      });
      expect(existsSync(path.join(cwd, 'data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
