// `linkladder check`: the built executable on fixture folders — a site build with
// the hard cases of a folder (../, %20, folders with and without index files, a
// folder without its slash, root-relative links, --site-url, --map, --clean-urls,
// fragments across files, <a name>, <base href>), files and globs, every exit code,
// every format's shape, a fresh index each run, --changed in a git repository, and
// hostile folders (a symlink loop, a FIFO named x.html, a 200 MB file, 20k files).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, MAIN } from './built-cli.js';

const LOOPBACK_ONLY = fileURLToPath(new URL('../support/loopback-only.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-check-'));

interface Exit {
  readonly code: number | null;
  readonly signal?: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the built `linkladder check …` in `cwd`; `onStart` gets the process (to signal it). */
function check(args: readonly string[], cwd = dir, timeoutMs = 60_000, onStart?: (child: ChildProcess) => void): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, 'check', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    onStart?.(child);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

interface JsonFinding {
  readonly code: string;
  readonly severity: string;
  readonly verdict: string | null;
  readonly target: string | null;
  readonly rawHref: string | null;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly page: string | null;
  readonly message: string;
}

function json(exit: Exit): JsonFinding[] {
  return exit.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JsonFinding);
}

/** `CODE file href` of each finding, sorted: what a test asserts. */
function brief(exit: Exit): string[] {
  return json(exit)
    .map((f) => `${f.code} ${f.file} ${f.rawHref ?? ''}`.trim())
    .sort();
}

beforeAll(async () => {
  await ensureBuilt();
  // A site build.
  write(
    'site/index.html',
    [
      '<!doctype html><title>home</title>',
      '<a href="sub/">sub</a>',
      '<a href="sub">sub without its slash</a>',
      '<a href="a%20b.html">a space</a>',
      '<a href="missing.html">missing</a>',
      '<a href="other.html#x">an id</a>',
      '<a href="other.html#nope">no such id</a>',
      '<a href="/css/a.css">root-relative</a>',
      '<a href="noindex/">a folder with no index file</a>',
      '<a href="withindex">a folder with one, no slash</a>',
      '<link rel="stylesheet" href="css/a.css">',
    ].join('\n'),
  );
  write('site/a b.html', '<p><a href="index.html">home</a> <a href="./sub/../other.html#y">a name</a>');
  write('site/other.html', '<h1 id="x">x</h1><a name="y"></a><a href="#y">y</a><a href="#z">z</a>');
  write('site/sub/index.html', '<a href="../other.html#y">up</a> <a href="../nothere.html">gone</a> <a href="../../outside.html">above</a>');
  write('site/withindex/index.htm', '<p>htm index</p>');
  write('site/base.html', '<head><base href="/sub/"></head><a href="index.html">via base</a><a href="nope.html">broken via base</a>');
  write('site/orphan.html', '<a href="lost.html">an orphan is checked too</a>');
  write('site/css/a.css', 'body { background: url(../img/missing.png) }');
  write('site/noindex/file.txt', 'text');
  write('site/.hidden/skip.html', '<a href="skipped-broken.html">not walked</a>');
  write('site/node_modules/x/skip.html', '<a href="skipped-broken.html">not walked</a>');
  // Root-relative links, the production site's absolute links, clean URLs.
  write('prod/index.html', '<a href="/docs/page.html">root-relative</a> <a href="https://example.com/docs/page.html#s">absolute</a> <a href="https://example.com/docs/gone.html">gone</a> <a href="/docs/about">clean</a>');
  write('prod/page.html', '<h2 id="s">s</h2>');
  write('prod/about.html', '<p>about</p>');
  // A clean folder, one with a warning only, an empty one.
  write('clean/index.html', '<a href="b.html">b</a>');
  write('clean/b.html', '<a href="index.html#top">top</a><p id="top">');
  write('warn/index.html', '<a href="b">b</a>');
  mkdirSync(path.join(dir, 'warn/b'));
  write('warn/b/index.html', 'b');
  mkdirSync(path.join(dir, 'empty/sub'), { recursive: true });
  write('empty/sub/notes.txt', 'no page');
  // HTML files of a repository, checked by name.
  write('repo/docs/a.html', '<a href="b.html#there">b</a> <a href="b.html#nowhere">b</a> <a href="../src/">src</a> <a href="../nosrc/">none</a> <a href="../src">no slash</a>');
  write('repo/docs/b.html', '<p id="there"><a href="c-missing.html">not reported: b.html was not given</a>');
  write('repo/src/code.ts', 'export {}');
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }), 120_000);

