// The built CLI behind a proxy and against https sites with their own certificates:
// `--proxy` (its credentials to the proxy only: never on the target, in an output or
// the index), HTTP_PROXY and `--no-proxy` for `check`; `--ca-file`, Node's
// NODE_EXTRA_CA_CERTS (with and without `--ca-file`), `--insecure` (warned, noted in
// the summary, recorded), and a seed whose certificate is refused said in one line.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/index.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { MAIN, ensureBuilt, type CliExit } from './built-cli.js';

const LOOPBACK_ONLY = fileURLToPath(new URL('../support/loopback-only.mjs', import.meta.url));
const SECRET = 'Pr0xyPassw0rd';
const dir = mkdtempSync(path.join(tmpdir(), 'linkladder-proxy-tls-'));
const running = new Set<ChildProcess>();
const closers: (() => Promise<void>)[] = [];
let certificates: TestCertificates;

beforeAll(async () => {
  await ensureBuilt();
  certificates = await makeTestCertificates();
}, 180_000);
afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built CLI with `env` added to a copy of this process's environment less its proxy variables. */
function cli(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliExit> {
  const base = { ...process.env };
  for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS']) delete base[name];
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...base, ...env } });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

interface Site {
  readonly origin: string;
  readonly requests: { readonly url: string; readonly headers: IncomingHttpHeaders }[];
}

/** Two linked pages on `host`, over http or https with a key and certificate. */
async function site(host: string, tls?: { readonly key: string; readonly cert: string }): Promise<Site> {
  const requests: Site['requests'][number][] = [];
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    if (request.url === '/robots.txt') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end(request.url === '/' ? '<a href="/two">two</a>' : '<p>two');
  };
  const server: Server = tls === undefined ? createServer(handler) : createHttpsServer(tls, handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `${tls === undefined ? 'http' : 'https'}://${host}:${(server.address() as AddressInfo).port}`, requests };
}

async function proxy(): Promise<ForwardProxy> {
  const started = await startForwardProxy();
  closers.push(() => started.close());
  return started;
}

function indexBytes(db: string): string {
  return [db, `${db}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file).toString('latin1')).join('');
}

async function runSettings(db: string): Promise<Readonly<Record<string, unknown>>> {
  const store = new SqliteStore({ path: db });
  try {
    const runs = await store.runs();
    return runs[runs.length - 1]!.settings;
  } finally {
    await store.close();
  }
}

describe('crawl --proxy', () => {
  it('goes through the proxy (absolute form, robots.txt too); its credentials reach the proxy only, never an output or the index', async () => {
    const forward = await proxy();
    const basic = `Basic ${Buffer.from(`user:${SECRET}`).toString('base64')}`;
    forward.requireAuthorization = basic;
    const target = await site('127.0.0.2');
    const db = path.join(dir, 'proxy.db');
    const proxyUrl = forward.url.replace('http://', `http://user:${SECRET}@`);
    const result = await cli(['crawl', `${target.origin}/`, '--db', db, '--allow-private', '--proxy', proxyUrl, '--json']);
    expect(result.code).toBe(0);
    expect(forward.seen.map((seen) => `${seen.method} ${seen.target}`)).toEqual([
      `GET ${target.origin}/robots.txt`,
      `GET ${target.origin}/sitemap.xml`,
      `GET ${target.origin}/`,
      `GET ${target.origin}/two`,
    ]);
    expect(forward.seen.every((seen) => seen.headers['proxy-authorization'] === basic)).toBe(true);
    expect(target.requests).toHaveLength(4);
    for (const request of target.requests) expect(request.headers['proxy-authorization']).toBeUndefined();
    const everything = result.stdout + result.stderr + indexBytes(db);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(Buffer.from(`user:${SECRET}`).toString('base64'));
    expect((await runSettings(db)).proxy).toBe(`127.0.0.1:${forward.port}`);
  });

  it('a proxy that is down: the seed says so in one line, exit 4', async () => {
    const target = await site('127.0.0.2');
    const result = await cli(['crawl', `${target.origin}/`, '--db', path.join(dir, 'down.db'), '--allow-private', '--proxy', 'http://127.0.0.1:9', '--retries', '0']);
    expect(result.code).toBe(4);
    const lines = result.stderr.split('\n').filter((line) => line.includes('ERR_FETCH_PROXY') && line.startsWith('linkladder: error:'));
    expect(lines).toHaveLength(1);
    expect(target.requests).toEqual([]);
  });
});

describe('a bad proxy URL with credentials', () => {
  it('is one usage line (exit 2) that does not show them, as a flag or a LINKLADDER_PROXY variable', async () => {
    const bad = `ftp://user:${SECRET}@proxy.test:21`;
    const args = ['crawl', 'http://127.0.0.1:1/', '--db', path.join(dir, 'bad-proxy.db'), '--allow-private'];
    for (const result of [await cli([...args, '--proxy', bad]), await cli(args, { LINKLADDER_PROXY: bad })]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Expected an http: or https: proxy URL');
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    }
  });
});

