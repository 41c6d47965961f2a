// `onExchange`: each hop's exchange as on the wire — the request's fields as written,
// the raw response fields in order, the body before content decoding, the peer's
// address — while the response the fetcher returns stays what it is without it.

import { once } from 'node:events';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestCredentials, createRobotsPolicy, type WireExchange } from '../../src/fetch/index.js';
import { makeTestCertificates } from '../support/tls-certificates.js';
import { closeAll, onCleanup, startServer, testFetcher } from './test-server.js';

afterEach(closeAll);

const PAGE = `<html><body>${'<p>captured as sent</p>'.repeat(50)}</body></html>`;

function field(fields: readonly (readonly [string, string])[], name: string): string | undefined {
  return fields.find(([key]) => key.toLowerCase() === name)?.[1];
}

describe('onExchange over HTTP/1.1', () => {
  it('keeps a gzip body compressed, while the decoded text is still right', async () => {
    const gzipped = gzipSync(PAGE);
    const site = await startServer((_, response) => {
      response.writeHead(200, 'Fine Thanks', [['Content-Type', 'text/html'], ['Content-Encoding', 'gzip'], ['X-Two', 'a'], ['X-Two', 'b']]);
      response.end(gzipped);
    });
    const exchanges: WireExchange[] = [];
    const response = await testFetcher().fetch(`${site.origin}/page`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(response.body).toBe(PAGE);
    expect(exchanges).toHaveLength(1);
    const [exchange] = exchanges as [WireExchange];
    expect(exchange.method).toBe('GET');
    expect(exchange.url).toBe(`${site.origin}/page`);
    expect(exchange.httpVersion).toBe('1.1');
    expect(exchange.status).toBe(200);
    expect(exchange.statusText).toBe('Fine Thanks');
    expect(Buffer.from(exchange.body).equals(gzipped)).toBe(true);
    expect(gunzipSync(exchange.body).toString()).toBe(PAGE);
    expect(exchange.isCut).toBe(false);
    // Raw: names as the server wrote them, repeats apart, in order.
    const names = exchange.responseHeaders.map(([name]) => name);
    expect(names.slice(0, 4)).toEqual(['Content-Type', 'Content-Encoding', 'X-Two', 'X-Two']);
    expect(exchange.responseHeaders.filter(([name]) => name === 'X-Two').map(([, value]) => value)).toEqual(['a', 'b']);
    expect(exchange.remoteAddress).toBe('127.0.0.1');
    expect(exchange.errorCode).toBeUndefined();
    expect(typeof exchange.startedAt).toBe('number');
  });

  it('carries the request fields as sent: user-agent, accept-encoding, host and the credentials', async () => {
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<p>x</p>'));
    const credentials = createRequestCredentials({ headers: ['X-Token: s3cret'], seedOrigins: [site.origin], userinfo: { [site.origin]: 'me:pw' } });
    const exchanges: WireExchange[] = [];
    await testFetcher({ userAgent: 'capture-test/1', credentials }).fetch(`${site.origin}/`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    const sent = exchanges[0]!.requestHeaders;
    const seen = site.requests[0]!;
    expect(field(sent, 'user-agent')).toBe('capture-test/1');
    expect(field(sent, 'accept-encoding')).toBe('gzip, deflate, br');
    expect(field(sent, 'host')).toBe(seen.host);
    expect(field(sent, 'x-token')).toBe('s3cret');
    expect(field(sent, 'authorization')).toBe(seen.authorization);
    expect(field(sent, 'authorization')).toBe(`Basic ${Buffer.from('me:pw').toString('base64')}`);
  });

  it('tells each redirect hop, then the final response', async () => {
    const site = await startServer((request, response) => {
      if (request.url === '/a') response.writeHead(301, { location: '/b' }).end('moved');
      else if (request.url === '/b') response.writeHead(302, { location: '/c' }).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>c</p>');
    });
    const exchanges: WireExchange[] = [];
    const response = await testFetcher().fetch(`${site.origin}/a`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(response.status).toBe(200);
    expect(exchanges.map((exchange) => [exchange.url.slice(site.origin.length), exchange.status])).toEqual([
      ['/a', 301],
      ['/b', 302],
      ['/c', 200],
    ]);
    expect(Buffer.from(exchanges[0]!.body).toString()).toBe('moved');
    expect(field(exchanges[0]!.responseHeaders, 'location')).toBe('/b');
    expect(exchanges.every((exchange) => exchange.remoteAddress === '127.0.0.1')).toBe(true);
  });

  it('flags a body cut at maxBodyBytes, keeping the bytes up to the cap', async () => {
    const big = 'x'.repeat(200_000);
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(big));
    const exchanges: WireExchange[] = [];
    const response = await testFetcher({ maxBodyBytes: 50_000 }).fetch(`${site.origin}/`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(response.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
    expect(exchanges[0]!.isCut).toBe(true);
    expect(exchanges[0]!.body.length).toBeLessThanOrEqual(50_000);
    expect(exchanges[0]!.body.length).toBeGreaterThan(0);
    expect(exchanges[0]!.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
  });

  it('a body not wanted (an image) is kept up to what was read to keep the connection, flagged', async () => {
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100_000, 7)));
    const exchanges: WireExchange[] = [];
    await testFetcher().fetch(`${site.origin}/i.png`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(exchanges[0]!.isCut).toBe(true);
    expect(exchanges[0]!.body.length).toBeLessThanOrEqual(16 * 1024);
  });

  it('HEAD: the head, no body', async () => {
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'text/html', 'content-length': '42' }).end());
    const exchanges: WireExchange[] = [];
    await testFetcher().fetch(`${site.origin}/`, undefined, { method: 'HEAD', onExchange: (exchange) => exchanges.push(exchange) });
    expect(exchanges[0]!.method).toBe('HEAD');
    expect(exchanges[0]!.status).toBe(200);
    expect(exchanges[0]!.body.length).toBe(0);
    expect(exchanges[0]!.isCut).toBe(false);
  });

  it('a refused connection is told too: no status, its code, the fields it was given', async () => {
    const site = await startServer(() => undefined);
    await site.close();
    const exchanges: WireExchange[] = [];
    const response = await testFetcher().fetch(`${site.origin}/`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.status).toBeUndefined();
    expect(exchanges[0]!.httpVersion).toBeUndefined();
    expect(exchanges[0]!.errorCode).toBe(response.errorCode);
    expect(field(exchanges[0]!.requestHeaders, 'user-agent')).toBeDefined();
  });

  it('a hook that throws does not change the response; without one the response is the same', async () => {
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(PAGE)));
    const fetcher = testFetcher();
    const plain = await fetcher.fetch(`${site.origin}/`);
    const hooked = await fetcher.fetch(`${site.origin}/`, undefined, {
      onExchange: () => {
        throw new Error('archive full');
      },
    });
    const strip = ({ startedAt: _s, durationMs: _d, ...rest }: typeof plain): object => rest;
    expect(strip(hooked)).toEqual(strip(plain));
  });

  it('rejects an onExchange that is not a function', async () => {
    await expect(testFetcher().fetch('http://127.0.0.1:1/', undefined, { onExchange: 'no' as never })).rejects.toMatchObject({ name: 'OptionError' });
  });
});

