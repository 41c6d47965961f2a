// Requests through a forward proxy: plain http in absolute form (never CONNECT, which
// most proxies refuse to port 80), https through CONNECT; NO_PROXY and `proxy: false`
// bypass it; the private-address guard judges the target, not the proxy; the proxy's
// credentials reach the proxy only; a proxy down or refusing is ERR_FETCH_PROXY.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { LookupFunction } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRobotsPolicy, type FetcherOptions } from '../../src/fetch/index.js';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { closeAll, closedPort, onCleanup, testFetcher } from './test-server.js';

const PROXY_ENV = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;
const savedEnv = Object.fromEntries(PROXY_ENV.map((name) => [name, process.env[name]]));

afterEach(async () => {
  for (const name of PROXY_ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await closeAll();
});

let certificates: TestCertificates;
beforeAll(async () => {
  certificates = await makeTestCertificates();
});

interface Target {
  readonly origin: string;
  readonly requests: { readonly url: string; readonly headers: IncomingHttpHeaders }[];
}

/** A site on `host` (127.0.0.x), http or https (the CA's leaf for 127.0.0.1), that answers `/` with a page and `/robots.txt`. */
async function startTarget(host: string, scheme: 'http' | 'https' = 'http', redirectTo?: string): Promise<Target> {
  const requests: Target['requests'][number][] = [];
  const handler = (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse): void => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    if (request.url === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    if (redirectTo !== undefined && request.url === '/moved') return void response.writeHead(301, { location: redirectTo }).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>target');
  };
  const server = scheme === 'https' ? createHttpsServer({ key: certificates.leafKey, cert: certificates.leafCert }, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `${scheme}://${host}:${(server.address() as AddressInfo).port}`, requests };
}

async function proxy(): Promise<ForwardProxy> {
  const started = await startForwardProxy();
  onCleanup(() => started.close());
  return started;
}

function fetcher(options: FetcherOptions) {
  return testFetcher({ ca: [certificates.caPem], ...options });
}

describe('through a proxy', () => {
  it('plain http goes in absolute form, never CONNECT; the target answers through it', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const result = await fetcher({ proxy: forward.url }).fetch(`${target.origin}/page?q=1`);
    expect(result).toMatchObject({ status: 200, body: '<p>target', errorCode: undefined });
    expect(forward.seen.map((seen) => `${seen.method} ${seen.target}`)).toEqual([`GET ${target.origin}/page?q=1`]);
    expect(target.requests.map((request) => request.url)).toEqual(['/page?q=1']);
    expect(target.requests[0]!.headers.host).toBe(target.origin.slice('http://'.length));
  });

  it('https goes through a CONNECT tunnel, the certificate verified end to end', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.1', 'https');
    const result = await fetcher({ proxy: forward.url }).fetch(`${target.origin}/`);
    expect(result).toMatchObject({ status: 200, body: '<p>target' });
    expect(forward.seen.map((seen) => `${seen.method} ${seen.target}`)).toEqual([`CONNECT ${target.origin.slice('https://'.length)}`]);
    // Not trusted without the CA, through the tunnel as directly.
    expect((await testFetcher({ proxy: forward.url }).fetch(`${target.origin}/`)).errorCode).toBe('ERR_FETCH_TLS_UNTRUSTED');
  });

  it('a redirect to another host through the proxy sends that host its own Host header', async () => {
    const forward = await proxy();
    const second = await startTarget('127.0.0.1');
    const first = await startTarget('127.0.0.2', 'http', `${second.origin}/`);
    const result = await fetcher({ proxy: forward.url }).fetch(`${first.origin}/moved`);
    expect(result).toMatchObject({ status: 200, finalUrl: `${second.origin}/` });
    expect(second.requests[0]!.headers.host).toBe(second.origin.slice('http://'.length));
    expect(forward.seen.map((seen) => seen.target)).toEqual([`${first.origin}/moved`, `${second.origin}/`]);
  });

  it('an https proxy is verified with the same trust (`ca`) as the sites; refused, it is ERR_FETCH_PROXY', async () => {
    const forward = await startForwardProxy({ key: certificates.leafKey, cert: certificates.leafCert });
    onCleanup(() => forward.close());
    const target = await startTarget('127.0.0.2');
    expect(await fetcher({ proxy: forward.url }).fetch(`${target.origin}/`)).toMatchObject({ status: 200, body: '<p>target' });
    expect(forward.seen.map((seen) => `${seen.method} ${seen.target}`)).toEqual([`CONNECT ${target.origin.slice('http://'.length)}`]);
    expect((await testFetcher({ proxy: forward.url }).fetch(`${target.origin}/`)).errorCode).toBe('ERR_FETCH_PROXY');
  });

  it('robots.txt goes through the proxy too', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const robots = createRobotsPolicy({ proxy: forward.url });
    onCleanup(() => robots.close());
    expect(await robots.isAllowed(`${target.origin}/private/x`)).toBe(false);
    expect(forward.seen.map((seen) => seen.target)).toEqual([`${target.origin}/robots.txt`]);
  });
});

