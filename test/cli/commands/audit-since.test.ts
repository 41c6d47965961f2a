// `linkladder audit --since`: a site crawled, changed (a broken
// link fixed, another link newly broken) and re-checked with `crawl --recheck`; the
// audit lists what is new and what was fixed since a run of the index, or since
// another index file, in each format; an unknown run, or one that kept no findings,
// is one line and exit 2.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SINCE_CSV_HEADER } from '../../../src/report/index.js';
import { jsonLines, run } from '../cli-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-audit-since-'));
const db = path.join(dir, 'site.db');
/** The same site, crawled once before it changed: the baseline for --since FILE. */
const before = path.join(dir, 'before.db');
let origin = '';
let closeServer: () => Promise<void> = async () => {};

const pages = new Map<string, string>();
const WHEN = /\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/;

async function crawl(...args: string[]): Promise<void> {
  const result = await run(['crawl', `${origin}/`, '--allow-private', '--retries', '0', '--no-sitemap', ...args]);
  expect(result.err).toEqual([]);
  expect(result.code).toBe(0);
}

beforeAll(async () => {
  const server = createServer((request, response) => {
    const body = pages.get(request.url ?? '/');
    if (body === undefined) response.writeHead(404, { 'content-type': 'text/html' }).end('<p>missing</p>');
    else response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => new Promise((resolve) => server.close(() => resolve()));

  // Run 1: missing.html is broken.
  pages.set('/', '<a href="a.html">a</a>\n<a href="missing.html">m</a>');
  pages.set('/a.html', '<a href="./">home</a>');
  await crawl('--db', db);
  await crawl('--db', before);
  // The site changes: missing.html now exists, and the home page links to gone.html, which does not.
  pages.set('/missing.html', '<a href="./">home</a> (back again)');
  pages.set('/', '<a href="a.html">a</a>\n<a href="missing.html">m</a>\n<a href="gone.html">g</a>');
  // Run 2.
  await crawl('--db', db, '--recheck');
});

afterAll(async () => {
  await closeServer();
  rmSync(dir, { recursive: true, force: true });
});

describe('linkladder audit --since', () => {
  it('text: the summary line, the new findings, then the fixed ones; exit 1 for a new error', async () => {
    const result = await run(['audit', '--db', db, '--since', '1']);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out[0]).toMatch(/^1 new, 1 fixed since run 1 /);
    expect(result.out[0]).toMatch(WHEN);
    expect(result.out.slice(1)).toEqual([
      '',
      'new (1):',
      `${origin}/`,
      `  error    LINK_BROKEN  "gone.html" → ${origin}/gone.html at line 3, column 10`,
      '           the target answered 404',
      '',
      'fixed (1):',
      `${origin}/`,
      `  error    LINK_BROKEN  "missing.html" → ${origin}/missing.html`,
      // Known by its identity only: the catalog's summary of its code.
      "           the link names a URL whose verdict is broken: it answered 404 or 410 (another 4xx on the crawl's own hosts), its host name does not exist, its certificate is refused on the crawl's own hosts, or its redirects lead nowhere",
    ]);
  });

  it('since the last run: nothing new, nothing fixed, exit 0', async () => {
    const result = await run(['audit', '--db', db, '--since', '2']);
    expect(result.code).toBe(0);
    expect(result.out).toHaveLength(1);
    expect(result.out[0]).toMatch(/^0 new, 0 fixed since run 2 /);
  });

  it('since another index file: its audit is the baseline (a fixed finding keeps its message and line)', async () => {
    const result = await run(['audit', '--db', db, '--since', before]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.out[0]).toMatch(new RegExp(`^1 new, 1 fixed since ${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(run 1, `));
    expect(result.out.slice(-2)).toEqual([`  error    LINK_BROKEN  "missing.html" → ${origin}/missing.html at line 2, column 10`, '           the target answered 404']);
  });

  it('json: one object per finding, "change" first', async () => {
    const result = await run(['audit', '--db', db, '--since', before, '--format', 'json']);
    expect(jsonLines(result)).toEqual([
      {
        change: 'new',
        code: 'LINK_BROKEN',
        severity: 'error',
        page: `${origin}/`,
        rawHref: 'gone.html',
        target: `${origin}/gone.html`,
        line: 3,
        column: 10,
        message: 'the target answered 404',
        detail: { status: 404 },
        verdict: 'broken',
      },
      {
        change: 'fixed',
        code: 'LINK_BROKEN',
        severity: 'error',
        page: `${origin}/`,
        rawHref: 'missing.html',
        target: `${origin}/missing.html`,
        line: 2,
        column: 10,
        message: 'the target answered 404',
        detail: { status: 404 },
        verdict: 'broken',
      },
    ]);
    // Since a run: a fixed finding is known by its identity only.
    const byRun = jsonLines(await run(['audit', '--db', db, '--since', '1', '--json']));
    expect(byRun[1]).toMatchObject({ change: 'fixed', code: 'LINK_BROKEN', rawHref: 'missing.html', line: null, detail: {} });
  });

  it('csv: a first column "change", then the audit columns', async () => {
    const result = await run(['audit', '--db', db, '--since', before, '--format', 'csv']);
    expect(result.out).toEqual([
      SINCE_CSV_HEADER,
      `new,error,LINK_BROKEN,${origin}/,3,10,gone.html,${origin}/gone.html,404,1,the target answered 404`,
      `fixed,error,LINK_BROKEN,${origin}/,2,10,missing.html,${origin}/missing.html,404,1,the target answered 404`,
    ]);
    expect(SINCE_CSV_HEADER).toBe('change,severity,code,page,line,column,href,target,status,inlinks,message');
  });

  it('sarif: each result has its baselineState', async () => {
    const result = await run(['audit', '--db', db, '--since', '1', '--format', 'sarif']);
    const log = JSON.parse(result.stdout) as { runs: { results: Record<string, unknown>[] }[] };
    expect(log.runs[0]?.results.map((r) => [r['ruleId'], r['baselineState'], (r['properties'] as Record<string, unknown>)['rawHref']])).toEqual([
      ['LINK_BROKEN', 'new', 'gone.html'],
      ['LINK_BROKEN', 'absent', 'missing.html'],
    ]);
  });

  it('--code and --severity apply to both lists, and the exit code follows the new findings shown', async () => {
    const warnings = await run(['audit', '--db', db, '--since', '1', '--severity', 'warning', '--code', 'LINK_REDIRECT']);
    expect(warnings.code).toBe(0);
    expect(warnings.out[0]).toMatch(/^0 new, 0 fixed since run 1 /);
    // The new error is not shown: it does not fail, as a plain audit's exit code counts the findings shown.
    const errorsHidden = await run(['audit', '--db', db, '--since', '1', '--code', 'LINK_REDIRECT']);
    expect(errorsHidden.code).toBe(0);
    // The other way round: missing.html is new, gone.html fixed.
    const reversed = await run(['audit', '--db', before, '--since', db, '--json']);
    expect(reversed.code).toBe(1);
    expect(jsonLines(reversed).map((f) => [(f as { change: string }).change, (f as { rawHref: string }).rawHref])).toEqual([
      ['new', 'missing.html'],
      ['fixed', 'gone.html'],
    ]);
  });

  it('an unknown run: one line, exit 2', async () => {
    const result = await run(['audit', '--db', db, '--since', '9']);
    expect(result).toMatchObject({ code: 2, out: [], err: [`linkladder: error: ${db} has no run 9 (its runs are 1–2)`] });
  });

  it('a run that kept no findings (an index of an older version): one line, exit 2', async () => {
    const copy = path.join(dir, 'older.db');
    await crawl('--db', copy);
    // Run 1 is kept when run 2 starts; an index of an older version has runs with none.
    await crawl('--db', copy);
    const sqlite = new Database(copy);
    sqlite.prepare('DELETE FROM run_finding').run();
    sqlite.close();
    const result = await run(['audit', '--db', copy, '--since', '1']);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^linkladder: error: run 1 of .*older\.db kept no findings \(/);
  });

  it('--since with --group-by target is a usage error', async () => {
    const result = await run(['audit', '--db', db, '--since', '1', '--group-by', 'target']);
    expect(result.code).toBe(2);
    expect(result.err.join('\n')).toMatch(/--since .* cannot be used with option '--group-by/);
  });

  it('a run keeps its findings identities (code, page, target, href as written) when the next run starts; the last run is the index as it is', () => {
    const sqlite = new Database(db, { readonly: true });
    const rows = sqlite.prepare("SELECT run_id, code, page, target, href FROM run_finding WHERE code <> '' ORDER BY run_id, href").all();
    sqlite.close();
    expect(rows).toEqual([
      { run_id: 1, code: 'LINK_BROKEN', page: `${origin}/`, target: `${origin}/missing.html`, href: 'missing.html' },
    ]);
  });
});
