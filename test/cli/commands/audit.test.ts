// `linkladder audit`, in-process: fixture sites (test/fixtures/audit) crawled with
// `linkladder crawl` on 127.0.0.1, then audited in each format; exit codes.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPackageVersion } from '../../../src/cli/package-version.js';
import { AUDIT_CODE_LIST } from '../../../src/report/index.js';
import { loadFixtures, serveFixture } from '../../report/audit/fixture-site.js';
import { jsonLines, run, Sink } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixtures = loadFixtures();
/** Database of each crawled fixture, and the origin it was served at. */
const crawled = new Map<string, { db: string; origin: string }>();

async function crawlFixture(name: string): Promise<{ db: string; origin: string }> {
  const fixture = fixtures.find((f) => f.name === name);
  if (fixture === undefined) throw new Error(`no fixture ${name}`);
  const server = await serveFixture(fixture);
  try {
    const db = path.join(dir, `${name}.db`);
    const result = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--retries', '0']);
    expect(result.code).toBe(0);
    return { db, origin: server.origin };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  for (const name of ['clean', 'link-broken', 'link-redirect', 'href-not-fetchable', 'redirect-chain']) crawled.set(name, await crawlFixture(name));
});

const dbOf = (name: string): string => crawled.get(name)!.db;

describe('linkladder audit: output', () => {
  it('text: findings grouped by page, the counts, exit 1 for an error (the default --fail-on)', async () => {
    const { db, origin } = crawled.get('link-broken')!;
    const result = await run(['audit', '--db', db]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      '2 findings on 1 page: 2 errors, 0 warnings, 0 info',
      'broken: 2 targets, linked 2 times',
      'by code: LINK_BROKEN 2',
      '',
      `${origin}/`,
      `  error    LINK_BROKEN  "missing.html" → ${origin}/missing.html at line 1, column 66`,
      '           the target answered 404',
      `  error    LINK_BROKEN  "gone" → ${origin}/gone at line 2, column 10`,
      '           the target answered 410',
    ]);
  });

  it('text: "no findings" and exit 0 on the clean site', async () => {
    const result = await run(['audit', '--db', dbOf('clean')]);
    expect(result).toMatchObject({ code: 0, out: ['no findings'], err: [] });
  });

  it('json: one object per finding', async () => {
    const { db, origin } = crawled.get('redirect-chain')!;
    const result = await run(['audit', '--db', db, '--format', 'json']);
    expect(result.code).toBe(0);
    expect(jsonLines(result)).toEqual([
      {
        code: 'LINK_REDIRECT',
        severity: 'warning',
        page: `${origin}/`,
        rawHref: 'first',
        target: `${origin}/first`,
        line: 1,
        column: 66,
        message: `the target redirects to ${origin}/third (2 hops): link to the final URL`,
        detail: { finalUrl: `${origin}/third`, hops: 2 },
        verdict: 'ok',
      },
      {
        code: 'REDIRECT_CHAIN',
        severity: 'warning',
        page: `${origin}/first`,
        rawHref: null,
        target: `${origin}/third`,
        line: null,
        column: null,
        message: `redirects 2 times before it reaches ${origin}/third: point the first hop at the last`,
        detail: { hops: 2, finalUrl: `${origin}/third` },
        verdict: null,
      },
    ]);
  });

  it('csv: the header, then one record per finding', async () => {
    const { db, origin } = crawled.get('link-redirect')!;
    const result = await run(['audit', '--db', db, '--format', 'csv']);
    expect(result.out).toEqual([
      'severity,code,page,line,column,href,target,status,inlinks,message',
      `warning,LINK_REDIRECT,${origin}/,1,66,old,${origin}/old,,1,the target redirects to ${origin}/new (1 hop): link to the final URL`,
    ]);
  });

  it('sarif: one log with the package version, every code a rule, the page as the location', async () => {
    const { db, origin } = crawled.get('link-broken')!;
    const result = await run(['audit', '--db', db, '--format', 'sarif']);
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout) as {
      version: string;
      runs: { tool: { driver: { name: string; version: string; rules: { id: string }[] } }; results: Record<string, unknown>[] }[];
    };
    expect(log.version).toBe('2.1.0');
    const [sarifRun] = log.runs;
    expect(sarifRun?.tool.driver).toMatchObject({ name: 'linkladder', version: readPackageVersion() });
    expect(sarifRun?.tool.driver.rules.map((r) => r.id)).toEqual(AUDIT_CODE_LIST);
    expect(sarifRun?.results.map((r) => [r['ruleId'], r['level'], r['locations']])).toEqual([
      ['LINK_BROKEN', 'error', [{ physicalLocation: { artifactLocation: { uri: `${origin}/` }, region: { startLine: 1, startColumn: 66 } } }]],
      ['LINK_BROKEN', 'error', [{ physicalLocation: { artifactLocation: { uri: `${origin}/` }, region: { startLine: 2, startColumn: 10 } } }]],
    ]);
  });
});