describe('which requests use the proxy', () => {
  it('HTTP_PROXY / HTTPS_PROXY from the environment when `proxy` is not given; `proxy: false` ignores them', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const secure = await startTarget('127.0.0.1', 'https');
    process.env.HTTP_PROXY = forward.url;
    process.env.https_proxy = forward.url;
    expect((await fetcher({}).fetch(`${target.origin}/`)).status).toBe(200);
    expect((await fetcher({}).fetch(`${secure.origin}/`)).status).toBe(200);
    expect(forward.seen.map((seen) => seen.method)).toEqual(['GET', 'CONNECT']);

    expect((await fetcher({ proxy: false }).fetch(`${target.origin}/`)).status).toBe(200);
    expect(forward.seen).toHaveLength(2);
    expect(target.requests).toHaveLength(2);
  });

  it('NO_PROXY: a host it names (or a subdomain) is connected to directly, with the environment or a given proxy', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const other = await startTarget('127.0.0.1');
    process.env.NO_PROXY = 'example.test, 127.0.0.2';
    expect((await fetcher({ proxy: forward.url }).fetch(`${target.origin}/`)).status).toBe(200);
    expect(forward.seen).toEqual([]);
    expect((await fetcher({ proxy: forward.url }).fetch(`${other.origin}/`)).status).toBe(200);
    expect(forward.seen.map((seen) => seen.target)).toEqual([`${other.origin}/`]);
    process.env.HTTP_PROXY = forward.url;
    expect((await fetcher({}).fetch(`${target.origin}/`)).status).toBe(200);
    expect(forward.seen).toHaveLength(1);
  });
});

describe('the private-address guard through a proxy', () => {
  it('judges the target: a private one is refused with nothing sent, the proxy itself (127.0.0.1) is allowed', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const secure = await startTarget('127.0.0.1', 'https');
    const refused = await fetcher({ proxy: forward.url, refusePrivate: true }).fetch(`${target.origin}/`);
    expect(refused).toMatchObject({ errorCode: 'ERR_FETCH_PRIVATE_ADDRESS', status: undefined });
    expect((await fetcher({ proxy: forward.url, refusePrivate: true }).fetch(`${secure.origin}/`)).errorCode).toBe('ERR_FETCH_PRIVATE_ADDRESS');
    expect(forward.seen).toEqual([]);
    expect(target.requests).toEqual([]);
  });

  it('a name the local resolver answers with a private address is refused; trustedHosts lets it through', async () => {
    const forward = await proxy();
    const target = await startTarget('127.0.0.2');
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all === true) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: '10.0.0.7', family: 4 }]);
      else callback(null, '10.0.0.7', 4);
    };
    const port = new URL(target.origin).port;
    const refused = await fetcher({ proxy: forward.url, refusePrivate: true, lookup }).fetch(`http://intranet.test:${port}/`);
    expect(refused.errorCode).toBe('ERR_FETCH_PRIVATE_ADDRESS');
    expect(forward.seen).toEqual([]);
    const trusted = await fetcher({ proxy: forward.url, refusePrivate: true, trustedHosts: ['127.0.0.2'] }).fetch(`${target.origin}/`);
    expect(trusted).toMatchObject({ status: 200, errorCode: undefined });
    expect(forward.seen).toHaveLength(1);
  });
});