describe('onExchange for robots.txt', () => {
  it('tells the robots.txt exchange of the call that fetches it, and none once it is cached', async () => {
    const site = await startServer((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /no\n'));
    const robots = createRobotsPolicy({ userAgent: 'capture-test' });
    onCleanup(() => robots.close());
    const exchanges: WireExchange[] = [];
    expect(await robots.isAllowed(`${site.origin}/no`, { onExchange: (exchange) => exchanges.push(exchange) })).toBe(false);
    expect(await robots.isAllowed(`${site.origin}/yes`, { onExchange: (exchange) => exchanges.push(exchange) })).toBe(true);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.url).toBe(`${site.origin}/robots.txt`);
    expect(Buffer.from(exchanges[0]!.body).toString()).toBe('User-agent: *\nDisallow: /no\n');
  });
});

describe('onExchange over HTTP/2', () => {
  it('names version 2, the pseudo-header fields sent, the raw fields and the compressed body', async () => {
    // The test CA trusted as `--ca-file` would trust it.
    const { leafKey, leafCert, caPem } = await makeTestCertificates();
    const gzipped = gzipSync(PAGE);
    const server: Http2SecureServer = createSecureServer({ key: leafKey, cert: leafCert, allowHTTP1: true }, (_, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      response.end(gzipped);
    });
    const sessions = new Set<{ destroy(): void }>();
    server.on('session', (session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    onCleanup(
      () =>
        new Promise((resolve) => {
          for (const session of sessions) session.destroy();
          server.close(() => resolve());
        }),
    );
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const exchanges: WireExchange[] = [];
    const response = await testFetcher({ ca: [caPem] }).fetch(`${origin}/h2`, undefined, { onExchange: (exchange) => exchanges.push(exchange) });
    expect(response.protocol).toBe('h2');
    expect(response.body).toBe(PAGE);
    const [exchange] = exchanges as [WireExchange];
    expect(exchange.httpVersion).toBe('2');
    expect(exchange.status).toBe(200);
    expect(field(exchange.requestHeaders, ':method')).toBe('GET');
    expect(field(exchange.requestHeaders, ':path')).toBe('/h2');
    expect(field(exchange.requestHeaders, 'user-agent')).toBeDefined();
    expect(field(exchange.responseHeaders, 'content-encoding')).toBe('gzip');
    expect(Buffer.from(exchange.body).equals(gzipped)).toBe(true);
    expect(exchange.remoteAddress).toBe('127.0.0.1');
  });
});
