// HTTP/2 by ALPN: a TLS server that offers h2 and HTTP/1.1 (node:http2 with
// allowHTTP1) is spoken to in h2 unless `http2: false`; a plain http server in
// HTTP/1.1. The protocol is the one each response really came over (the server's own
// record says the same), and the fetcher's caps, timeouts, HEAD, redirects, aborts
// and decompression behave over h2 as over HTTP/1.1.

import { once } from 'node:events';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, createRobotsPolicy, type FetcherOptions, type HttpFetcher } from '../../src/fetch/index.js';
import { makeTestCertificates } from '../support/tls-certificates.js';
import { closeAll, onCleanup, startServer } from './test-server.js';

type H2Handler = (request: Http2ServerRequest, response: Http2ServerResponse) => void;

interface H2Server {
  /** `https://127.0.0.1:PORT` */
  readonly origin: string;
  /** `METHOD path HTTP/x` of every request, as the server saw it. */
  readonly log: string[];
  /** How many h2 sessions (connections that chose h2) the server was opened. */
  readonly sessions: () => number;
}

// The test CA is trusted through the fetcher's own `ca` option (what `--ca-file` sets);
// test/cli/http2.test.ts trusts it through NODE_EXTRA_CA_CERTS in a child CLI.
let trusted: string[] = [];
beforeAll(async () => {
  trusted = [(await makeTestCertificates()).caPem];
});

afterEach(closeAll);