describe('a site build folder', () => {
  it('checks every page of it and reports broken links by file and line', async () => {
    const exit = await check(['site', '--no-check-external', '--format', 'json']);
    expect(exit.code).toBe(1);
    expect(brief(exit)).toEqual([
      'BASE_HREF_RELATIVE site/base.html',
      'LINK_BROKEN site/base.html nope.html',
      'LINK_BROKEN site/css/a.css ../img/missing.png',
      'LINK_BROKEN site/index.html missing.html',
      'LINK_BROKEN site/index.html noindex/',
      'LINK_BROKEN site/orphan.html lost.html',
      // RFC 3986 §5.2.4 drops the extra "..": /outside.html, which is not there.
      'LINK_BROKEN site/sub/index.html ../../outside.html',
      'LINK_BROKEN site/sub/index.html ../nothere.html',
      'LINK_FRAGMENT_MISSING site/index.html other.html#nope',
      'LINK_FRAGMENT_MISSING site/other.html #z',
      'LINK_REDIRECT site/index.html sub',
      'LINK_REDIRECT site/index.html withindex',
      'REF_ABOVE_ROOT site/sub/index.html ../../outside.html',
    ]);
    const missing = json(exit).find((f) => f.rawHref === 'missing.html')!;
    expect(missing).toMatchObject({ severity: 'error', verdict: 'broken', line: 5, column: 10, target: 'http://site.invalid/missing.html', page: 'http://site.invalid/' });
    expect(json(exit).find((f) => f.rawHref === 'other.html#nope')).toMatchObject({ severity: 'error', verdict: 'broken' });
  });

  it('text: grouped by file, file:line:col, the target as its file, a verdict summary', async () => {
    const exit = await check(['site', '--no-check-external']);
    expect(exit.code).toBe(1);
    const lines = exit.stdout.split('\n');
    expect(lines).toContain('site/index.html');
    expect(lines).toContain('  site/index.html:5:10  error    LINK_BROKEN  "missing.html" → site/missing.html  the target answered 404');
    expect(lines).toContain('  site/index.html:9:10  error    LINK_BROKEN  "noindex/" → site/noindex/  the target answered 404');
    expect(lines.at(-2)).toMatch(/^\d+ URLs checked: 9 broken links, 0 unverified; 13 findings in 6 files \(9 errors, 4 warnings, 0 info\)$/);
    // The crawl's summary went to stderr.
    expect(exit.stderr).toMatch(/^crawl {7}finished/m);
  });

  it('root-relative links resolve against --site-url and map back into the folder', async () => {
    const exit = await check(['prod', '--site-url', 'https://example.com/docs/', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual(['LINK_BROKEN prod/index.html /docs/about', 'LINK_BROKEN prod/index.html https://example.com/docs/gone.html']);
    expect(exit.code).toBe(1);
  });

  it('without --site-url, the same links name the local origin (an absolute link to production is external)', async () => {
    const exit = await check(['prod', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual(['LINK_BROKEN prod/index.html /docs/about', 'LINK_BROKEN prod/index.html /docs/page.html']);
  });

  it('--clean-urls lets /docs/about mean about.html', async () => {
    const exit = await check(['prod', '--site-url', 'https://example.com/docs/', '--clean-urls', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual(['LINK_BROKEN prod/index.html https://example.com/docs/gone.html']);
  });

  it('a --site-url on a private address names the folder, never a connection', async () => {
    const exit = await check(['prod', '--site-url', 'http://localhost:8080/docs/', '--clean-urls', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual([]);
    expect(exit.code).toBe(0);
  });

  it('--index-file names what a folder URL means', async () => {
    write('idx/index.html', '<a href="sub/">sub</a>');
    write('idx/sub/default.htm', 'default');
    expect(brief(await check(['idx', '--no-check-external', '--format', 'json']))).toEqual(['LINK_BROKEN idx/index.html sub/']);
    const exit = await check(['idx', '--no-check-external', '--format', 'json', '--index-file', 'index.html', '--index-file', 'default.htm']);
    expect(brief(exit)).toEqual([]);
    expect(exit.code).toBe(0);
  });

  it('--map checks absolute links to the production site against the files, fragments included', async () => {
    const exit = await check(['prod', '--map', 'https://example.com/docs/=prod', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual([
      'LINK_BROKEN prod/index.html /docs/about',
      'LINK_BROKEN prod/index.html /docs/page.html',
      'LINK_BROKEN prod/index.html https://example.com/docs/gone.html',
    ]);
    const map = await check(['prod', '--map', 'https://example.com/docs/=prod', '--no-check-external', '--format', 'json']);
    expect(json(map).every((f) => f.page?.startsWith('http://site.invalid/'))).toBe(true);
  });
});

describe('files and globs of a repository', () => {
  it('checks the files given, reads the files they link to for anchors, takes a folder as there', async () => {
    const exit = await check(['docs/a.html', '--no-check-external', '--format', 'json'], path.join(dir, 'repo'));
    expect(brief(exit)).toEqual(['LINK_BROKEN docs/a.html ../nosrc/', 'LINK_FRAGMENT_MISSING docs/a.html b.html#nowhere']);
    expect(exit.code).toBe(1);
  });

  it('expands a quoted glob', async () => {
    const exit = await check(['docs/*.html', '--no-check-external', '--format', 'json'], path.join(dir, 'repo'));
    expect(brief(exit)).toEqual([
      'LINK_BROKEN docs/a.html ../nosrc/',
      'LINK_BROKEN docs/b.html c-missing.html',
      'LINK_FRAGMENT_MISSING docs/a.html b.html#nowhere',
    ]);
  });

});

describe('Markdown', () => {
  beforeAll(() => {
    write(
      'md/README.md',
      [
        '# Getting Started',
        '',
        'See [install](docs/install.md#requirements), [a missing heading](docs/install.md#nope),',
        'the [reference link][ref], a [broken reference][gone] and [this page](#getting-started).',
        '',
        '```sh',
        'curl [not a link](nowhere.md)',
        '```',
        '',
        'Inline `[not a link](nowhere-either.md)` code. A [folder](src/) and [another](nosrc/).',
        '',
        '[ref]: docs/install.md',
        '[gone]: docs/removed.md',
      ].join('\n'),
    );
    write('md/docs/install.md', '# Install\n\n## Requirements\n\n[back](../README.md#getting-started) [bad](../README.md#missing)\n');
    write('md/src/main.ts', 'export {}');
  });

  it('a folder of Markdown: links, references, heading slugs; code is no link; a folder is there as in a repository', async () => {
    const exit = await check(['md', '--no-check-external', '--format', 'json']);
    expect(brief(exit)).toEqual([
      'LINK_BROKEN md/README.md docs/removed.md',
      'LINK_BROKEN md/README.md nosrc/',
      'LINK_FRAGMENT_MISSING md/README.md docs/install.md#nope',
      'LINK_FRAGMENT_MISSING md/docs/install.md ../README.md#missing',
    ]);
    expect(json(exit).find((f) => f.rawHref === 'docs/install.md#nope')).toMatchObject({ line: 3, severity: 'error', verdict: 'broken' });
  });

  it('a Markdown file by name: only its findings, a folder link fine when it exists', async () => {
    const exit = await check(['README.md', '--no-check-external', '--format', 'json'], path.join(dir, 'md'));
    expect(brief(exit)).toEqual([
      'LINK_BROKEN README.md docs/removed.md',
      'LINK_BROKEN README.md nosrc/',
      'LINK_FRAGMENT_MISSING README.md docs/install.md#nope',
    ]);
  });
});

describe('exit codes', () => {
  it('0 when nothing is at or above --fail-on', async () => {
    const exit = await check(['clean', '--no-check-external']);
    expect(exit.code).toBe(0);
    expect(exit.stdout.trim().split('\n').at(-1)).toMatch(/no broken links, nothing to report$/);
  });

  it('1 on a warning with --fail-on warning, 0 without', async () => {
    expect((await check(['warn', '--no-check-external'])).code).toBe(0);
    expect((await check(['warn', '--no-check-external', '--fail-on', 'warning'])).code).toBe(1);
  });

  it('2 for a target that does not exist, or is no page, folder, glob or URL', async () => {
    for (const target of ['nothing-here', 'site/noindex/file.txt', 'ftp://example.com/', 'nomatch/*.md']) {
      const exit = await check([target]);
      expect(exit.code, target).toBe(2);
      expect(exit.stderr.trim().split('\n'), target).toHaveLength(1);
    }
  });

  it('2 for bad options: --site-url, --cache-max-age, --index-file, a format not in this build', async () => {
    expect((await check(['site', '--site-url', 'not a url'])).code).toBe(2);
    expect((await check(['site', '--cache-max-age', 'soon'])).code).toBe(2);
    expect((await check(['site', '--index-file', 'a/b.html'])).code).toBe(2);
    expect((await check(['site', '--format', 'nope'])).code).toBe(2);
  });

  it('3 when the index cannot be written', async () => {
    write('a-file', 'x');
    const exit = await check(['clean', '--no-check-external', '--db', 'a-file/check.db']);
    expect(exit.code).toBe(3);
    expect(exit.stderr).toMatch(/cannot write the index/);
  });

  it('4 when nothing was checked: an empty folder, no reachable seed', async () => {
    const empty = await check(['empty']);
    expect(empty.code).toBe(4);
    expect(empty.stderr).toMatch(/nothing to check/);
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const unreachable = await check([`http://127.0.0.1:${port}/`, '--allow-private', '--retries', '0']);
    expect(unreachable.code).toBe(4);
  });
});

describe('formats', () => {
  it('json: exactly the ten keys on each line, nothing else on stdout', async () => {
    const exit = await check(['site', '--no-check-external', '--json']);
    for (const line of exit.stdout.trim().split('\n')) {
      expect(Object.keys(JSON.parse(line) as object)).toEqual(['code', 'severity', 'verdict', 'target', 'rawHref', 'file', 'line', 'column', 'page', 'message']);
    }
    expect(exit.stderr.trim().split('\n').at(-1)).toMatch(/^\d+ URLs checked: 9 broken links, 0 unverified; 13 findings/);
  });

  it('csv: a header, then a record per finding', async () => {
    const exit = await check(['site', '--no-check-external', '--format', 'csv']);
    const lines = exit.stdout.trim().split('\n');
    expect(lines[0]).toBe('severity,code,verdict,file,line,column,href,target,page,message');
    expect(lines).toContain('error,LINK_BROKEN,broken,site/index.html,5,10,missing.html,http://site.invalid/missing.html,http://site.invalid/,the target answered 404');
  });

  it('sarif: results located at the file (relative), line and column; --out writes it to a file', async () => {
    const exit = await check(['site', '--no-check-external', '--format', 'sarif', '--out', 'out.sarif']);
    expect(exit.code).toBe(1);
    expect(exit.stdout).toBe('');
    const log = JSON.parse(execFileSync('cat', [path.join(dir, 'out.sarif')], { encoding: 'utf8' })) as {
      version: string;
      runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: unknown } }[] }[] }[];
    };
    expect(log.version).toBe('2.1.0');
    const missing = log.runs[0]!.results.find((r) => r.ruleId === 'LINK_BROKEN' && r.locations[0]!.physicalLocation.artifactLocation.uri === 'site/index.html');
    expect(missing?.locations[0]!.physicalLocation.region).toEqual({ startLine: 5, startColumn: 10 });
  });
});

describe('the index', () => {
  it('is rebuilt by each run and renamed into place: one run in it, nothing left beside it', async () => {
    await check(['clean', '--no-check-external']);
    await check(['clean', '--no-check-external']);
    const db = path.join(dir, '.linkladder/check.db');
    const sqlite = new Database(db, { readonly: true });
    try {
      expect((sqlite.prepare('SELECT count(*) AS n FROM crawl_run').get() as { n: number }).n).toBe(1);
    } finally {
      sqlite.close();
    }
    expect(readdirSync(path.dirname(db)).filter((name) => name.includes('.partial'))).toEqual([]);
  });
});

describe('stopped', () => {
  const db = (): string => path.join(dir, 'stop/.linkladder/check.db');
  const runs = (): number => {
    const sqlite = new Database(db(), { readonly: true });
    try {
      return (sqlite.prepare('SELECT count(*) AS n FROM crawl_run').get() as { n: number }).n;
    } finally {
      sqlite.close();
    }
  };
  const partials = (): string[] => readdirSync(path.dirname(db())).filter((name) => name.includes('.partial'));
  /** Once the run has its partial index and has written to it (not at a fixed time: a loaded machine starts slowly), `then`. */
  const oncePartial = (then: () => void): void => {
    const poll = setInterval(() => {
      if (partials().length === 0) return;
      clearInterval(poll);
      setTimeout(then, 300);
    }, 25);
  };

  beforeAll(() => {
    for (let i = 0; i < 3000; i++) write(`stop/site/p${i}.html`, `<a href="p${i + 1}.html">next</a>`);
  });

  it('Ctrl-C: exit 130, the previous index left as it was, the partial one removed', async () => {
    const first = await check(['site', '--no-check-external', '--max-pages', '5'], path.join(dir, 'stop'));
    expect(first.code).toBe(0);
    expect(runs()).toBe(1);
    const exit = await check(['site', '--no-check-external'], path.join(dir, 'stop'), 60_000, (child) => {
      oncePartial(() => child.kill('SIGINT'));
    });
    expect(exit.code).toBe(130);
    expect(runs()).toBe(1);
    expect(partials()).toEqual([]);
  });

  it('killed: the previous index stays; the next run clears what the killed one left and takes its place', async () => {
    const killed = await check(['site', '--no-check-external'], path.join(dir, 'stop'), 60_000, (child) => {
      oncePartial(() => child.kill('SIGKILL'));
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(runs()).toBe(1);
    expect(partials().length).toBeGreaterThan(0);
    const again = await check(['site', '--no-check-external', '--max-pages', '5'], path.join(dir, 'stop'));
    expect(again.code).toBe(0);
    expect(partials()).toEqual([]);
  });
});

describe('a live site', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const ok = request.url === '/' || request.url === '/b.html';
      response.writeHead(ok ? 200 : 404, { 'content-type': 'text/html' });
      response.end(request.url === '/' ? '<a href="b.html">b</a><a href="gone.html">gone</a>' : 'b');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is crawled as crawl does', async () => {
    const exit = await check([`${origin}/`, '--allow-private', '--format', 'json']);
    expect(exit.code).toBe(1);
    expect(json(exit).map((f) => [f.code, f.rawHref, f.file])).toEqual([['LINK_BROKEN', 'gone.html', null]]);
  });

  it('counts a page served as text/x-markdown (as servers still label Markdown) with the pages checked, and its links', async () => {
    const site = createServer((request, response) => {
      const bodies: Record<string, [string, string]> = {
        '/': ['text/html', '<a href="notes.md">notes</a>'],
        '/notes.md': ['text/x-markdown', '[gone](gone.html) and [home](/)'],
      };
      const found = bodies[request.url ?? ''];
      response.writeHead(found === undefined ? 404 : 200, { 'content-type': found?.[0] ?? 'text/html' });
      response.end(found?.[1] ?? '');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const exit = await check([`http://127.0.0.1:${(site.address() as AddressInfo).port}/`, '--allow-private', '--format', 'markdown']);
      expect(exit.code).toBe(1);
      expect(exit.stdout).toContain('1 broken, 0 unverified, 2 ok links on 2 pages');
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
  });
});

describe('external links across runs', () => {
  let external: Server;
  let origin: string;
  const asked: string[] = [];
  beforeAll(async () => {
    // 127.0.0.2 plays another site: what it is asked is its own log.
    external = createServer((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      const status = request.url === '/gone' ? 404 : request.url === '/busy' ? 503 : 200;
      response.writeHead(status, status === 503 ? { 'retry-after': '0' } : {});
      response.end();
    });
    await new Promise<void>((resolve) => external.listen(0, '127.0.0.2', resolve));
    origin = `http://127.0.0.2:${(external.address() as AddressInfo).port}`;
    write('cached/index.html', `<a href="${origin}/ok">ok</a> <a href="${origin}/gone">gone</a> <a href="${origin}/busy">busy</a>`);
  });
  afterAll(() => new Promise<void>((resolve) => external.close(() => resolve())));

  it('a second check within --cache-max-age asks the other site nothing it answered; an unverified link is asked again', async () => {
    const db = path.join(dir, 'cached.db');
    const first = await check(['cached', '--allow-private', '--db', db, '--format', 'json']);
    expect(first.code).toBe(1);
    const expected = [
      ['LINK_BROKEN', `${origin}/gone`, 'broken', 'error'],
      ['LINK_UNVERIFIED', `${origin}/busy`, 'unverified', 'warning'],
    ];
    expect(json(first).map((f) => [f.code, f.target, f.verdict, f.severity])).toEqual(expected);
    expect(asked).toContain('HEAD /ok');
    // The 503 was asked again at the end (its second pass), once.
    expect(first.stderr).toMatch(/second pass: 1 unverified asked again, 0 now ok/);
    asked.length = 0;
    const second = await check(['cached', '--allow-private', '--db', db, '--format', 'json']);
    expect(json(second).map((f) => [f.code, f.target, f.verdict, f.severity])).toEqual(expected);
    // Only the unverified one (and the host's robots.txt, asked for it).
    expect(asked.filter((line) => !line.endsWith('/busy') && line !== 'GET /robots.txt')).toEqual([]);
    expect(second.stderr).toMatch(/2 from the cache/);
    // A cache age of 0: everything is asked again.
    asked.length = 0;
    const third = await check(['cached', '--allow-private', '--db', db, '--format', 'json', '--cache-max-age', '0']);
    expect(json(third).map((f) => [f.code, f.target])).toEqual(expected.map(([code, target]) => [code, target]));
    expect(asked).toEqual(expect.arrayContaining(['HEAD /ok', 'HEAD /gone']));
  });
});

describe('--changed', () => {
  let server: Server;
  const requests: string[] = [];
  let repo: string;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const ext = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    repo = path.join(dir, 'git');
    mkdirSync(path.join(repo, 'public'), { recursive: true });
    writeFileSync(path.join(repo, 'public/a.html'), '<h2 id="install">Install</h2><a href="missing-in-a.html">x</a>');
    writeFileSync(path.join(repo, 'public/b.html'), `<a href="a.html#install">install</a> <a href="${ext}/from-b">external of b</a> <a href="old-broken.html">old</a> <a href="guide/">guide</a>`);
    mkdirSync(path.join(repo, 'public/guide'));
    writeFileSync(path.join(repo, 'public/guide/index.htm'), `<a href="${ext}/from-guide">external of the guide</a>`);
    writeFileSync(path.join(repo, 'public/c.html'), `<a href="${ext}/from-c">external of c</a>`);
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'site');
    // The change: a renamed heading in a.html, an edit of c.html, a new page d.html, the guide deleted.
    writeFileSync(path.join(repo, 'public/a.html'), '<h2 id="installing">Installing</h2><a href="missing-in-a.html">x</a>');
    writeFileSync(path.join(repo, 'public/c.html'), `<a href="${ext}/from-c">external of c</a> <a href="c-gone.html">c</a>`);
    writeFileSync(path.join(repo, 'public/d.html'), '<a href="d-gone.html">new page</a>');
    rmSync(path.join(repo, 'public/guide'), { recursive: true });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports what the changed files break, and links into them; external links of unchanged files are not requested', async () => {
    const exit = await check(['public', '--changed', 'HEAD', '--allow-private', '--retries', '0', '--format', 'json'], repo);
    expect(brief(exit)).toEqual([
      'LINK_BROKEN public/a.html missing-in-a.html',
      // A link of an unchanged file into a deleted one.
      'LINK_BROKEN public/b.html guide/',
      'LINK_BROKEN public/c.html c-gone.html',
      'LINK_BROKEN public/c.html http://127.0.0.1:' + (server.address() as AddressInfo).port + '/from-c',
      'LINK_BROKEN public/d.html d-gone.html',
      'LINK_FRAGMENT_MISSING public/b.html a.html#install',
    ]);
    // c.html's external link is checked (HEAD, then GET on an error answer), b.html's is not asked for.
    expect([...new Set(requests)].sort()).toEqual(['/from-c', '/robots.txt']);
  });

  it('refuses a revision git does not know (exit 2)', async () => {
    expect((await check(['public', '--changed', 'no-such-ref'], repo)).code).toBe(2);
  });
});

describe('hostile folders', () => {
  it('a symlink loop, a FIFO named x.html, a 200 MB file: bounded, and the run goes on', async () => {
    write('hostile/index.html', '<a href="x.html">fifo</a> <a href="huge.html">huge</a> <a href="ok.html">ok</a> <a href="gone.html">gone</a>');
    write('hostile/ok.html', 'ok');
    mkdirSync(path.join(dir, 'hostile/loop'));
    symlinkSync('..', path.join(dir, 'hostile/loop/up'));
    execFileSync('mkfifo', [path.join(dir, 'hostile/x.html')]);
    writeFileSync(path.join(dir, 'hostile/huge.html'), '');
    truncateSync(path.join(dir, 'hostile/huge.html'), 200 * 1024 * 1024);
    const started = Date.now();
    const exit = await check(['hostile', '--no-check-external', '--format', 'json']);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(exit.code).toBe(1);
    const found = brief(exit);
    expect(found).toContain('LINK_BROKEN hostile/index.html gone.html');
    expect(found).toContain('LINK_BROKEN hostile/index.html x.html');
    expect(found).toContain('PAGE_BODY_CAPPED hostile/huge.html');
  }, 90_000);

  it('20,000 files: every one checked', async () => {
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(dir, `many/d${d}`), { recursive: true });
      for (let i = 0; i < 1000; i++) {
        const n = d * 1000 + i;
        writeFileSync(path.join(dir, `many/d${d}/p${n}.html`), `<a href="p${n + 1}.html">next</a>`);
      }
    }
    const exit = await check(['many', '--no-check-external', '--format', 'json', '--db', 'many.db'], dir, 240_000);
    expect(exit.code).toBe(1);
    // Each folder's last page links to the next folder's first: 20 broken, no more.
    expect(json(exit)).toHaveLength(20);
    expect(existsSync(path.join(dir, 'many.db'))).toBe(true);
  }, 300_000);
});