describe("the proxy's credentials", () => {
  const SECRET = 'pr0xyS3cret';
  const expected = `Basic ${Buffer.from(`user:${SECRET}`).toString('base64')}`;

  it('reach the proxy as Proxy-Authorization, never the target (http and https)', async () => {
    const forward = await proxy();
    forward.requireAuthorization = expected;
    const target = await startTarget('127.0.0.2');
    const secure = await startTarget('127.0.0.1', 'https');
    const withAuth = forward.url.replace('http://', `http://user:${SECRET}@`);
    expect((await fetcher({ proxy: withAuth }).fetch(`${target.origin}/`)).status).toBe(200);
    expect((await fetcher({ proxy: withAuth }).fetch(`${secure.origin}/`)).status).toBe(200);
    expect(forward.seen.map((seen) => seen.headers['proxy-authorization'])).toEqual([expected, expected]);
    for (const request of [...target.requests, ...secure.requests]) {
      expect(request.headers['proxy-authorization']).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain(Buffer.from(`user:${SECRET}`).toString('base64'));
    }
  });

  it('missing or wrong: the 407 is ERR_FETCH_PROXY, for http (absolute form) and https (CONNECT)', async () => {
    const forward = await proxy();
    forward.requireAuthorization = expected;
    const target = await startTarget('127.0.0.2');
    const secure = await startTarget('127.0.0.1', 'https');
    expect((await fetcher({ proxy: forward.url }).fetch(`${target.origin}/`)).errorCode).toBe('ERR_FETCH_PROXY');
    expect((await fetcher({ proxy: forward.url }).fetch(`${secure.origin}/`)).errorCode).toBe('ERR_FETCH_PROXY');
    expect(target.requests).toEqual([]);
    expect(secure.requests).toEqual([]);
  });
});

describe('a proxy that fails', () => {
  it('down (nothing listens): ERR_FETCH_PROXY', async () => {
    const target = await startTarget('127.0.0.2');
    const down = `http://127.0.0.1:${await closedPort()}`;
    expect((await fetcher({ proxy: down }).fetch(`${target.origin}/`)).errorCode).toBe('ERR_FETCH_PROXY');
    expect((await fetcher({ proxy: down }).fetch('https://127.0.0.1:1/')).errorCode).toBe('ERR_FETCH_PROXY');
  });

  it.each([403, 502])('answering CONNECT with %i: ERR_FETCH_PROXY', async (status) => {
    const forward = await proxy();
    forward.refuseWith = status;
    const secure = await startTarget('127.0.0.1', 'https');
    expect((await fetcher({ proxy: forward.url }).fetch(`${secure.origin}/`)).errorCode).toBe('ERR_FETCH_PROXY');
  });

  it('hanging up on CONNECT: ERR_FETCH_PROXY, asked once (undici would retry such a connection as long as requests wait)', async () => {
    const forward = await proxy();
    forward.isHangingUp = true;
    const result = await fetcher({ proxy: forward.url }).fetch('https://127.0.0.1:1/');
    expect(result.errorCode).toBe('ERR_FETCH_PROXY');
    expect(forward.seen.map((seen) => seen.method)).toEqual(['CONNECT']);
  });

  it('a bad proxy URL is an option error that does not show its credentials', () => {
    expect(() => testFetcher({ proxy: 'ftp://user:pw-secret@proxy.test:21' })).toThrow(/got `ftp:\/\/…@proxy\.test:21`/);
    expect(() => testFetcher({ proxy: 'ftp://user:pw-secret@proxy.test:21' })).not.toThrow(/pw-secret/);
  });
});
