// A staging site behind a token, a password or a login cookie, crawled by the built
// CLI: each credential reaches every request to the site (robots.txt included), and
// another host — 127.0.0.2, linked, redirected to and embedded from the site — never
// sees it; not a byte of what the CLI prints, nor of the index (database and WAL),
// holds it.

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnCli, type CliExit } from './built-cli.js';

const TOKEN = 'tok-9f3e-STAGING-SECRET';
const PASSWORD = 'pw-4c1a-STAGING-SECRET';
const SESSION = 'sid-77b2-STAGING-SECRET';
const SECRETS = [TOKEN, PASSWORD, SESSION, encodeURIComponent(PASSWORD)];

/** What one server received: each request's path and its raw header lines. */
interface Received {
  readonly url: string;
  readonly method: string;
  readonly headers: readonly string[];
}

interface Site {
  readonly origin: string;
  readonly received: Received[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, other: string) => void;

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-staging-'));
const children = new Set<ChildProcess>();
const sites: Site[] = [];
let other: Site;

async function listen(host: string, handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Site> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    received.push({ url: request.url ?? '', method: request.method ?? '', headers: request.rawHeaders });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const site = {
    origin: `http://${host}:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  sites.push(site);
  return site;
}

/** The site's pages, behind `isAllowed`: a page linking within, to the other host, and a redirect there. */
function stagingSite(isAllowed: (request: IncomingMessage) => boolean, extra: Handler = () => false): Promise<Site> {
  return listen('127.0.0.1', (request, response) => {
    const url = request.url ?? '/';
    if ((extra as (...args: Parameters<Handler>) => unknown)(request, response, other.origin) === true) return;
    if (!isAllowed(request)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="staging"', 'content-type': 'text/plain' }).end('who are you?');
      return;
    }
    if (url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    if (url === '/to-other') {
      response.writeHead(302, { location: `${other.origin}/redirected` }).end();
      return;
    }
    if (url === '/' || url === '/page2') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><title>staging</title>
        <a href="/page2">two</a> <a href="/to-other">elsewhere</a>
        <a href="${other.origin}/linked">other host</a>
        <img src="${other.origin}/cdn.png"> <link rel="stylesheet" href="${other.origin}/cdn.css">`,
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('no');
  });
}

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function cli(args: readonly string[]): Promise<CliExit> {
  return spawnCli(args, children).exit;
}

/** Every byte of the index (the database, its WAL and shared memory), as latin1 text. */
function indexBytes(db: string): string {
  const base = path.basename(db);
  return readdirSync(path.dirname(db))
    .filter((name) => name.startsWith(base))
    .map((name) => readFileSync(path.join(path.dirname(db), name)).toString('latin1'))
    .join('\n');
}

