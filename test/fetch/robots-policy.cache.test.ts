// robots.txt kept across runs in a RobotsCache (RFC 9309 §2.4): a second policy on the
// same cache asks nothing while the entry is fresh, and once when it is stale.

import { afterEach, describe, expect, it } from 'vitest';
import {
  createRobotsPolicy,
  type HttpRobotsPolicy,
  type RobotsCache,
  type RobotsCacheEntry,
  type RobotsPolicyOptions,
} from '../../src/fetch/index.js';
import { closeAll, onCleanup, startServer, type TestServer } from './test-server.js';

afterEach(closeAll);

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

function policy(options?: RobotsPolicyOptions): HttpRobotsPolicy {
  const created = createRobotsPolicy(options);
  onCleanup(() => created.close());
  return created;
}

/** A server whose /robots.txt answers `robots.status` with `robots.body`, both changeable; other paths are pages. */
async function robotsServer(status: number, body: string): Promise<{ server: TestServer; robots: { status: number; body: string } }> {
  const robots = { status, body };
  const server = await startServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(robots.status, { 'content-type': 'text/plain' });
      response.end(robots.body);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('page');
  });
  return { server, robots };
}

/** robots.txt requests the server received. */
function robotsRequests(server: TestServer): number {
  return server.log.filter((line) => line === 'GET /robots.txt').length;
}

/** A clock the test moves. */
function clock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 3\n';