async function startH2Server(handler: H2Handler): Promise<H2Server> {
  const { leafKey, leafCert } = await makeTestCertificates();
  const log: string[] = [];
  const server: Http2SecureServer = createSecureServer({ key: leafKey, cert: leafCert, allowHTTP1: true }, (request, response) => {
    log.push(`${request.method} ${request.url} HTTP/${request.httpVersion}`);
    handler(request, response);
  });
  const sessions = new Set<{ destroy(): void }>();
  let sessionCount = 0;
  server.on('session', (session) => {
    sessionCount++;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  const sockets = new Set<{ destroy(): void }>();
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  onCleanup(
    () =>
      new Promise((resolve) => {
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { origin: `https://127.0.0.1:${port}`, log, sessions: () => sessionCount };
}

function fetcher(options: FetcherOptions = {}): HttpFetcher {
  const made = createFetcher({ ca: trusted, ...options });
  onCleanup(() => made.close());
  return made;
}

const page = (body: string): H2Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end(body);
};

describe('the protocol each response came over', () => {
  it('is h2 when the https server offers it: ALPN chose HTTP/2, and the server saw HTTP/2.0', async () => {
    const server = await startH2Server(page('<a href="/b">b</a>'));
    const response = await fetcher().fetch(`${server.origin}/`);
    expect(response).toMatchObject({ status: 200, protocol: 'h2', body: '<a href="/b">b</a>', errorCode: undefined });
    expect(server.log).toEqual(['GET / HTTP/2.0']);
  });

  it('is http/1.1 with `http2: false`, from the same server', async () => {
    const server = await startH2Server(page('one'));
    const response = await fetcher({ http2: false }).fetch(`${server.origin}/`);
    expect(response).toMatchObject({ status: 200, protocol: 'http/1.1', body: 'one' });
    expect(server.log).toEqual(['GET / HTTP/1.1']);
  });

  it('is http/1.1 from a plain http server (no ALPN without TLS)', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('plain');
    });
    const response = await fetcher().fetch(`${server.origin}/`);
    expect(response).toMatchObject({ status: 200, protocol: 'http/1.1', body: 'plain' });
  });

  it('goes to the connector the private-address guard makes too (refusePrivate with a trusted host)', async () => {
    const server = await startH2Server(page('guarded'));
    const response = await fetcher({ refusePrivate: true, trustedHosts: ['127.0.0.1'] }).fetch(`${server.origin}/`);
    expect(response).toMatchObject({ status: 200, protocol: 'h2', body: 'guarded' });
  });

  it('is absent when no response came', async () => {
    const server = await startH2Server(page(''));
    const closed = server.origin.replace(/:\d+$/, ':1');
    const response = await fetcher().fetch(`${closed}/`);
    expect(response.errorCode).toBe('ERR_FETCH_CONNECTION_REFUSED');
    expect(response.protocol).toBeUndefined();
  });

  it('is each request’s own when many go at once over one h2 connection and others over HTTP/1.1', async () => {
    const h2 = await startH2Server(page('h2'));
    const h1 = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('h1');
    });
    const client = fetcher();
    const urls = Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? `${h2.origin}/${index}` : `${h1.origin}/${index}`));
    const responses = await Promise.all(urls.map((url) => client.fetch(url)));
    for (const [index, response] of responses.entries()) {
      expect(response.protocol, urls[index]).toBe(index % 2 === 0 ? 'h2' : 'http/1.1');
      expect(response.body).toBe(index % 2 === 0 ? 'h2' : 'h1');
    }
    expect(h2.log.every((line) => line.endsWith('HTTP/2.0'))).toBe(true);
  });

  it('many requests in flight to an h2 origin are streams of one connection (undici alone opens one each)', async () => {
    const inFlight = { now: 0, most: 0 };
    const server = await startH2Server((_request, response) => {
      inFlight.most = Math.max(inFlight.most, ++inFlight.now);
      setTimeout(() => {
        inFlight.now--;
        response.writeHead(200, { 'content-type': 'text/html' }).end('ok');
      }, 50);
    });
    const client = fetcher();
    // The first request makes the connection; the next twenty share it, at once.
    expect(await client.fetch(`${server.origin}/first`)).toMatchObject({ status: 200, protocol: 'h2' });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, index) => client.fetch(`${server.origin}/${index}`)));
    expect(responses.every((response) => response.status === 200 && response.protocol === 'h2')).toBe(true);
    expect(server.sessions()).toBe(1);
    expect(inFlight.most).toBe(20);
  });

  it('is the last response’s across redirects between h1 and h2 (each hop on its own connection)', async () => {
    let h2Origin = '';
    const h1 = await startServer((request, response) => {
      if (request.url === '/start') response.writeHead(301, { location: `${h2Origin}/middle` }).end();
      else if (request.url === '/back') response.writeHead(302, { location: `${h2Origin}/final` }).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end('h1 end');
    });
    const h2 = await startH2Server((request, response) => {
      if (request.url === '/middle') response.writeHead(302, { location: `${h1.origin}/back` }).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end('h2 end');
    });
    h2Origin = h2.origin;
    const client = fetcher();
    // h1 → h2 → h1 → h2
    const response = await client.fetch(`${h1.origin}/start`);
    expect(response).toMatchObject({ status: 200, finalUrl: `${h2.origin}/final`, protocol: 'h2', body: 'h2 end' });
    expect(response.hops.map((hop) => hop.status)).toEqual([301, 302, 302]);
    expect(h2.log).toEqual(['GET /middle HTTP/2.0', 'GET /final HTTP/2.0']);
    // h2 → h1 → h2 … ends wherever the chain ends: here on HTTP/1.1.
    const other = await client.fetch(`${h2.origin}/middle`, undefined, { beforeRedirect: (hop) => (hop.to.endsWith('/final') ? 'stop' : 'follow') });
    expect(other).toMatchObject({ status: 302, finalUrl: `${h1.origin}/back`, protocol: 'http/1.1', redirectStopped: true });
  });

  it('reaches the robots.txt policy: its requests go over h2 too, or HTTP/1.1 with `http2: false`', async () => {
    const server = await startH2Server((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nDisallow: /private\n');
    });
    const policy = createRobotsPolicy({ ca: trusted });
    onCleanup(() => policy.close());
    expect(await policy.isAllowed(`${server.origin}/private/x`)).toBe(false);
    const h1Policy = createRobotsPolicy({ http2: false, ca: trusted });
    onCleanup(() => h1Policy.close());
    expect(await h1Policy.isAllowed(`${server.origin}/public`)).toBe(true);
    expect(server.log).toEqual(['GET /robots.txt HTTP/2.0', 'GET /robots.txt HTTP/1.1']);
  });
});