function expectNoSecret(where: string, text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} holds a secret`).toBe(false);
}

/** 127.0.0.2 was asked (linked, redirected to, embedded) and never given a credential. */
function expectOtherHostClean(): void {
  expect(other.received.length).toBeGreaterThan(0);
  const paths = other.received.map((request) => request.url);
  expect(paths).toContain('/redirected');
  expect(paths).toContain('/linked');
  for (const request of other.received) {
    const names = request.headers.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(names, request.url).not.toContain('authorization');
    expect(names, request.url).not.toContain('cookie');
    expect(names, request.url).not.toContain('x-staging-token');
    expectNoSecret(`127.0.0.2 ${request.url}`, request.headers.join('\n'));
  }
}

function expectClean(db: string, ...runs: CliExit[]): void {
  for (const result of runs) expectNoSecret('the output', result.stdout + result.stderr);
  expectNoSecret('the index', indexBytes(db));
  expectOtherHostClean();
}

beforeAll(async () => {
  await ensureBuilt();
  other = await listen('127.0.0.2', (_, response) => {
    // It would set a cookie for the staging host if it could (RFC 6265 §5.3 step 6: it cannot).
    response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': 'stolen=1; Domain=127.0.0.1; Path=/' }).end('ok');
  });
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(sites.map((site) => site.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('a staging site behind credentials', () => {
  it('--header with ${VAR}: every request to the seed\'s origin carries it, robots.txt included; 127.0.0.2 never does', async () => {
    other.received.length = 0;
    const site = await stagingSite((request) => headerOf(request, 'x-staging-token') === TOKEN);
    const db = path.join(dir, 'token.db');
    process.env.LINKLADDER_TEST_STAGING_TOKEN = TOKEN;
    try {
      const result = await cli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--json', '--header', 'X-Staging-Token: ${LINKLADDER_TEST_STAGING_TOKEN}']);
      expect(result.code, result.stderr).toBe(0);
      const urls = site.received.map((request) => request.url);
      expect(urls).toEqual(expect.arrayContaining(['/robots.txt', '/', '/page2', '/to-other']));
      for (const request of site.received) expect(request.headers, request.url).toContain(TOKEN);
      const explained = await cli(['explain', `${site.origin}/page2`, '--db', db, '--json']);
      const stats = await cli(['stats', '--db', db, '--json']);
      expect(JSON.stringify(JSON.parse(stats.stdout))).not.toContain('X-Staging-Token: ');
      expectClean(db, result, explained, stats);
      // The header's name is kept in the run's settings, its value is not.
      expect(indexBytes(db)).toContain('X-Staging-Token');
    } finally {
      delete process.env.LINKLADDER_TEST_STAGING_TOKEN;
    }
  });

  it('check takes --header too (and --header-for another origin)', async () => {
    other.received.length = 0;
    const site = await stagingSite((request) => headerOf(request, 'x-staging-token') === TOKEN);
    const db = path.join(dir, 'check.db');
    const result = await cli([
      'check',
      `${site.origin}/`,
      '--db',
      db,
      '--allow-private',
      '--header',
      `X-Staging-Token: ${TOKEN}`,
      '--header-for',
      `${other.origin} X-Cdn-Key: public-cdn-key`,
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    for (const request of site.received) expect(request.headers, request.url).toContain(TOKEN);
    for (const request of site.received) expect(request.headers, request.url).not.toContain('public-cdn-key');
    expect(other.received.every((request) => request.headers.includes('public-cdn-key'))).toBe(true);
    expectClean(db, result);
  });

  it('Basic auth from the seed\'s userinfo (percent-decoded, UTF-8), for that origin only; the seed is kept without it', async () => {
    other.received.length = 0;
    const expected = `Basic ${Buffer.from(`staging user:${PASSWORD}£`, 'utf8').toString('base64')}`;
    const site = await stagingSite((request) => headerOf(request, 'authorization') === expected);
    const db = path.join(dir, 'basic.db');
    const seed = `${site.origin.replace('http://', `http://staging%20user:${encodeURIComponent(PASSWORD)}%C2%A3@`)}/`;
    const result = await cli(['crawl', seed, '--db', db, '--allow-private', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(site.received.map((request) => request.url)).toEqual(expect.arrayContaining(['/robots.txt', '/', '/page2']));
    for (const request of site.received) expect(request.headers, request.url).toContain(expected);
    expect(result.stdout).toContain(`"${site.origin}/"`);
    expect(result.stdout).not.toContain('staging%20user');
    const runs = await cli(['stats', '--db', db, '--json']);
    expectClean(db, result, runs);
  });

  it('--cookie-jar (curl\'s format, #HttpOnly_ and a session cookie): sent by its domain and path; 127.0.0.2 gets none', async () => {
    other.received.length = 0;
    const site = await stagingSite((request) => (headerOf(request, 'cookie') ?? '').split('; ').includes(`sid=${SESSION}`));
    const db = path.join(dir, 'jar.db');
    const jar = path.join(dir, 'cookies.txt');
    writeFileSync(
      jar,
      [
        '# Netscape HTTP Cookie File',
        '# This file was generated by libcurl! Edit at your own risk.',
        '',
        `#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t${SESSION}`,
        `127.0.0.1\tFALSE\t/admin/\tFALSE\t0\tadmin\t${TOKEN}`,
        '',
      ].join('\n'),
    );
    const result = await cli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--cookie-jar', jar]);
    expect(result.code, result.stderr).toBe(0);
    expect(site.received.map((request) => request.url)).toEqual(expect.arrayContaining(['/robots.txt', '/', '/page2']));
    for (const request of site.received) {
      expect(headerOf2(request, 'cookie'), request.url).toBe(`sid=${SESSION}`);
    }
    expectClean(db, result);
  });

  it('--keep-cookies: the session a login redirect sets is sent for the rest of the run, to that host only', async () => {
    other.received.length = 0;
    const site = await stagingSite(
      (request) => (headerOf(request, 'cookie') ?? '').split('; ').includes(`sid=${SESSION}`),
      (request, response) => {
        if (request.url !== '/login') return false;
        response.writeHead(302, { location: '/', 'set-cookie': [`sid=${SESSION}; Path=/; HttpOnly`, `leak=${SESSION}; Domain=127.0.0.2; Path=/`] }).end();
        return true;
      },
    );
    const db = path.join(dir, 'keep.db');
    const result = await cli(['crawl', `${site.origin}/login`, '--db', db, '--allow-private', '--keep-cookies', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const after = site.received.filter((request) => request.url === '/page2');
    expect(after).toHaveLength(1);
    expect(headerOf2(after[0]!, 'cookie')).toBe(`sid=${SESSION}`);
    // The page the login redirected to was answered: the cookie came with the redirect's next hop.
    expect(result.stdout).toContain(`"${site.origin}/page2"`);
    expectClean(db, result);
  });
});