describe('check and the environment', () => {
  it('HTTP_PROXY is used; --no-proxy connects directly', async () => {
    const forward = await proxy();
    const target = await site('127.0.0.2');
    const env = { HTTP_PROXY: forward.url };
    const viaProxy = await cli(['check', `${target.origin}/`, '--db', path.join(dir, 'check-env.db'), '--allow-private'], env);
    expect(viaProxy.code).toBe(0);
    expect(forward.seen.length).toBeGreaterThan(0);
    const seen = forward.seen.length;
    const direct = await cli(['check', `${target.origin}/`, '--db', path.join(dir, 'check-direct.db'), '--allow-private', '--no-proxy'], env);
    expect(direct.code).toBe(0);
    expect(forward.seen).toHaveLength(seen);
    expect((await runSettings(path.join(dir, 'check-direct.db'))).proxy).toBe('none');
    expect((await runSettings(path.join(dir, 'check-env.db'))).proxy).toBe(`environment: 127.0.0.1:${forward.port}`);
  });
});

describe('certificates', () => {
  it('a self-signed seed: one line naming the code and what to do, exit 4', async () => {
    const secure = await site('127.0.0.1', { key: certificates.selfSignedKey, cert: certificates.selfSignedCert });
    const result = await cli(['crawl', `${secure.origin}/`, '--db', path.join(dir, 'self.db'), '--allow-private']);
    expect(result.code).toBe(4);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('linkladder: error:'));
    expect(lines).toEqual([expect.stringMatching(/ERR_FETCH_TLS_SELF_SIGNED .*--ca-file.*--insecure/)]);
    // The audit: the seed is broken (its own host), and the message says what to do.
    const audit = await cli(['audit', '--db', path.join(dir, 'self.db')]);
    expect(audit.stdout).toContain('SEED_BROKEN');
    expect(audit.stdout).toMatch(/the seed.s TLS certificate is self-signed \(ERR_FETCH_TLS_SELF_SIGNED\): trust the certificate or its CA with --ca-file FILE, or skip the check with --insecure/);
  });

  it('--ca-file trusts a CA; so does NODE_EXTRA_CA_CERTS, alone or beside --ca-file', async () => {
    const secure = await site('127.0.0.1', { key: certificates.leafKey, cert: certificates.leafCert });
    const selfSigned = path.join(certificates.dir, 'self-signed.pem');
    const seed = `${secure.origin}/`;
    const withFile = await cli(['crawl', seed, '--db', path.join(dir, 'ca-file.db'), '--allow-private', '--ca-file', certificates.caFile]);
    expect(withFile.code).toBe(0);
    expect(withFile.stdout).toMatch(/verdicts\s+2 URLs checked: 2 ok/);
    const withEnv = await cli(['crawl', seed, '--db', path.join(dir, 'ca-env.db'), '--allow-private'], { NODE_EXTRA_CA_CERTS: certificates.caFile });
    expect(withEnv.code).toBe(0);
    // --ca-file adds to Node's roots, NODE_EXTRA_CA_CERTS included: the leaf's CA comes from the variable.
    const both = await cli(['crawl', seed, '--db', path.join(dir, 'ca-both.db'), '--allow-private', '--ca-file', selfSigned], {
      NODE_EXTRA_CA_CERTS: certificates.caFile,
    });
    expect(both.code).toBe(0);
    const neither = await cli(['crawl', seed, '--db', path.join(dir, 'ca-none.db'), '--allow-private', '--ca-file', selfSigned]);
    expect(neither.code).toBe(4);
    expect(neither.stderr).toContain('ERR_FETCH_TLS_UNTRUSTED');
  });

  it('--ca-file that cannot be read: one usage line, exit 2', async () => {
    const result = await cli(['crawl', 'https://127.0.0.1:1/', '--db', path.join(dir, 'never.db'), '--allow-private', '--ca-file', path.join(dir, 'missing.pem')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Expected `--ca-file` to be a readable PEM file');
  });

  it('--insecure accepts an expired certificate: warned on stderr, noted in the summary, recorded in the run', async () => {
    const secure = await site('127.0.0.1', { key: certificates.expiredKey, cert: certificates.expiredCert });
    const db = path.join(dir, 'insecure.db');
    const result = await cli(['crawl', `${secure.origin}/`, '--db', db, '--allow-private', '--insecure']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('linkladder: warning: --insecure: TLS certificates are not verified');
    expect(result.stdout).toContain('tls: certificates not verified (--insecure)');
    expect((await runSettings(db)).insecure).toBe(true);
    const again = await cli(['crawl', `${secure.origin}/`, '--db', db, '--allow-private', '--insecure', '--json']);
    expect(again.stderr).toContain('linkladder: warning: --insecure');
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'summary', insecure: true });
    const explained = await cli(['explain', `${secure.origin}/`, '--db', db]);
    expect(explained.stdout).toMatch(/TLS certificates were not verified in that run \(run 1, --insecure\)/);
  });
});
