// `linkladder crawl`, in-process, against the demo server on 127.0.0.1.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkRequestLog, startDemoServer, type DemoServer } from '../../../src/cli/demo/index.js';
import { checkedCounts, type CrawlSummary } from '../../../src/crawl/index.js';
import { SqliteStore, openIndexReader, type StoreStats } from '../../../src/store/index.js';
import { FakeInterrupts, Sink, jsonLines, run } from '../cli-harness.js';
import { ROBOTS, untilRequests } from '../demo-crawl.js';

const require = createRequire(import.meta.url);

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-crawl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function demoServer(): Promise<DemoServer> {
  const server = await startDemoServer();
  servers.push(server);
  return server;
}

/** A child process holding SQLite's write lock on `db` until released. */
async function lockInAnotherProcess(db: string): Promise<{ release: () => Promise<void> }> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(process.argv[1], { timeout: 20000 });
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    process.stdin.resume();
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); });`;
  const child = spawn(process.execPath, ['-e', script, db], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the locker exited (${code}) before it held the lock`)));
  });
  return {
    release: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

let dbCount = 0;
function newDb(): string {
  dbCount++;
  return path.join(dir, `crawl-${dbCount}.db`);
}

async function statsOf(db: string): Promise<StoreStats> {
  const store = new SqliteStore({ path: db, mustExist: true });
  try {
    return await store.stats();
  } finally {
    await store.close();
  }
}

describe('linkladder crawl', () => {
  it('crawls the demo site: each resource once, exit 0, the summary on stdout, nothing on stderr off a terminal', async () => {
    const server = await demoServer();
    const db = newDb();
    const result = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private']);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    expect(checkRequestLog(server.requests)).toMatchObject({ missing: [], repeated: [], forbidden: [], unexpected: [], isCorrect: true });
    expect(result.out[0]).toBe('crawl       finished: the frontier is empty');
    expect(result.out).toContain('fetched     28 URLs answered, 3 failed (pages, resources and external links);');
    expect(result.stdout).toMatch(/^known URLs {2}\d+ links named a URL already known \(as written \d+,/m);
    expect(result.stdout).toMatch(/^merged {6}6 URLs found to stand for another \(redirect 4, content-location 2\);$/m);
    expect(result.stdout).toContain('evidence rejected 1, revoked 0\n');
    // What to fix leads: broken, the verdicts, then redirects, then external links.
    expect(result.out.slice(1, 6).map((line) => line.slice(0, 12).trim())).toEqual(['broken', '', 'verdicts', 'redirects', 'external']);
    expect(result.stdout).toContain('external    2 links to other sites checked, each once: 1 broken\n');
    expect(result.stdout).toContain('resources   3 checked (images, stylesheets, scripts, …), each once: 1 broken\n');
    expect(result.stdout).toContain('not checked 1 URL: robots.txt disallows it\n');
    expect(result.stdout).toContain('errors      7 URLs: ERR_CRAWL_ROBOTS_DISALLOWED 1, ERR_FETCH_REDIRECT_LOOP 1,');
    expect(result.stdout).toContain('broken      5 URLs: 4xx 3, 5xx 0, no response 2;\n            `linkladder audit` lists the links to them\n');
    // Each URL checked once, by the verdict its fetch row records: what `stats` and the audit say of the index.
    expect(result.stdout).toContain('verdicts    36 URLs checked: 29 ok, 5 broken, 2 unverified\n');
    expect(result.stdout).toContain('redirects   3 URLs answered with a redirect, 5 redirect hops followed\n');
    expect(result.stdout).toMatch(/^saved {7}5 requests avoided: URLs joined to a known page first$/m);
    expect(result.stdout).toContain('hrefs       browser-style fixes: HREF_BACKSLASH 1,');
    expect(result.stdout).toMatch(/^duration {4}\d/m);
    expect(result.out.every((line) => line.length <= 80)).toBe(true);
    // One run: the whole index is this run, so no second duplicates line.
    expect(result.stdout).not.toContain('whole index');
    const stats = await statsOf(db);
    const reader = openIndexReader(db);
    try {
      expect((await checkedCounts(reader)).verdicts).toEqual({ ok: 29, broken: 5, unverified: 2 });
    } finally {
      await reader.close();
    }
    expect(stats.urlsByState).toMatchObject({ queued: 0, fetching: 0, done: 28, failed: 3, alias: 6 });
    expect(stats.aliasesByEvidence).toMatchObject({ redirect: 4, 'content-location': 2 });
  });

  it('--json: one object per event, then the summary', async () => {
    const server = await demoServer();
    const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const objects = jsonLines(result) as { type: string }[];
    const summary = objects.at(-1) as CrawlSummary & { type: string };
    expect(summary).toMatchObject({ type: 'summary', stoppedBy: 'frontier-empty', pagesFetched: 28, pagesFailed: 3 });
    const events = objects.slice(0, -1);
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(['page', 'error', 'evidence', 'progress']));
    expect(events.filter((event) => event.type === 'page')).toHaveLength(summary.pagesFetched);
    const learned = events.filter((event) => event.type === 'evidence' && (event as { action?: string }).action === 'learned');
    expect(learned).toHaveLength(6);
    // Absent fields are null: every page event has the same keys.
    const keys = new Set(events.filter((event) => event.type === 'page').map((event) => Object.keys(event).sort().join()));
    expect(keys.size).toBe(1);
  });

  it('--json to a slow reader: the fetcher waits for stdout, and every line arrives', async () => {
    const server = await demoServer();
    const stdout = new Sink({ highWaterMark: 64, isSlow: true });
    const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private', '--json'], { stdout });
    expect(result.code).toBe(0);
    const objects = jsonLines(result) as { type: string }[];
    expect(objects.at(-1)?.type).toBe('summary');
    expect(objects.filter((object) => object.type === 'page')).toHaveLength(28);
    expect(checkRequestLog(server.requests).isCorrect).toBe(true);
  });

  it('draws one progress line in place on a terminal, and erases it before the summary', async () => {
    const server = await demoServer();
    const stderr = Object.assign(new Sink(), { isTTY: true, columns: 60 });
    const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private'], { stderr });
    expect(result.code).toBe(0);
    // The line is cut to the terminal's width (the whole line: test/cli/progress-line.test.ts).
    expect(stderr.text).toMatch(/^\rcrawling: \d+ broken, \d+ redirected; \d+ done, \d+ queued/);
    expect(stderr.text).not.toContain('\n');
    expect(stderr.text.endsWith('\r\u001b[K')).toBe(true);
    expect(stderr.text.split('\r').every((draw) => draw.replace('\u001b[K', '').length < 60)).toBe(true);
    expect(result.out[0]).toBe('crawl       finished: the frontier is empty');
  });

  it('passes the scope options on: --exclude and --max-depth', async () => {
    const server = await demoServer();
    const db = newDb();
    // Depths counted from the seed alone: no sitemap (its entries are depth 0).
    const result = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--no-sitemap', '--exclude', '/manual/', '--max-depth', '1']);
    expect(result.code).toBe(0);
    const targets = server.requests.map((entry) => entry.slice(entry.indexOf(' ') + 1));
    expect(targets).toContain('/spellings.html'); // depth 1
    expect(targets.filter((target) => target.startsWith('/manual/'))).toEqual([]);
    expect(targets.filter((target) => target.includes('user'))).toEqual([]); // /~user/ is depth 2
    const store = new SqliteStore({ path: db, mustExist: true });
    try {
      expect((await store.findUrl(`${server.origin}/manual/core.html`))?.state).toBe('skipped');
      expect((await store.findUrl(`${server.origin}/~user/`))?.state).toBe('skipped');
    } finally {
      await store.close();
    }
  });

  it.each([
    ['0', 1],
    ['1', 2],
  ])('--retries %s: the demo site\'s 500 page is asked %i time(s) in all', async (retries, times) => {
    const server = await demoServer();
    const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private', '--retries', retries]);
    expect(result.code).toBe(0);
    expect(server.requests.filter((request) => request === 'GET /server-error')).toHaveLength(times);
    expect(result.out).toContain('fetched     28 URLs answered, 3 failed (pages, resources and external links);');
  });

  it.each([
    [['--max-pages', 'abc'], "error: option '--max-pages <n>' argument 'abc' is invalid. Expected an integer >= 0."],
    [['--max-pages', '-1'], "error: option '--max-pages <n>' argument '-1' is invalid. Expected an integer >= 0."],
    [['--concurrency', '0'], "error: option '--concurrency <n>' argument '0' is invalid. Expected an integer from 1 to 1000."],
    [['--per-host-delay-ms', '1.5'], "error: option '--per-host-delay-ms <ms>' argument '1.5' is invalid. Expected an integer from 0 to 3600000."],
    // Past Node's timer range a delay would fire at once, in a 1 ms loop of warnings.
    [['--per-host-delay-ms', '3000000000'], "error: option '--per-host-delay-ms <ms>' argument '3000000000' is invalid. Expected an integer from 0 to 3600000."],
    [['--retries', '1000'], "error: option '--retries <n>' argument '1000' is invalid. Expected an integer from 0 to 10."],
    [['--concurrency', '100000'], "error: option '--concurrency <n>' argument '100000' is invalid. Expected an integer from 1 to 1000."],
    [['--retry-delay-ms', '99999999'], "error: option '--retry-delay-ms <ms>' argument '99999999' is invalid. Expected an integer from 0 to 60000."],
    [['--delay', '50'], "error: option '--delay <value>' argument '50' is invalid. --delay is not an option; use --per-host-delay-ms."],
    [['--retries', '-1'], "error: option '--retries <n>' argument '-1' is invalid. Expected an integer from 0 to 10."],
    [['--retries', 'two'], "error: option '--retries <n>' argument 'two' is invalid. Expected an integer from 0 to 10."],
    [['--retries', '1.5'], "error: option '--retries <n>' argument '1.5' is invalid. Expected an integer from 0 to 10."],
    [['--retries', ''], "error: option '--retries <n>' argument '' is invalid. Expected an integer from 0 to 10."],
    [['--scope', 'planet'], "error: option '--scope <scope>' argument 'planet' is invalid. Allowed choices are origin, host, domain, prefix."],
    [['--base-mode', 'html5'], "error: option '--base-mode <mode>' argument 'html5' is invalid. Allowed choices are rfc3986, browser."],
    [['--include', '('], "error: option '--include <regex>' argument '(' is invalid. Invalid regular expression: /(/: Unterminated group."],
    [['--exclude', '[a'], "error: option '--exclude <regex>' argument '[a' is invalid. Invalid regular expression: /[a/: Unterminated character class."],
    // The fetcher's check, made by the settings' schema now: it names the option and the value.
    [['--user-agent', ''], "error: option '--user-agent <string>' argument '' is invalid. Expected a non-empty string without CR, LF or NUL."],
  ])('a bad option value (%j) is a usage error: one stderr line, exit 2, no database', async (args, message) => {
    const db = newDb();
    const result = await run(['crawl', 'http://127.0.0.1:9/', '--db', db, '--allow-private', ...args]);
    expect(result).toMatchObject({ code: 2, stdout: '', err: [`linkladder: ${message}`] });
    expect(existsSync(db)).toBe(false);
  });

  it.each([
    [['ftp://example.com/'], /^linkladder: error: Expected `seeds` to hold absolute http\(s\) URLs with a host, got `ftp:\/\/example.com\/` \(string\)$/],
    [['/relative'], /^linkladder: error: Expected `seeds` to hold absolute http\(s\) URLs with a host, got `\/relative` \(string\)/],
    [['http://127.0.0.1:9/'], /^linkladder: error: Expected `seeds` to name public hosts unless `--allow-private` is true, got .*loopback/],
    // crawl()'s own OptionError at startup: a robots.txt product token the user-agent does not begin with.
    [['http://example.com/', '--user-agent', '1bot'], /^linkladder: error: Expected `productToken` .* when `--user-agent` does not start with one/],
  ])("crawl()'s own OptionError at startup (%j) is a usage error too, before the database is created", async (args, message) => {
    const db = newDb();
    const result = await run(['crawl', ...args, '--db', db]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(message);
    expect(existsSync(db)).toBe(false);
  });

  it('a database that cannot be opened: one line, exit 3', async () => {
    const result = await run(['crawl', 'http://127.0.0.1:9/', '--db', dir, '--allow-private']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^linkladder: error: cannot open /);
  });

  it('the index fails mid-crawl (another connection holds the write lock): the summary, one error line, exit 3', async () => {
    const server = await demoServer();
    const db = newDb();
    const running = run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--per-host-delay-ms', '50']);
    await untilRequests(server, 4);
    // Another process takes the write lock (in this one, its busy wait would block the
    // crawl's event loop while the crawl holds the lock for an open group of units).
    const locker = await lockInAnotherProcess(db);
    try {
      const result = await running;
      expect(result.code).toBe(3);
      expect(result.out[0]).toBe('crawl       stopped on a fatal error (on stderr); run it again to resume');
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/^linkladder: error: the crawl stopped on a fatal error: .*database is locked/);
    } finally {
      await locker.release();
    }
    expect((await statsOf(db)).urlsByState.fetching).toBe(0);
  }, 30_000);

  it('resumes: --max-pages 5, then a second run on the same database fetches the rest, each resource once over both', async () => {
    const server = await demoServer();
    const db = newDb();
    const first = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--max-pages', '5']);
    expect(first.code).toBe(0);
    expect(first.out[0]).toBe('crawl       stopped at --max-pages: the rest stays queued; run it again to go on');
    // 5 URLs requested, and /sitemap.xml before them (not counted by --max-pages).
    expect(first.out.find((line) => line.startsWith('requests'))).toMatch(/^requests    \d+: 5 fetches, 0 retries, \d+ redirect hops, 1 robots\.txt, 1 sitemap$/);
    const between = (await statsOf(db)).urlsByState;
    expect(between.fetching).toBe(0);
    expect(between.queued).toBeGreaterThan(0);

    const second = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private']);
    expect(second.code).toBe(0);
    expect(second.out[0]).toBe('crawl       finished: the frontier is empty');
    // This run's links are not the whole index's any more.
    expect(second.stdout).toMatch(/^ {12}whole index: \d+ links named a URL already known/m);
    expect((await statsOf(db)).urlsByState).toMatchObject({ queued: 0, fetching: 0, done: 28, failed: 3, alias: 6 });

    // robots.txt is kept in the index (RFC 9309 §2.4: for up to 24 hours): the second run does not ask again.
    const check = checkRequestLog(server.requests);
    expect(check).toMatchObject({ missing: [], forbidden: [], unexpected: [], repeated: [] });
  });

  it('Ctrl-C: stops cleanly, prints the summary, exit 130; claimed URLs go back to the queue and the next run finishes', async () => {
    const server = await demoServer();
    const db = newDb();
    const interrupts = new FakeInterrupts();
    const running = run(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--per-host-delay-ms', '50'], {
      onInterrupt: interrupts.source,
    });
    await untilRequests(server, 6);
    expect(interrupts.listeners).toBe(1);
    interrupts.interrupt();
    const stopped = await running;
    expect(stopped.code).toBe(130);
    expect(stopped.err).toEqual([]);
    expect(stopped.out[0]).toBe('crawl       interrupted (Ctrl-C): claimed URLs requeued; run it again to resume');
    expect(stopped.stdout).toMatch(/^duration/m);
    expect(interrupts.listeners).toBe(0);
    const between = (await statsOf(db)).urlsByState;
    expect(between.fetching).toBe(0);
    expect(between.queued).toBeGreaterThan(0);
    const before = server.requests.length;

    const resumed = await run(['crawl', `${server.origin}/`, '--db', db, '--allow-private']);
    expect(resumed.code).toBe(0);
    expect(server.requests.length).toBeGreaterThan(before);
    const check = checkRequestLog(server.requests);
    expect(check).toMatchObject({ missing: [], forbidden: [], unexpected: [] });
    // The one fetch in flight at Ctrl-C (one host, one request at a time) was aborted
    // and is asked again: at most its redirect chain repeats, besides robots.txt.
    const repeats = check.repeated.filter(({ target }) => target !== ROBOTS);
    expect(repeats.reduce((n, { count }) => n + count - 1, 0)).toBeLessThanOrEqual(3);
  });

  describe('settings from a config file and LINKLADDER_* variables', () => {
    let cwdCount = 0;
    /** A working directory of its own; `defaultFile` becomes its linkladder.config.json. */
    function workdir(defaultFile?: unknown): string {
      cwdCount++;
      const cwd = path.join(dir, `cwd-${cwdCount}`);
      mkdirSync(cwd, { recursive: true });
      if (defaultFile !== undefined) writeFileSync(path.join(cwd, 'linkladder.config.json'), JSON.stringify(defaultFile));
      return cwd;
    }

    it('default < linkladder.config.json < LINKLADDER_* < flags, end to end (--max-pages)', async () => {
      const server = await demoServer();
      const cwd = workdir({ maxPages: 2, allowPrivate: true });
      const requests = async (args: readonly string[], env: Record<string, string> = {}): Promise<string | undefined> => {
        // Requests counted: no sitemap (/sitemap.xml is a fetch too, before the pages).
        const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--no-sitemap', ...args], { cwd, env });
        expect(result.err).toEqual([]);
        expect(result.code).toBe(0);
        // --max-pages counts URLs requested: the fetches of the summary's breakdown.
        return /: (\d+ fetches)/.exec(result.out.find((line) => line.startsWith('requests')) ?? '')?.[1];
      };
      expect(await requests([])).toBe('2 fetches');
      expect(await requests([], { LINKLADDER_MAX_PAGES: '3' })).toBe('3 fetches');
      expect(await requests(['--max-pages', '4'], { LINKLADDER_MAX_PAGES: '3' })).toBe('4 fetches');
      // --config names another file: the default one is not read (allowPrivate is not set, so the seed is refused).
      writeFileSync(path.join(cwd, 'other.json'), JSON.stringify({ maxPages: 1 }));
      const refused = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--config', 'other.json'], { cwd });
      expect(refused.code).toBe(2);
      expect(refused.err[0]).toMatch(/to name public hosts unless `--allow-private` is true/);
      expect(await requests(['--config', 'other.json', '--allow-private'])).toBe('1 fetches');
      // --no-allow-private turns off what the file turned on.
      const off = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--no-allow-private'], { cwd });
      expect(off.code).toBe(2);
    });

    it('LINKLADDER_JSON=true and LINKLADDER_ALLOW_PRIVATE=1 without any file', async () => {
      const server = await demoServer();
      const result = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--max-pages', '1'], {
        cwd: workdir(),
        env: { LINKLADDER_JSON: 'true', LINKLADDER_ALLOW_PRIVATE: '1' },
      });
      expect(result.code).toBe(0);
      expect((jsonLines(result).at(-1) as { type: string }).type).toBe('summary');
    });

    it.each<[string, unknown, RegExp]>([
      ['a bad value', { concurrency: 0, retries: 'two' }, /^linkladder: error: invalid config file bad\.json: Expected `concurrency` to be an integer from 1 to 1000, got `0` \(number\); Expected `retries` to be an integer from 0 to 10, got `two` \(string\)$/],
      ['an unknown key', { concurency: 8 }, /^linkladder: error: invalid config file bad\.json: unknown key `concurency` \(did you mean `concurrency`\?\)$/],
      ['not JSON', '{"concurrency": 8,', /^linkladder: error: config file bad\.json is not JSON: /],
    ])('--config bad.json with %s: ERR_CONFIG_INVALID, one stderr line, exit 2, no database', async (_, content, line) => {
      const cwd = workdir();
      writeFileSync(path.join(cwd, 'bad.json'), typeof content === 'string' ? content : JSON.stringify(content));
      const db = newDb();
      const result = await run(['crawl', 'http://127.0.0.1:9/', '--config', 'bad.json', '--db', db, '--allow-private'], { cwd });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(line);
      expect(existsSync(db)).toBe(false);
    });

    it('a missing --config file: one line, exit 2; a missing linkladder.config.json is no error', async () => {
      const cwd = workdir();
      const missing = await run(['crawl', 'http://127.0.0.1:9/', '--config', 'missing.json', '--db', newDb(), '--allow-private'], { cwd });
      expect(missing).toMatchObject({ code: 2, stdout: '' });
      expect(missing.err).toHaveLength(1);
      expect(missing.err[0]).toMatch(/^linkladder: error: cannot read config file missing\.json: ENOENT/);

      const server = await demoServer();
      const ok = await run(['crawl', `${server.origin}/`, '--db', newDb(), '--allow-private', '--max-pages', '1'], { cwd: path.join(dir, 'no-such-dir') });
      expect(ok.code).toBe(0);
    });

    it('an invalid linkladder.config.json and a bad LINKLADDER_* value are usage errors too; an unknown variable is a warning', async () => {
      const fromFile = await run(['crawl', 'http://127.0.0.1:9/', '--db', newDb()], { cwd: workdir({ scope: 'planet' }) });
      expect(fromFile.code).toBe(2);
      expect(fromFile.err).toEqual([
        'linkladder: error: invalid config file linkladder.config.json: Expected `scope` to be one of origin, host, domain, prefix, got `planet` (string)',
      ]);
      const fromEnv = await run(['crawl', 'http://127.0.0.1:9/', '--db', newDb()], {
        cwd: workdir(),
        env: { LINKLADDER_CONCURRENCY: '0', LINKLADDER_DEPTH: '2' },
      });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.err).toEqual([
        'linkladder: warning: `LINKLADDER_DEPTH` is not a setting (did you mean `LINKLADDER_MAX_DEPTH`?); it is ignored',
        'linkladder: error: invalid LINKLADDER_* variables: `LINKLADDER_CONCURRENCY=0`: Expected an integer from 1 to 1000',
      ]);
    });

    it("a node-config config/default.json in the working directory is left alone; an unknown variable does not stop the command", async () => {
      const cwd = workdir();
      mkdirSync(path.join(cwd, 'config'));
      writeFileSync(path.join(cwd, 'config', 'default.json'), JSON.stringify({ server: { port: 8080 } }));
      const result = await run(['crawl', 'http://127.0.0.1:9/', '--db', newDb(), '--allow-private', '--retries', '0'], { cwd, env: { LINKLADDER_FROB: '1' } });
      expect(result.err[0]).toBe('linkladder: warning: `LINKLADDER_FROB` is not a setting; it is ignored');
      expect(result.err.join('\n')).not.toContain('config/default.json');
      expect(result.out[0]).toMatch(/^crawl /);
    });
  });
});