describe('bad credentials are one usage line that never shows a value', () => {
  it.each([
    ['an unset variable', ['--header', 'X-Staging-Token: ${LINKLADDER_TEST_UNSET_TOKEN}'], 'LINKLADDER_TEST_UNSET_TOKEN, which is not set'],
    ['Host', ['--header', `Host: ${TOKEN}`], 'not to set `Host`'],
    ['Transfer-Encoding', ['--header', 'Transfer-Encoding: chunked'], 'not to set `Transfer-Encoding`'],
    ['no colon', ['--header', `Bearer ${TOKEN}`], "Expected `--header` to be 'Name: value'"],
    ['--header-for in two arguments', ['--header-for', 'https://cdn.example.com', `X-Key: ${TOKEN}`], "`--header-for` to be 'ORIGIN Name: value' in one argument"],
    ['a missing --cookie-jar', ['--cookie-jar', path.join(dir, 'none.txt')], 'cannot read it (ENOENT)'],
  ])('%s', async (_, flags, expected) => {
    for (const command of ['crawl', 'check']) {
      const result = await cli([command, 'http://127.0.0.1:9/', ...flags, '--db', path.join(dir, `never-${command}.db`), '--allow-private']);
      expect(result.code, command).toBe(2);
      expect(result.stderr.trim().split('\n'), command).toHaveLength(1);
      expect(result.stderr, command).toContain(expected);
      expectNoSecret(command, result.stdout + result.stderr);
      expect(existsSync(path.join(dir, `never-${command}.db`)), command).toBe(false);
    }
  });

  it('a bad cookies.txt line names the line only', async () => {
    const jar = path.join(dir, 'bad-cookies.txt');
    writeFileSync(jar, `# Netscape HTTP Cookie File\n127.0.0.1\tmaybe\t/\tFALSE\t0\tsid\t${SESSION}\n`);
    const result = await cli(['crawl', 'http://127.0.0.1:9/', '--cookie-jar', jar, '--db', path.join(dir, 'never.db'), '--allow-private']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 2: field 2');
    expectNoSecret('stderr', result.stderr);
  });
});

/** A header as the raw lines name it (the recorded request, not a live one). */
function headerOf2(request: Received, name: string): string | undefined {
  const values = request.headers.filter((_, i) => i % 2 === 1 && request.headers[i - 1]!.toLowerCase() === name);
  return values.length === 0 ? undefined : values.join('; ');
}