describe('RobotsCache: robots.txt across runs (RFC 9309 §2.4)', () => {
  it('stores what a fetch leaves, keyed by origin: fetchedAt, status, no error code, the body', async () => {
    const { server } = await robotsServer(200, RULES);
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    await policy({ cache, now: time.now }).isAllowed(`${server.origin}/`);
    expect([...cache.keys()]).toEqual([server.origin]);
    expect(cache.get(server.origin)).toEqual({ fetchedAt: time.now(), status: 200, errorCode: undefined, body: RULES });
  });

  it('a second policy on the same cache makes no request while the entry is fresh, and decides the same', async () => {
    const { server } = await robotsServer(200, RULES);
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    const first = policy({ cache, now: time.now });
    expect(await first.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(robotsRequests(server)).toBe(1);

    time.advance(DAY - 1);
    const second = policy({ cache, now: time.now });
    expect(await second.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(await second.isAllowed(`${server.origin}/public`)).toBe(true);
    expect(second.crawlDelayMs(`${server.origin}/`)).toBe(3000);
    expect(second.robotsFile(server.origin)).toEqual(first.robotsFile(server.origin));
    expect(robotsRequests(server)).toBe(1);
  });

  it('a stale entry (24 h old by default) is fetched again, once, and replaced: the new rules apply', async () => {
    const { server, robots } = await robotsServer(200, RULES);
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    await policy({ cache, now: time.now }).isAllowed(`${server.origin}/`);
    robots.body = 'User-agent: *\nDisallow: /public\n';

    time.advance(DAY);
    const second = policy({ cache, now: time.now });
    const answers = await Promise.all([
      second.isAllowed(`${server.origin}/private/x`),
      second.isAllowed(`${server.origin}/public`),
      second.isAllowed(`${server.origin}/other`),
    ]);
    expect(answers).toEqual([true, false, true]);
    expect(robotsRequests(server)).toBe(2);
    expect(cache.get(server.origin)).toMatchObject({ fetchedAt: time.now(), body: robots.body });
    await second.isAllowed(`${server.origin}/again`);
    expect(robotsRequests(server)).toBe(2);
  });

  it('the max age is `cacheTtlMs`', async () => {
    const { server } = await robotsServer(200, RULES);
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    await policy({ cache, now: time.now, cacheTtlMs: HOUR }).isAllowed(`${server.origin}/`);
    time.advance(HOUR - 1);
    await policy({ cache, now: time.now, cacheTtlMs: HOUR }).isAllowed(`${server.origin}/`);
    expect(robotsRequests(server)).toBe(1);
    time.advance(1);
    await policy({ cache, now: time.now, cacheTtlMs: HOUR }).isAllowed(`${server.origin}/`);
    expect(robotsRequests(server)).toBe(2);
  });

  it('an entry used from the cache still expires in memory, counted from its fetch', async () => {
    const { server } = await robotsServer(200, RULES);
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    await policy({ cache, now: time.now }).isAllowed(`${server.origin}/`);
    time.advance(DAY - HOUR);
    const second = policy({ cache, now: time.now });
    await second.isAllowed(`${server.origin}/`);
    expect(robotsRequests(server)).toBe(1);
    time.advance(HOUR);
    await second.isAllowed(`${server.origin}/`);
    expect(robotsRequests(server)).toBe(2);
  });

  it('4xx is kept and rebuilt without a request: everything allowed (§2.3.1.3)', async () => {
    const { server } = await robotsServer(404, 'User-agent: *\nDisallow: /');
    const cache = new Map<string, RobotsCacheEntry>();
    const time = clock();
    expect(await policy({ cache, now: time.now }).isAllowed(`${server.origin}/x`)).toBe(true);
    expect(cache.get(server.origin)).toEqual({ fetchedAt: time.now(), status: 404, errorCode: undefined, body: undefined });
    const second = policy({ cache, now: time.now });
    expect(await second.isAllowed(`${server.origin}/x`)).toBe(true);
    expect(second.robotsFile(server.origin)).toMatchObject({ verdict: 'unavailable', status: 404 });
    expect(robotsRequests(server)).toBe(1);
  });

  it('a redirect failure is kept as unavailable, with its code', async () => {
    const server = await startServer((request, response) => {
      response.writeHead(302, { location: request.url === '/robots.txt' ? '/loop' : '/robots.txt' });
      response.end();
    });
    const cache = new Map<string, RobotsCacheEntry>();
    expect(await policy({ cache }).isAllowed(`${server.origin}/x`)).toBe(true);
    const second = policy({ cache });
    expect(await second.isAllowed(`${server.origin}/x`)).toBe(true);
    expect(second.robotsFile(server.origin)).toMatchObject({ verdict: 'unavailable', errorCode: 'ERR_FETCH_REDIRECT_LOOP' });
    expect(server.log).toEqual(['GET /robots.txt', 'GET /loop']);
  });

  it.each([500, 503, 429])('%i is unreachable: disallowed, as without a cache, and not stored: the next run asks again', async (status) => {
    const { server, robots } = await robotsServer(status, 'User-agent: *\nAllow: /');
    const cache = new Map<string, RobotsCacheEntry>();
    expect(await policy({ cache }).isAllowed(`${server.origin}/page`)).toBe(false);
    expect(cache.size).toBe(0);
    robots.status = 200;
    expect(await policy({ cache }).isAllowed(`${server.origin}/page`)).toBe(true);
    expect(robotsRequests(server)).toBe(2);
    expect(cache.get(server.origin)?.status).toBe(200);
  });

  it('a file past maxBytes is kept cut there (§2.5), and rules past the cap stay unseen when rebuilt', async () => {
    const padding = `# ${'x'.repeat(2000)}\n`;
    const { server } = await robotsServer(200, `User-agent: *\nDisallow: /early\n${padding}Disallow: /late\n`);
    const cache = new Map<string, RobotsCacheEntry>();
    await policy({ cache, maxBytes: 1024 }).isAllowed(`${server.origin}/`);
    const entry = cache.get(server.origin);
    expect(entry?.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
    expect(entry?.body?.length).toBeLessThanOrEqual(1024);
    const second = policy({ cache, maxBytes: 1024 });
    expect(await second.isAllowed(`${server.origin}/early`)).toBe(false);
    expect(await second.isAllowed(`${server.origin}/late`)).toBe(true);
    expect(robotsRequests(server)).toBe(1);
  });

  it('reads SQLite-style rows: null for an absent field', async () => {
    const { server } = await robotsServer(200, '');
    const time = clock();
    const row = { fetchedAt: time.now(), status: 200, errorCode: null, body: 'User-agent: *\nDisallow: /no\n' };
    const cache: RobotsCache = { get: () => row as unknown as RobotsCacheEntry, set: () => undefined };
    const robots = policy({ cache, now: time.now });
    expect(await robots.isAllowed(`${server.origin}/no`)).toBe(false);
    expect(robots.robotsFile(server.origin)).toMatchObject({ status: 200, errorCode: undefined, verdict: 'parsed' });
    expect(robotsRequests(server)).toBe(0);
  });

  it.each([
    ['not an object', 'yes'],
    ['no fetchedAt', { status: 200, errorCode: undefined, body: '' }],
    ['a status out of range', { fetchedAt: 1_700_000_000_000, status: 42, errorCode: undefined, body: '' }],
    ['an unknown code', { fetchedAt: 1_700_000_000_000, status: 200, errorCode: 'ERR_FETCH_FROM_THE_FUTURE', body: '' }],
    ['a body that is not text', { fetchedAt: 1_700_000_000_000, status: 200, errorCode: undefined, body: 42 }],
    ['fetchedAt in the future (no known age)', { fetchedAt: 1_700_000_000_000 + HOUR, status: 200, errorCode: undefined, body: '' }],
  ])('an entry that is not usable (%s) is a miss: fetched and replaced', async (_name, bad) => {
    const { server } = await robotsServer(200, 'User-agent: *\nDisallow: /no\n');
    const cache = new Map<string, unknown>();
    const time = clock();
    const stored = new Map([[server.origin, bad]]);
    const spy: RobotsCache = {
      get: (origin) => stored.get(origin) as RobotsCacheEntry | undefined,
      set: (origin, entry) => void cache.set(origin, entry),
    };
    expect(await policy({ cache: spy, now: time.now }).isAllowed(`${server.origin}/no`)).toBe(false);
    expect(robotsRequests(server)).toBe(1);
    expect(cache.get(server.origin)).toMatchObject({ fetchedAt: time.now(), status: 200 });
  });

  it('a cache that throws changes no decision: get is a miss, set is ignored', async () => {
    const { server } = await robotsServer(200, 'User-agent: *\nDisallow: /no\n');
    const failing: RobotsCache = {
      get: () => {
        throw new Error('disk I/O error');
      },
      set: () => {
        throw new Error('disk I/O error');
      },
    };
    const robots = policy({ cache: failing });
    expect(await robots.isAllowed(`${server.origin}/no`)).toBe(false);
    expect(await robots.isAllowed(`${server.origin}/yes`)).toBe(true);
    expect(robotsRequests(server)).toBe(1);
  });

  it('concurrent callers share one cache read and one request', async () => {
    const { server } = await robotsServer(200, RULES);
    const entries = new Map<string, RobotsCacheEntry>();
    let gets = 0;
    const counting: RobotsCache = {
      get: (origin) => {
        gets++;
        return entries.get(origin);
      },
      set: (origin, entry) => void entries.set(origin, entry),
    };
    const robots = policy({ cache: counting });
    await Promise.all(Array.from({ length: 8 }, (_, i) => robots.isAllowed(`${server.origin}/p${i}`)));
    expect(gets).toBe(1);
    expect(robotsRequests(server)).toBe(1);
  });

  it.each([{}, { get: () => undefined }, 'cache', null])('rejects a cache without get and set (%j)', (cache) => {
    expect(() => createRobotsPolicy({ cache: cache as never })).toThrow(
      expect.objectContaining({ code: 'ERR_API_BAD_OPTION', message: expect.stringMatching(/^Expected `cache` to be a RobotsCache/) }),
    );
  });
});
