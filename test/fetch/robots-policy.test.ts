import { afterEach, describe, expect, it } from 'vitest';
import {
  createRobotsPolicy,
  robotsVerdict,
  type HttpRobotsPolicy,
  type RobotsPolicyOptions,
} from '../../src/fetch/index.js';
import { closeAll, closedPort, onCleanup, startServer, type TestServer } from './test-server.js';

afterEach(closeAll);

function policy(options?: RobotsPolicyOptions): HttpRobotsPolicy {
  const created = createRobotsPolicy(options);
  onCleanup(() => created.close());
  return created;
}

/** A server whose /robots.txt answers `status` with `body`; every other path is a page. */
function robotsServer(status: number, body = '', headers: Record<string, string> = {}): Promise<TestServer> {
  return startServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(status, { 'content-type': 'text/plain', ...headers });
      response.end(body);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('page');
  });
}

const RULES = [
  'User-agent: *',
  'Disallow: /',
  '',
  'User-agent: LinkLadder',
  'Disallow: /private/',
  'Disallow: /*.pdf$',
  'Allow: /private/open',
  'Crawl-delay: 2.5',
  '',
  'User-agent: otherbot',
  'Crawl-delay: 9',
].join('\n');

describe('robots.txt rules (RFC 9309)', () => {
  it('allows and disallows by the group of the product token', async () => {
    const server = await robotsServer(200, RULES);
    const robots = policy({ userAgent: 'linkladder/0.1 (+https://example.test/bot)' });
    const o = server.origin;
    expect(await robots.isAllowed(`${o}/`)).toBe(true);
    expect(await robots.isAllowed(`${o}/public/page.html`)).toBe(true);
    expect(await robots.isAllowed(`${o}/private/secret`)).toBe(false);
    expect(await robots.isAllowed(`${o}/private/open/door`)).toBe(true);
    expect(await robots.isAllowed(`${o}/doc.pdf`)).toBe(false);
    expect(await robots.isAllowed(`${o}/doc.pdf?download=1`)).toBe(true);
    expect(await robots.isAllowed(`${o}/PRIVATE/secret`)).toBe(true);
    expect(server.log).toEqual(['GET /robots.txt']);
    expect(server.requests[0]?.['user-agent']).toBe('linkladder/0.1 (+https://example.test/bot)');
  });

  it('another token falls to the * group', async () => {
    const server = await robotsServer(200, RULES);
    const robots = policy({ userAgent: 'somebot' });
    expect(await robots.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(robots.crawlDelayMs(`${server.origin}/`)).toBeUndefined();
  });

  it('exposes Crawl-delay in ms once robots.txt is read', async () => {
    const server = await robotsServer(200, RULES);
    const robots = policy();
    expect(robots.crawlDelayMs(`${server.origin}/`)).toBeUndefined();
    await robots.isAllowed(`${server.origin}/`);
    expect(robots.crawlDelayMs(`${server.origin}/any/page`)).toBe(2500);
    expect(robots.robotsFile(`${server.origin}/x`)).toMatchObject({
      url: `${server.origin}/robots.txt`,
      verdict: 'parsed',
      status: 200,
      errorCode: undefined,
      crawlDelayMs: 2500,
    });
  });

  it('one robots.txt per origin: the origin is normalized (host case, default port, userinfo)', async () => {
    const server = await robotsServer(200, 'User-agent: *\nDisallow: /x');
    const robots = policy();
    const port = server.port;
    expect(await robots.isAllowed(`http://127.0.0.1:${port}/x`)).toBe(false);
    expect(await robots.isAllowed(`HTTP://user@127.0.0.1:${port}/x#frag`)).toBe(false);
    expect(await robots.isAllowed(`http://127.0.0.1:${port}/y`)).toBe(true);
    expect(server.log).toEqual(['GET /robots.txt']);
  });

  it('de-duplicates concurrent requests: 10 parallel isAllowed → 1 request, per origin', async () => {
    const slow = (body: string) =>
      startServer((request, response) => {
        setTimeout(() => {
          response.writeHead(request.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
          response.end(body);
        }, 50);
      });
    const a = await slow('User-agent: *\nDisallow: /a');
    const b = await slow('User-agent: *\nDisallow: /b');
    const robots = policy();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        robots.isAllowed(`${a.origin}/${i % 2 === 0 ? 'a' : 'b'}/${i}`),
        robots.isAllowed(`${b.origin}/${i % 2 === 0 ? 'a' : 'b'}/${i}`),
      ]).flat(),
    );
    // Origin a disallows /a, origin b disallows /b.
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => [i % 2 !== 0, i % 2 === 0]).flat());
    expect(a.log).toEqual(['GET /robots.txt']);
    expect(b.log).toEqual(['GET /robots.txt']);
  });

  it('/robots.txt itself is allowed, and URLs robots.txt does not govern ask nothing', async () => {
    const server = await robotsServer(200, 'User-agent: *\nDisallow: /');
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/robots.txt`)).toBe(true);
    expect(await robots.isAllowed('mailto:someone@example.test')).toBe(true);
    expect(await robots.isAllowed('not a url')).toBe(true);
    expect(server.log).toEqual([]);
    expect(await robots.isAllowed(`${server.origin}/`)).toBe(false);
  });

  it('follows up to 5 redirects to robots.txt (RFC 9309 §2.3.1.2)', async () => {
    const server = await startServer((request, response) => {
      const hop = /^\/r(\d)$/.exec(request.url ?? '');
      if (request.url === '/robots.txt') {
        response.writeHead(301, { location: '/r1' });
      } else if (hop !== null && Number(hop[1]) < 5) {
        response.writeHead(302, { location: `/r${Number(hop[1]) + 1}` });
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('User-agent: *\nDisallow: /no');
        return;
      }
      response.end();
    });
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/no`)).toBe(false);
    expect(server.log).toEqual(['GET /robots.txt', 'GET /r1', 'GET /r2', 'GET /r3', 'GET /r4', 'GET /r5']);
  });

  it('more than 5 redirects: unavailable, everything allowed', async () => {
    const server = await startServer((request, response) => {
      const n = Number(/^\/r(\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
      response.writeHead(302, { location: `/r${n + 1}` });
      response.end();
    });
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/anything`)).toBe(true);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'unavailable', errorCode: 'ERR_FETCH_TOO_MANY_REDIRECTS' });
    expect(server.log).toHaveLength(6);
  });

  it('parses only the first maxBytes (RFC 9309 §2.5): rules past the cap are not seen', async () => {
    const padding = `# ${'x'.repeat(2000)}\n`;
    const server = await robotsServer(200, `User-agent: *\nDisallow: /early\n${padding}Disallow: /late\n`);
    const robots = policy({ maxBytes: 1024 });
    expect(await robots.isAllowed(`${server.origin}/early`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/late`)).toBe(true);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'parsed', errorCode: 'ERR_FETCH_BODY_TOO_LARGE' });
  });

  it('reads robots.txt as UTF-8 whatever its Content-Type, gzip or not', async () => {
    const server = await robotsServer(200, '\ufeffUser-agent: *\nDisallow: /café\n', { 'content-type': 'text/html; charset=iso-8859-1' });
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/caf%C3%A9`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/cafe`)).toBe(true);
  });

  it('fetches robots.txt again after cacheTtlMs', async () => {
    let now = 1_000_000;
    const server = await robotsServer(200, 'User-agent: *\nDisallow: /x');
    const robots = policy({ now: () => now, cacheTtlMs: 60_000 });
    await robots.isAllowed(`${server.origin}/x`);
    now += 59_999;
    await robots.isAllowed(`${server.origin}/x`);
    expect(server.log).toHaveLength(1);
    now += 1;
    await robots.isAllowed(`${server.origin}/x`);
    expect(server.log).toHaveLength(2);
  });

  it('forgets the least recently used origin past maxCachedOrigins', async () => {
    const a = await robotsServer(200, '');
    const b = await robotsServer(200, '');
    const robots = policy({ maxCachedOrigins: 1 });
    await robots.isAllowed(`${a.origin}/`);
    await robots.isAllowed(`${b.origin}/`);
    await robots.isAllowed(`${a.origin}/`);
    expect(a.log).toHaveLength(2);
    expect(robots.robotsFile(b.origin)).toBeUndefined();
  });
});

describe('robots.txt that cannot be read (RFC 9309 §2.3.1.3, §2.3.1.4)', () => {
  it.each([400, 401, 403, 404, 410])('%i: unavailable, everything allowed', async (status) => {
    const server = await robotsServer(status, 'User-agent: *\nDisallow: /');
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(true);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'unavailable', status });
  });

  it.each([500, 502, 503])('%i: unreachable, everything disallowed', async (status) => {
    const server = await robotsServer(status, 'User-agent: *\nAllow: /');
    const robots = policy();
    // Callers that ask while it is fetched share one request.
    expect(await Promise.all([robots.isAllowed(`${server.origin}/page`), robots.isAllowed(`${server.origin}/other`)])).toEqual([false, false]);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'unreachable', status });
    expect(server.log).toEqual(['GET /robots.txt']);
  });

  it('unreachable is not kept: the next ask fetches robots.txt again (§2.3.1.4; the crawler backs off per host)', async () => {
    let status = 503;
    const server = await startServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nDisallow: /private/\n');
    });
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(false);
    status = 200;
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(true);
    expect(await robots.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'parsed', status: 200 });
  });

  it('DEVIATION(RFC 9309 §2.3.1.3) 429 Too Many Requests is unreachable, not unavailable: everything disallowed', async () => {
    const server = await robotsServer(429, '');
    const robots = policy();
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(false);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'unreachable', status: 429 });
  });

  it('connection refused: unreachable, everything disallowed', async () => {
    const port = await closedPort();
    const robots = policy();
    expect(await robots.isAllowed(`http://127.0.0.1:${port}/page`)).toBe(false);
    expect(robots.robotsFile(`http://127.0.0.1:${port}/`)).toMatchObject({
      verdict: 'unreachable',
      status: undefined,
      errorCode: 'ERR_FETCH_CONNECTION_REFUSED',
    });
  });

  it('a robots.txt that never finishes: unreachable', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('User-agent: *\n');
    });
    const robots = policy({ bodyTimeoutMs: 100 });
    expect(await robots.isAllowed(`${server.origin}/page`)).toBe(false);
    expect(robots.robotsFile(server.origin)).toMatchObject({ verdict: 'unreachable', errorCode: 'ERR_FETCH_BODY_TIMEOUT' });
  });
});