describe('the fetcher’s limits over h2', () => {
  it('caps a body past maxBodyBytes (the stream is reset, the session goes on)', async () => {
    const server = await startH2Server((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      if (request.url === '/big') {
        const chunk = 'x'.repeat(16 * 1024);
        const send = (): void => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once('drain', send);
        };
        response.on('error', () => undefined);
        send();
        return;
      }
      response.end('small');
    });
    const client = fetcher({ maxBodyBytes: 64 * 1024 });
    const big = await client.fetch(`${server.origin}/big`);
    expect(big).toMatchObject({ status: 200, protocol: 'h2', errorCode: 'ERR_FETCH_BODY_TOO_LARGE' });
    expect(big.body?.length).toBe(64 * 1024);
    const small = await client.fetch(`${server.origin}/small`);
    expect(small).toMatchObject({ status: 200, protocol: 'h2', body: 'small' });
  });

  it('undoes gzip, and stops a decompression bomb at maxDecodedBytes', async () => {
    const text = '<p>' + 'gzipped '.repeat(1000) + '</p>';
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x61));
    const server = await startH2Server((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      response.end(request.url === '/bomb' ? bomb : gzipSync(text));
    });
    const client = fetcher({ maxDecodedBytes: 1024 * 1024 });
    expect(await client.fetch(`${server.origin}/text`)).toMatchObject({ protocol: 'h2', body: text, errorCode: undefined });
    const capped = await client.fetch(`${server.origin}/bomb`);
    expect(capped).toMatchObject({ protocol: 'h2', errorCode: 'ERR_FETCH_BODY_TOO_LARGE' });
    expect(capped.bytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it('times out headers that never come (ERR_FETCH_HEADERS_TIMEOUT), and the request deadline holds a dripping body', async () => {
    const server = await startH2Server((request, response) => {
      if (request.url === '/silent') return;
      response.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => response.write('x'), 50);
      response.on('close', () => clearInterval(timer));
    });
    const client = fetcher({ headersTimeoutMs: 300, requestTimeoutMs: 1000, minBytesPerSecond: 0 });
    expect(await client.fetch(`${server.origin}/silent`)).toMatchObject({ status: undefined, errorCode: 'ERR_FETCH_HEADERS_TIMEOUT' });
    const dripping = await client.fetch(`${server.origin}/drip`);
    expect(dripping).toMatchObject({ status: 200, protocol: 'h2', errorCode: 'ERR_FETCH_REQUEST_TIMEOUT' });
    expect(dripping.body?.length).toBeGreaterThan(0);
  });

  it('asks HEAD without reading a body, and a caller’s abort ends the request', async () => {
    const server = await startH2Server((request, response) => {
      if (request.url === '/hang') return;
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': '5' });
      if (request.method === 'HEAD') response.end();
      else response.end('hello');
    });
    const client = fetcher();
    const head = await client.fetch(`${server.origin}/page`, undefined, { method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, protocol: 'h2', method: 'HEAD', body: undefined, contentType: 'text/html', errorCode: undefined });
    const controller = new AbortController();
    const pending = client.fetch(`${server.origin}/hang`, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const aborted = await pending;
    expect(aborted.status).toBeUndefined();
    expect(aborted.errorCode).toBeDefined();
    expect(await client.fetch(`${server.origin}/after`)).toMatchObject({ status: 200, protocol: 'h2', body: 'hello' });
    expect(server.log).toEqual(['HEAD /page HTTP/2.0', 'GET /hang HTTP/2.0', 'GET /after HTTP/2.0']);
  });
});