describe('linkladder audit: exit codes', () => {
  it('--fail-on warning fails on a warning; the default (error) does not', async () => {
    expect((await run(['audit', '--db', dbOf('link-redirect')])).code).toBe(0);
    expect((await run(['audit', '--db', dbOf('link-redirect'), '--fail-on', 'warning'])).code).toBe(1);
    expect((await run(['audit', '--db', dbOf('link-redirect'), '--fail-on', 'error'])).code).toBe(0);
  });

  it('a crawl whose only seed answered 404: SEED_BROKEN, exit 1 with --fail-on error', async () => {
    const fixture = fixtures.find((f) => f.name === 'clean')!;
    const server = await serveFixture(fixture);
    try {
      const db = path.join(dir, 'seed-404.db');
      const crawl = await run(['crawl', `${server.origin}/no-such-page`, '--db', db, '--allow-private', '--retries', '0']);
      expect(crawl.code).toBe(4);
      const result = await run(['audit', '--db', db, '--fail-on', 'error']);
      expect(result.err).toEqual([]);
      expect(result.out).toEqual([
        '1 finding on 1 page: 1 error, 0 warnings, 0 info',
        'by code: SEED_BROKEN 1',
        '',
        `${server.origin}/no-such-page`,
        '  error    SEED_BROKEN',
        '           the seed answered 404: the crawl could not start there',
      ]);
      expect(result.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('info findings never fail', async () => {
    const result = await run(['audit', '--db', dbOf('href-not-fetchable'), '--fail-on', 'warning', '--format', 'json']);
    expect(result.code).toBe(0);
    expect(jsonLines(result)).toEqual([expect.objectContaining({ code: 'HREF_NOT_FETCHABLE', severity: 'info' })]);
  });

  it.each([
    [['--format', 'xml'], "linkladder: error: option '--format <format>' argument 'xml' is invalid. Allowed choices are text, json, csv, sarif."],
    [['--fail-on', 'info'], "linkladder: error: option '--fail-on <severity>' argument 'info' is invalid. Allowed choices are error, warning."],
    [['--format'], "linkladder: error: option '--format <format>' argument missing"],
    [['extra'], "linkladder: error: too many arguments for 'audit'. Expected 0 arguments but got 1."],
    [['--bogus'], "linkladder: error: unknown option '--bogus'"],
  ])('bad usage %j: exit 2, one line on stderr, nothing on stdout', async (args, line) => {
    const result = await run(['audit', '--db', dbOf('clean'), ...args]);
    expect(result).toMatchObject({ code: 2, out: [], err: [line] });
  });

  it('a database that does not exist: exit 3, one line naming it', async () => {
    const missing = path.join(dir, 'nothing-here.db');
    const result = await run(['audit', '--db', missing]);
    expect(result.code).toBe(3);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain(missing);
  });

  it('--help describes the formats and the exit code', async () => {
    const result = await run(['audit', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--format <format>');
    expect(result.stdout).toContain('--fail-on <severity>');
    expect(result.stdout).toContain('SARIF 2.1.0');
  });
});

describe('linkladder audit: filters, grouping, colour, files', () => {
  it('--severity keeps findings at least that severe; --code (repeatable) only those codes', async () => {
    const db = dbOf('redirect-chain');
    expect((await run(['audit', '--db', db, '--json', '--severity', 'error'])).out).toEqual([]);
    const warnings = jsonLines(await run(['audit', '--db', db, '--json', '--severity', 'warning']));
    expect(warnings.map((f) => (f as Record<string, unknown>)['code'])).toEqual(['LINK_REDIRECT', 'REDIRECT_CHAIN']);
    const one = jsonLines(await run(['audit', '--db', db, '--json', '--code', 'REDIRECT_CHAIN']));
    expect(one.map((f) => (f as Record<string, unknown>)['code'])).toEqual(['REDIRECT_CHAIN']);
    const both = jsonLines(await run(['audit', '--db', db, '--json', '--code', 'REDIRECT_CHAIN', '--code', 'LINK_REDIRECT']));
    expect(both.map((f) => (f as Record<string, unknown>)['code'])).toEqual(['LINK_REDIRECT', 'REDIRECT_CHAIN']);
  });

  it('the exit code follows the findings shown', async () => {
    expect((await run(['audit', '--db', dbOf('link-broken'), '--code', 'LINK_REDIRECT'])).code).toBe(0);
    expect((await run(['audit', '--db', dbOf('link-broken'), '--code', 'LINK_BROKEN'])).code).toBe(1);
  });

  it('an unknown --code or a bad --source-root is bad usage (exit 2)', async () => {
    const code = await run(['audit', '--db', dbOf('clean'), '--code', 'NOT_A_CODE']);
    expect(code).toMatchObject({ code: 2, out: [] });
    expect(code.err[0]).toContain("option '--code <CODE>' argument 'NOT_A_CODE' is invalid");
    const root = await run(['audit', '--db', dbOf('clean'), '--source-root', './site/']);
    expect(root).toMatchObject({ code: 2, out: [] });
    expect(root.err[0]).toContain('<URL prefix>=<dir>');
    const both = await run(['audit', '--db', dbOf('clean'), '--json', '--format', 'csv']);
    expect(both).toMatchObject({ code: 2, out: [] });
  });

  it('--group-by target: each broken target with its status and pages, every referring href with its line', async () => {
    const { db, origin } = crawled.get('link-broken')!;
    const result = await run(['audit', '--db', db, '--group-by', 'target']);
    expect(result.out).toEqual([
      '2 findings on 1 page: 2 errors, 0 warnings, 0 info',
      'broken: 2 targets, linked 2 times',
      'by code: LINK_BROKEN 2',
      '',
      `error    LINK_BROKEN  ${origin}/gone  410, linked from 1 page`,
      `  ${origin}/ at line 2, column 10  "gone"`,
      '',
      `error    LINK_BROKEN  ${origin}/missing.html  404, linked from 1 page`,
      `  ${origin}/ at line 1, column 66  "missing.html"`,
    ]);
    expect(jsonLines(await run(['audit', '--db', db, '--group-by', 'target', '--json']))[1]).toEqual({
      code: 'LINK_BROKEN',
      severity: 'error',
      target: `${origin}/missing.html`,
      status: 404,
      pages: 1,
      links: [{ page: `${origin}/`, rawHref: 'missing.html', line: 1, column: 66 }],
    });
  });

  it('colour: off when piped and with NO_COLOR, on with --color, off with --no-color', async () => {
    const db = dbOf('link-broken');
    const RED = '\u001b[31m';
    expect((await run(['audit', '--db', db])).stdout).not.toContain(RED);
    expect((await run(['audit', '--db', db, '--color'])).out[5]).toBe(`  ${RED}error\u001b[39m    LINK_BROKEN  "missing.html" → ${crawled.get('link-broken')!.origin}/missing.html at line 1, column 66`);
    const terminal = Object.assign(new Sink(), { isTTY: true });
    await run(['audit', '--db', db], { stdout: terminal });
    expect(terminal.text).toContain(RED);
    const noColor = Object.assign(new Sink(), { isTTY: true });
    await run(['audit', '--db', db], { stdout: noColor, env: { NO_COLOR: '1' } });
    expect(noColor.text).not.toContain(RED);
    const forcedOff = Object.assign(new Sink(), { isTTY: true });
    await run(['audit', '--db', db, '--no-color'], { stdout: forcedOff });
    expect(forcedOff.text).not.toContain(RED);
  });

  it('--source-root: SARIF results at the page file with the href line and column; --out writes the file', async () => {
    const { db, origin } = crawled.get('link-broken')!;
    const out = path.join(dir, 'audit.sarif');
    const result = await run(['audit', '--db', db, '--format', 'sarif', '--source-root', `${origin}/=./site/`, '--out', out]);
    expect(result).toMatchObject({ code: 1, out: [] });
    const log = JSON.parse(readFileSync(out, 'utf8')) as { runs: { columnKind: string; results: { locations: unknown[] }[] }[] };
    expect(log.runs[0]?.columnKind).toBe('utf16CodeUnits');
    expect(log.runs[0]?.results.map((r) => r.locations)).toEqual([
      [{ physicalLocation: { artifactLocation: { uri: 'site/index.html' }, region: { startLine: 1, startColumn: 66 } } }],
      [{ physicalLocation: { artifactLocation: { uri: 'site/index.html' }, region: { startLine: 2, startColumn: 10 } } }],
    ]);
  });
});
