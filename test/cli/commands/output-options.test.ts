// One convention for every command that writes: `--format`, `--json` as its short
// form, and `--out <file>` instead of stdout (the file holds what stdout would).

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawledDemoIndex } from '../../support/demo-index.js';
import { run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = path.join(dir, 'demo.db');
let origin = '';

beforeAll(async () => {
  const crawled = await crawledDemoIndex(db, ['--concurrency', '1']);
  origin = crawled.origin;
  if (crawled.code !== 0) throw new Error(`the crawl failed: ${crawled.stderr}`);
});

/** Each command that writes, with the arguments it needs. */
const COMMANDS = (): [string, string[]][] => [
  ['parse', ['parse', 'http://a/b?c']],
  ['resolve', ['resolve', '--base', 'http://a/b/c', '../d']],
  ['normalize', ['normalize', 'HTTP://A/%7e']],
  ['compare', ['compare', 'http://a/~', 'http://a/%7E']],
  ['explain', ['explain', `${origin}/`, '--db', db]],
  ['stats', ['stats', '--db', db]],
  ['audit', ['audit', '--db', db]],
  ['graph', ['graph', '--db', db]],
  ['db status', ['db', 'status', '--db', db]],
];

describe('--format, --json and --out on every command that writes', () => {
  it('--json is --format json', async () => {
    for (const [name, args] of COMMANDS()) {
      const short = await run([...args, '--json']);
      const long = await run([...args, '--format', 'json']);
      expect(short.stdout, name).not.toBe('');
      expect(short, name).toEqual(long);
    }
  });

  it('--out writes to the file what stdout would get, and stdout stays empty', async () => {
    for (const [name, args] of COMMANDS()) {
      const withJson = name === 'graph' ? [...args, '--json'] : args;
      const printed = await run(withJson);
      const file = path.join(dir, `${name.replace(' ', '-')}.out`);
      const written = await run([...withJson, '--out', file]);
      expect(written.code, name).toBe(printed.code);
      expect(written.stdout, name).toBe('');
      expect(readFileSync(file, 'utf8'), name).toBe(printed.stdout);
    }
  });

  it('--json with another --format is bad usage (exit 2), and nothing is written', async () => {
    for (const [name, args] of COMMANDS()) {
      const file = path.join(dir, 'never.out');
      const result = await run([...args, '--json', '--format', name === 'graph' ? 'csv' : 'text', '--out', file]);
      expect(result.code, name).toBe(2);
      expect(result.err[0], name).toContain("option '--json' cannot be used with option '--format <format>'");
      expect(existsSync(file), name).toBe(false);
    }
  });

  it('report: --out FILE, and --html FILE as its short form', async () => {
    const out = path.join(dir, 'report.html');
    const result = await run(['report', '--db', db, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(new RegExp(`^${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ URLs`));
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/i);
  });
});
