// Credentials are applied per hop, by the origin and URL of each request: a redirect
// to another host (127.0.0.2) gets nothing, the way back gets them again; robots.txt
// of the origin gets them too (the policy's own client, the same credentials).

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestCredentials, createRobotsPolicy } from '../../src/fetch/index.js';
import { closeAll, onCleanup, startServer, testFetcher } from './test-server.js';

afterEach(closeAll);

const TOKEN = 'hop-token-s3cret';

async function otherHost(handler: (request: IncomingMessage, response: import('node:http').ServerResponse) => void): Promise<{ origin: string; requests: IncomingMessage['headers'][] }> {
  const requests: IncomingMessage['headers'][] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.headers);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`, requests };
}

describe('credentials per hop', () => {
  it('a chain 127.0.0.1 → 127.0.0.2 → 127.0.0.1: the header, Basic auth and cookies go to 127.0.0.1 only', async () => {
    let back = '';
    const other = await otherHost((_, response) => response.writeHead(302, { location: back }).end());
    const site = await startServer((request, response) => {
      if (request.url === '/start') response.writeHead(302, { location: `${other.origin}/hop` }).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>end</p>');
    });
    back = `${site.origin}/end`;
    const credentials = createRequestCredentials({
      headers: ['X-Token: ${TOKEN}', 'User-Agent: staging-gate/1'],
      seedOrigins: [`${site.origin}/start`],
      userinfo: { [site.origin]: 'me:pw' },
      cookiesTxt: { text: `127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t${TOKEN}`, source: 'jar.txt' },
      env: { TOKEN },
    });
    const response = await testFetcher({ userAgent: 'linkladder-test', credentials }).fetch(`${site.origin}/start`);
    expect(response.status).toBe(200);
    expect(response.hops).toHaveLength(2);
    expect(site.requests).toHaveLength(2);
    for (const headers of site.requests) {
      expect(headers['x-token']).toBe(TOKEN);
      expect(headers.authorization).toBe(`Basic ${Buffer.from('me:pw').toString('base64')}`);
      expect(headers.cookie).toBe(`sid=${TOKEN}`);
      // A field given for the origin replaces the fetcher's own.
      expect(headers['user-agent']).toBe('staging-gate/1');
    }
    expect(other.requests).toHaveLength(1);
    const hop = other.requests[0]!;
    expect(hop['x-token']).toBeUndefined();
    expect(hop.authorization).toBeUndefined();
    expect(hop.cookie).toBeUndefined();
    expect(hop['user-agent']).toBe('linkladder-test');
    expect(JSON.stringify(other.requests)).not.toContain(TOKEN);
  });

  it('keepCookies: a login redirect\'s Set-Cookie goes with the next hop and later requests, not to 127.0.0.2', async () => {
    const other = await otherHost((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    const site = await startServer((request, response) => {
      if (request.url === '/login') response.writeHead(302, { location: '/home', 'set-cookie': [`sid=${TOKEN}; Path=/`, `x=${TOKEN}; Domain=127.0.0.2`] }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('home');
    });
    const fetcher = testFetcher({ credentials: createRequestCredentials({ keepCookies: true }) });
    await fetcher.fetch(`${site.origin}/login`);
    await fetcher.fetch(`${site.origin}/later`);
    await fetcher.fetch(`${other.origin}/elsewhere`);
    expect(site.requests.map((headers) => headers.cookie)).toEqual([undefined, `sid=${TOKEN}`, `sid=${TOKEN}`]);
    expect(other.requests[0]!.cookie).toBeUndefined();
  });

  it('without keepCookies, Set-Cookie is not kept', async () => {
    const site = await startServer((request, response) => {
      if (request.url === '/login') response.writeHead(302, { location: '/home', 'set-cookie': `sid=${TOKEN}; Path=/` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('home');
    });
    const fetcher = testFetcher({ credentials: createRequestCredentials({ headers: ['X-A: 1'], seedOrigins: [site.origin] }) });
    await fetcher.fetch(`${site.origin}/login`);
    expect(site.requests.map((headers) => headers.cookie)).toEqual([undefined, undefined]);
  });

  it('robots.txt of the seed\'s origin is asked with the credentials, that of another origin without', async () => {
    const other = await otherHost((_, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'));
    const site = await startServer((request, response) => {
      const isAllowed = request.headers['x-token'] === TOKEN;
      response.writeHead(isAllowed ? 200 : 401, { 'content-type': 'text/plain' }).end(isAllowed ? 'User-agent: *\nDisallow: /private/\n' : 'no');
    });
    const credentials = createRequestCredentials({ headers: [`X-Token: ${TOKEN}`], seedOrigins: [site.origin] });
    const robots = createRobotsPolicy({ credentials });
    onCleanup(() => robots.close());
    // Disallowed only if robots.txt was read: a 401 would allow all (RFC 9309 §2.3.1.3).
    expect(await robots.isAllowed(`${site.origin}/private/x`)).toBe(false);
    expect(await robots.isAllowed(`${other.origin}/x`)).toBe(true);
    expect(site.requests[0]!['x-token']).toBe(TOKEN);
    expect(other.requests[0]!['x-token']).toBeUndefined();
  });
});
