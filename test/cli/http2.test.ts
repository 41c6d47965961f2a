// HTTP/2 end to end: the built CLI crawls https sites on loopback — node:http2 (h2 and
// HTTP/1.1 on one port) and nginx (`listen … ssl http2`) — trusting the test CA through
// NODE_EXTRA_CA_CERTS, as a user would trust a staging CA. Every request goes over h2
// unless `--no-http2` (or LINKLADDER_HTTP2=false) says HTTP/1.1; the servers' own logs
// say which protocol each request came over, and the index records it (explain).

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { Socket, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '../../src/crawl/index.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { INSTALL_TIMEOUT_MS, NGINX, ensureDebianTools, skipNotice } from '../support/system-tools.js';
import { MAIN, ensureBuilt, type CliExit } from './built-cli.js';

const LOOPBACK_ONLY = fileURLToPath(new URL('../support/loopback-only.mjs', import.meta.url));

const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-cli-http2-'));
let certificates: TestCertificates;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  certificates = await makeTestCertificates();
  await ensureBuilt();
}, 180_000);
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built CLI, with the test CA trusted as Node trusts an extra root (and `env` added). */
function cli(args: readonly string[], env: Record<string, string> = {}): Promise<CliExit> {
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_EXTRA_CA_CERTS: certificates.caFile, ...env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const PAGES: Readonly<Record<string, string>> = {
  '/': '<a href="/a.html">a</a> <a href="/b.html">b</a>',
  '/a.html': '<a href="/b.html">b</a> <a href="/">home</a>',
  '/b.html': '<a href="/a.html">a</a>',
};

/** A small site over node:http2 with HTTP/1.1 allowed; the log is `METHOD path HTTP/x.y` of each request. */
async function startSite(): Promise<{ origin: string; log: string[]; close(): Promise<void> }> {
  const log: string[] = [];
  const server: Http2SecureServer = createSecureServer(
    { key: certificates.leafKey, cert: certificates.leafCert, allowHTTP1: true },
    (request, response) => {
      log.push(`${request.method} ${request.url} HTTP/${request.httpVersion}`);
      const body = PAGES[request.url];
      if (body === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end(body);
    },
  );
  const sessions = new Set<{ destroy(): void }>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

function lastFetchLine(out: string): string | undefined {
  return out.split('\n').filter((line) => line.startsWith('fetch ')).at(-1);
}

describe('crawl and check over HTTP/2 (node:http2)', () => {
  it('crawl: every request over h2 by default; explain shows HTTP/2 and --json carries protocol "h2"', async () => {
    const site = await startSite();
    try {
      const db = path.join(dir, 'h2.db');
      const crawled = await cli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--no-sitemap']);
      expect(crawled.stderr).not.toMatch(/ERR_FETCH/);
      expect(crawled.code).toBe(0);
      expect(site.log.sort()).toEqual(['GET / HTTP/2.0', 'GET /a.html HTTP/2.0', 'GET /b.html HTTP/2.0', 'GET /robots.txt HTTP/2.0']);
      const explained = await cli(['explain', `${site.origin}/a.html`, '--db', db]);
      expect(lastFetchLine(explained.stdout)).toMatch(/status 200, \d+ ms, HTTP\/2$/);
      const json = await cli(['explain', `${site.origin}/a.html`, '--db', db, '--json']);
      const why = JSON.parse(json.stdout) as Explanation;
      expect(why.fetches.map((fetch) => fetch.protocol)).toEqual(['h2']);
    } finally {
      await site.close();
    }
  });

  it('crawl --no-http2: every request over HTTP/1.1 (robots.txt too), and the index says so', async () => {
    const site = await startSite();
    try {
      const db = path.join(dir, 'h1.db');
      const crawled = await cli(['crawl', `${site.origin}/`, '--db', db, '--allow-private', '--no-sitemap', '--no-http2']);
      expect(crawled.code).toBe(0);
      expect(site.log.sort()).toEqual(['GET / HTTP/1.1', 'GET /a.html HTTP/1.1', 'GET /b.html HTTP/1.1', 'GET /robots.txt HTTP/1.1']);
      const explained = await cli(['explain', `${site.origin}/`, '--db', db]);
      expect(lastFetchLine(explained.stdout)).toMatch(/status 200, \d+ ms, HTTP\/1\.1$/);
    } finally {
      await site.close();
    }
  });

  it('check takes the setting too: h2 by default, HTTP/1.1 with LINKLADDER_HTTP2=false', async () => {
    const site = await startSite();
    try {
      const checked = await cli(['check', `${site.origin}/`, '--db', path.join(dir, 'check-h2.db'), '--allow-private']);
      expect(checked.code).toBe(0);
      expect(site.log.length).toBeGreaterThan(0);
      expect(site.log.every((line) => line.endsWith('HTTP/2.0'))).toBe(true);
      site.log.length = 0;
      const h1 = await cli(['check', `${site.origin}/`, '--db', path.join(dir, 'check-h1.db'), '--allow-private'], { LINKLADDER_HTTP2: 'false' });
      expect(h1.code).toBe(0);
      expect(site.log.length).toBeGreaterThan(0);
      expect(site.log.every((line) => line.endsWith('HTTP/1.1'))).toBe(true);
    } finally {
      await site.close();
    }
  });
});

describe('nginx with `listen … ssl http2`', () => {
  let nginxMissing: string | undefined;
  beforeAll(async () => {
    nginxMissing = await ensureDebianTools(NGINX);
  }, INSTALL_TIMEOUT_MS + 60_000);

  async function freePort(): Promise<number> {
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  /** nginx serving `root` over TLS with HTTP/2 offered; its log is `$server_protocol $status $request_method $request_uri`. */
  async function startNginx(root: string): Promise<{ origin: string; logFile: string; stop(): Promise<void> }> {
    const work = path.join(dir, `nginx-${Date.now()}`);
    mkdirSync(path.join(work, 'logs'), { recursive: true });
    mkdirSync(path.join(work, 'tmp'), { recursive: true });
    writeFileSync(path.join(work, 'leaf.key'), certificates.leafKey);
    writeFileSync(path.join(work, 'leaf.pem'), certificates.leafCert);
    const port = await freePort();
    const logFile = path.join(work, 'logs', 'access.log');
    writeFileSync(
      path.join(work, 'nginx.conf'),
      `daemon off;
master_process off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/logs/error.log;
events { worker_connections 256; }
http {
  types { text/html html; text/plain txt; }
  default_type application/octet-stream;
  client_body_temp_path ${work}/tmp/body;
  proxy_temp_path ${work}/tmp/proxy;
  fastcgi_temp_path ${work}/tmp/fastcgi;
  uwsgi_temp_path ${work}/tmp/uwsgi;
  scgi_temp_path ${work}/tmp/scgi;
  log_format protocol '$server_protocol $status $request_method $request_uri';
  access_log ${logFile} protocol;
  server {
    listen 127.0.0.1:${port} ssl http2;
    ssl_certificate ${work}/leaf.pem;
    ssl_certificate_key ${work}/leaf.key;
    root ${root};
  }
}
`,
    );
    const nginx = spawn(NGINX.path, ['-p', work, '-c', path.join(work, 'nginx.conf'), '-e', path.join(work, 'logs', 'error.log')], { stdio: 'ignore' });
    running.add(nginx);
    const origin = `https://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
        socket.connect(port, '127.0.0.1');
      });
      if (up) break;
      if (nginx.exitCode !== null) throw new Error(`nginx did not start: ${readFileSync(path.join(work, 'logs', 'error.log'), 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {
      origin,
      logFile,
      stop: async () => {
        if (nginx.exitCode === null) {
          nginx.kill('SIGQUIT');
          await once(nginx, 'close');
        }
        running.delete(nginx);
      },
    };
  }

  it('crawls a small tree over h2, every request HTTP/2.0 in nginx’s log, as many as the crawl counted; --no-http2 over HTTP/1.1', async (context) => {
    if (nginxMissing !== undefined) return context.skip(skipNotice('the nginx HTTP/2 crawl', nginxMissing));
    const root = path.join(dir, 'tree');
    mkdirSync(path.join(root, 'docs'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<a href="docs/one.html">1</a> <a href="docs/two.html">2</a> <a href="missing.html">x</a>');
    writeFileSync(path.join(root, 'docs', 'one.html'), '<a href="two.html">2</a> <a href="../index.html">home</a>');
    writeFileSync(path.join(root, 'docs', 'two.html'), '<a href="one.html#top">1</a>');
    writeFileSync(path.join(root, 'robots.txt'), 'User-agent: *\nAllow: /\n');
    const server = await startNginx(root);
    try {
      for (const [label, flags, protocol] of [
        ['h2', [], 'HTTP/2.0'],
        ['h1', ['--no-http2'], 'HTTP/1.1'],
      ] as const) {
        writeFileSync(server.logFile, '');
        const db = path.join(dir, `nginx-${label}.db`);
        const crawled = await cli(['crawl', `${server.origin}/`, '--db', db, '--allow-private', '--no-sitemap', '--json', ...flags]);
        expect(crawled.code, crawled.stderr).toBe(0);
        const events = crawled.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        const summary = events.find((event) => event.type === 'summary');
        // Each page event says what its answer came over.
        const pages = events.filter((event) => event.type === 'page');
        expect(pages.map((event) => event.protocol)).toEqual(pages.map(() => (label === 'h2' ? 'h2' : 'http/1.1')));
        expect(pages).toHaveLength(5);
        const lines = readFileSync(server.logFile, 'utf8').trim().split('\n');
        expect(lines.every((line) => line.startsWith(`${protocol} `)), lines.join('\n')).toBe(true);
        expect(lines.map((line) => line.split(' ').slice(1).join(' ')).sort()).toEqual([
          '200 GET /',
          '200 GET /docs/one.html',
          '200 GET /docs/two.html',
          '200 GET /index.html',
          '200 GET /robots.txt',
          '404 GET /missing.html',
        ]);
        expect(summary?.requests, JSON.stringify(summary)).toBe(lines.length);
        const explained = await cli(['explain', `${server.origin}/docs/one.html`, '--db', db]);
        expect(lastFetchLine(explained.stdout)).toMatch(label === 'h2' ? /, HTTP\/2$/ : /, HTTP\/1\.1$/);
      }
    } finally {
      await server.stop();
    }
  });
});

describe('crawl --warc over HTTP/2', () => {
  it('writes each h2 exchange in its HTTP/1.1 form with WARC-Protocol h2: warcio reads the status and the fields, no pseudo-field is written', async () => {
    const site = await startSite();
    try {
      const warc = path.join(dir, 'h2.warc.gz');
      const crawled = await cli(['crawl', `${site.origin}/`, '--db', path.join(dir, 'h2-warc.db'), '--allow-private', '--no-sitemap', '--warc', warc]);
      expect(crawled.code, crawled.stderr).toBe(0);
      expect(site.log.every((line) => line.endsWith('HTTP/2.0'))).toBe(true);
      const requests: string[] = [];
      let responses = 0;
      for await (const record of new WARCParser([readFileSync(warc)], { parseHttp: true })) {
        if (record.warcType === 'request') {
          expect(record.warcHeader('WARC-Protocol')).toBe('h2');
          requests.push(record.httpHeaders?.statusline ?? '');
          expect(record.httpHeaders?.headers.get('host')).toBe(site.origin.slice('https://'.length));
        } else if (record.warcType === 'response' || record.warcType === 'revisit') {
          expect(record.warcHeader('WARC-Protocol')).toBe('h2');
          expect(record.httpHeaders?.statusline).toMatch(/^HTTP\/1\.1 \d{3}$/);
          expect([200, 404]).toContain(Number(record.httpHeaders?.statusCode));
          responses++;
        }
        await record.readFully(false);
      }
      expect(requests.sort()).toEqual(site.log.map((line) => line.replace('HTTP/2.0', 'HTTP/1.1')).sort());
      expect(responses).toBe(site.log.length);
      expect(gunzipSync(readFileSync(warc)).toString('latin1')).not.toMatch(/^:/m);
    } finally {
      await site.close();
    }
  }, 60_000);
});