describe('robotsVerdict', () => {
  it.each([
    [200, undefined, 'parsed'],
    [204, undefined, 'parsed'],
    [200, 'ERR_FETCH_BODY_TOO_LARGE', 'parsed'],
    [200, 'ERR_FETCH_NETWORK', 'unreachable'],
    [200, 'ERR_FETCH_CONTENT_ENCODING', 'unreachable'],
    [404, undefined, 'unavailable'],
    [451, undefined, 'unavailable'],
    [429, undefined, 'unreachable'],
    [503, undefined, 'unreachable'],
    [302, 'ERR_FETCH_TOO_MANY_REDIRECTS', 'unavailable'],
    [301, 'ERR_FETCH_REDIRECT_LOOP', 'unavailable'],
    [302, 'ERR_FETCH_REDIRECT_WITHOUT_LOCATION', 'unavailable'],
    [304, undefined, 'unavailable'],
    [undefined, 'ERR_FETCH_CONNECT_TIMEOUT', 'unreachable'],
    [undefined, 'ERR_FETCH_TLS', 'unreachable'],
    [undefined, 'ERR_FETCH_PROXY', 'unreachable'],
    // A certificate refused: the host's pages fail alike, each saying why.
    [undefined, 'ERR_FETCH_TLS_SELF_SIGNED', 'unavailable'],
    [undefined, 'ERR_FETCH_TLS_CERT_EXPIRED', 'unavailable'],
  ] as const)('%s %s → %s', (status, errorCode, verdict) => {
    expect(robotsVerdict({ status, errorCode })).toBe(verdict);
  });
});
