import { afterEach, describe, expect, it } from 'vitest';
import type { BeforeRedirect, RedirectHop } from '../../src/fetch/index.js';
import { closeAll, routes, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

const html = { 'content-type': 'text/html; charset=utf-8' };

/** A hook that answers `decide(hop)` and remembers every hop it was asked about. */
function recording(decide: (hop: RedirectHop) => ReturnType<BeforeRedirect>): { hook: BeforeRedirect; asked: RedirectHop[] } {
  const asked: RedirectHop[] = [];
  return {
    asked,
    hook: (hop) => {
      asked.push(hop);
      return decide(hop);
    },
  };
}

/** /a → /b → /c → /page (200). */
function chainServer(): Promise<Awaited<ReturnType<typeof startServer>>> {
  return startServer(
    routes({
      '/a': [301, { location: '/b' }],
      '/b': [302, { location: '/c', 'x-hop': 'b' }, 'moved'],
      '/c': [307, { location: '/page' }],
      '/page': [200, html, '<p>end</p>'],
    }),
  );
}

describe('beforeRedirect', () => {
  it('is asked about each hop before its target is requested; "follow" follows', async () => {
    const server = await chainServer();
    const o = server.origin;
    const { hook, asked } = recording(() => 'follow');
    const result = await fetcher().fetch(`${o}/a`, undefined, { beforeRedirect: hook });
    expect(result).toMatchObject({ status: 200, body: '<p>end</p>', finalUrl: `${o}/page`, errorCode: undefined });
    expect(asked).toEqual([
      { from: `${o}/a`, to: `${o}/b`, status: 301, hopIndex: 0 },
      { from: `${o}/b`, to: `${o}/c`, status: 302, hopIndex: 1 },
      { from: `${o}/c`, to: `${o}/page`, status: 307, hopIndex: 2 },
    ]);
    expect(result.hops.map(({ from, to, status }) => ({ from, to, status }))).toEqual(
      asked.map(({ from, to, status }) => ({ from, to, status })),
    );
    expect('redirectStopped' in result).toBe(false);
    expect(server.log).toEqual(['GET /a', 'GET /b', 'GET /c', 'GET /page']);
  });

  it('"stop": the target is not requested; the 3xx is the result, every hop recorded, redirectStopped and no error', async () => {
    const server = await chainServer();
    const o = server.origin;
    const { hook, asked } = recording((hop) => (hop.to === `${o}/c` ? 'stop' : 'follow'));
    const result = await fetcher().fetch(`${o}/a`, undefined, { beforeRedirect: hook });
    expect(result).toMatchObject({
      requestUrl: `${o}/a`,
      finalUrl: `${o}/b`,
      status: 302,
      redirectStopped: true,
      errorCode: undefined,
      body: undefined,
      contentType: undefined,
      bytes: 0,
    });
    expect(result.headers).toMatchObject({ location: '/c', 'x-hop': 'b' });
    expect(result.hops).toEqual([
      { from: `${o}/a`, to: `${o}/b`, status: 301 },
      { from: `${o}/b`, to: `${o}/c`, status: 302 },
    ]);
    expect(asked).toHaveLength(2);
    expect(server.log).toEqual(['GET /a', 'GET /b']);
  });

  it('"stop" at the first hop: another host is never connected to (the private-address guard)', async () => {
    const elsewhere = await startServer(routes({ '/secret': [200, html, 'secret'] }));
    const server = await startServer(routes({ '/go': [302, { location: `${elsewhere.origin}/secret` }] }));
    const result = await fetcher().fetch(`${server.origin}/go`, undefined, { beforeRedirect: () => 'stop' });
    expect(result).toMatchObject({ status: 302, redirectStopped: true, errorCode: undefined, finalUrl: `${server.origin}/go` });
    expect(result.hops).toEqual([{ from: `${server.origin}/go`, to: `${elsewhere.origin}/secret`, status: 302 }]);
    expect(elsewhere.log).toEqual([]);
  });

  it('may answer with a promise', async () => {
    const server = await chainServer();
    const slowStop: BeforeRedirect = (hop) =>
      new Promise((resolve) => setTimeout(() => resolve(hop.hopIndex === 0 ? 'follow' : 'stop'), 20));
    const result = await fetcher().fetch(`${server.origin}/a`, undefined, { beforeRedirect: slowStop });
    expect(result).toMatchObject({ status: 302, redirectStopped: true, errorCode: undefined, finalUrl: `${server.origin}/b` });
    expect(server.log).toEqual(['GET /a', 'GET /b']);
  });

  it.each([
    ['throws', (): never => { throw new Error('boom'); }],
    ['rejects', (): Promise<never> => Promise.reject(new Error('boom'))],
    ['answers undefined', (): never => undefined as never],
    ['answers "yes"', (): never => 'yes' as never],
  ] as const)('a hook that %s stops the chain with ERR_FETCH_REDIRECT_HOOK_FAILED; the fetch resolves', async (_name, broken) => {
    const server = await chainServer();
    const o = server.origin;
    const result = await fetcher().fetch(`${o}/a`, undefined, { beforeRedirect: broken });
    expect(result).toMatchObject({
      status: 301,
      finalUrl: `${o}/a`,
      redirectStopped: true,
      errorCode: 'ERR_FETCH_REDIRECT_HOOK_FAILED',
    });
    expect(result.hops).toEqual([{ from: `${o}/a`, to: `${o}/b`, status: 301 }]);
    expect(server.log).toEqual(['GET /a']);
  });

  it('loops are still detected, and the loop-closing hop is not put to the hook', async () => {
    let origin = '';
    const server = await startServer((request, response) =>
      routes({ '/x': [302, { location: '/y' }], '/y': [302, { location: `${origin}/x` }] })(request, response),
    );
    origin = server.origin;
    const { hook, asked } = recording(() => 'follow');
    const result = await fetcher().fetch(`${origin}/x`, undefined, { beforeRedirect: hook });
    expect(result.errorCode).toBe('ERR_FETCH_REDIRECT_LOOP');
    expect('redirectStopped' in result).toBe(false);
    expect(result.hops).toHaveLength(2);
    expect(asked.map((hop) => hop.to)).toEqual([`${origin}/y`]);
    expect(server.log).toEqual(['GET /x', 'GET /y']);
  });

  it('the hop limit still holds: the hop past maxRedirects ends the chain without asking', async () => {
    const server = await startServer((request, response) => {
      const n = Number(/^\/r\/(\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
      response.writeHead(302, { location: `/r/${n + 1}` });
      response.end();
    });
    const { hook, asked } = recording(() => 'follow');
    const result = await fetcher({ maxRedirects: 2 }).fetch(`${server.origin}/r/0`, undefined, { beforeRedirect: hook });
    expect(result.errorCode).toBe('ERR_FETCH_TOO_MANY_REDIRECTS');
    expect(result.hops).toHaveLength(3);
    expect(asked.map((hop) => hop.hopIndex)).toEqual([0, 1]);
    expect(server.log).toEqual(['GET /r/0', 'GET /r/1', 'GET /r/2']);
  });

  it('hops the fetcher refuses itself (no Location, another scheme) are not put to the hook', async () => {
    const server = await startServer(
      routes({ '/none': [302, html, 'no location'], '/ftp': [302, { location: 'ftp://files.example/x' }] }),
    );
    const { hook, asked } = recording(() => 'follow');
    const f = fetcher();
    expect((await f.fetch(`${server.origin}/none`, undefined, { beforeRedirect: hook })).errorCode).toBe(
      'ERR_FETCH_REDIRECT_WITHOUT_LOCATION',
    );
    expect((await f.fetch(`${server.origin}/ftp`, undefined, { beforeRedirect: hook })).errorCode).toBe(
      'ERR_FETCH_UNSUPPORTED_SCHEME',
    );
    expect(asked).toEqual([]);
  });

  it('an abort while the hook decides ends the fetch as aborted, the target not requested', async () => {
    const server = await chainServer();
    const controller = new AbortController();
    const hook: BeforeRedirect = () => {
      controller.abort();
      return 'follow';
    };
    const result = await fetcher().fetch(`${server.origin}/a`, controller.signal, { beforeRedirect: hook });
    expect(result.errorCode).toBe('ERR_FETCH_ABORTED');
    expect(server.log).toEqual(['GET /a']);
  });

  it('bad call options reject with OptionError, naming the option', async () => {
    const f = fetcher();
    await expect(f.fetch('http://127.0.0.1:9/', undefined, { beforeRedirect: 'stop' as never })).rejects.toMatchObject({
      code: 'ERR_API_BAD_OPTION',
      message: 'Expected `beforeRedirect` to be a function, got `stop` (string)',
    });
    await expect(f.fetch('http://127.0.0.1:9/', undefined, { onRedirect: () => 'stop' } as never)).rejects.toMatchObject({
      code: 'ERR_API_BAD_OPTION',
      message: 'Option `onRedirect` is not supported; use `beforeRedirect`',
    });
  });
});
