import { afterEach, describe, expect, it } from 'vitest';
import type { LookupFunction } from 'node:net';
import { closeAll, routes, startRawServer, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

const html = { 'content-type': 'text/html; charset=utf-8' };

/** Every host name resolves to 127.0.0.1. */
const toLoopback: LookupFunction = (_host, options, callback) => {
  if (options.all === true) {
    (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  } else callback(null, '127.0.0.1', 4);
};

describe('redirects, hop by hop', () => {
  it('follows 301, 302, 303, 307 and 308 with relative and absolute Locations, each hop recorded', async () => {
    let origin = '';
    const server = await startServer((request, response) =>
      routes({
        '/a/start': [301, { location: 'next' }],
        '/a/next': [302, { location: `${origin}/b/c` }],
        '/b/c': [303, { location: '../d/./e' }],
        '/d/e': [307, { location: '//127.0.0.1:' + new URL(origin).port + '/f' }],
        '/f': [308, { location: '?q=1' }],
        '/f?q=1': [200, html, '<p>arrived</p>'],
      })(request, response),
    );
    origin = server.origin;
    const result = await fetcher().fetch(`${origin}/a/start`);
    expect(result.errorCode).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.requestUrl).toBe(`${origin}/a/start`);
    expect(result.finalUrl).toBe(`${origin}/f?q=1`);
    expect(result.body).toBe('<p>arrived</p>');
    expect(result.hops).toEqual([
      { from: `${origin}/a/start`, to: `${origin}/a/next`, status: 301 },
      { from: `${origin}/a/next`, to: `${origin}/b/c`, status: 302 },
      { from: `${origin}/b/c`, to: `${origin}/d/e`, status: 303 },
      { from: `${origin}/d/e`, to: `${origin}/f`, status: 307 },
      { from: `${origin}/f`, to: `${origin}/f?q=1`, status: 308 },
    ]);
    expect(server.log).toEqual(['GET /a/start', 'GET /a/next', 'GET /b/c', 'GET /d/e', 'GET /f', 'GET /f?q=1']);
  });

  it('a response without redirects has no hops and its own URL as finalUrl', async () => {
    const server = await startServer(routes({ '/': [200, html, 'x'] }));
    const result = await fetcher().fetch(`${server.origin}/`);
    expect(result).toMatchObject({ hops: [], finalUrl: `${server.origin}/`, status: 200, body: 'x' });
  });

  it('detects a loop A → B → A', async () => {
    let origin = '';
    const server = await startServer((request, response) =>
      routes({ '/a': [302, { location: '/b' }], '/b': [302, { location: `${origin}/a` }] })(request, response),
    );
    origin = server.origin;
    const result = await fetcher().fetch(`${origin}/a`);
    expect(result.errorCode).toBe('ERR_FETCH_REDIRECT_LOOP');
    expect(result.status).toBe(302);
    expect(result.finalUrl).toBe(`${origin}/b`);
    expect(result.hops).toEqual([
      { from: `${origin}/a`, to: `${origin}/b`, status: 302 },
      { from: `${origin}/b`, to: `${origin}/a`, status: 302 },
    ]);
    expect(server.log).toEqual(['GET /a', 'GET /b']);
  });

  it('compares URLs in the chain by resource key: case, %-encoded unreserved, dot segments, fragment', async () => {
    let port = 0;
    const server = await startServer((request, response) =>
      routes({
        '/a': [301, { location: '/b' }],
        // Scheme and host case, "%61" for "a", a dot segment and a fragment: all the resource /a.
        '/b': [301, { location: `HTTP://Example.TEST:${port}/./%61#top` }],
      })(request, response),
    );
    port = server.port;
    const result = await fetcher({ lookup: toLoopback }).fetch(`http://example.test:${port}/a`);
    expect(result.errorCode).toBe('ERR_FETCH_REDIRECT_LOOP');
    expect(result.hops.at(-1)).toEqual({
      from: `http://example.test:${port}/b`,
      to: `HTTP://Example.TEST:${port}/%61#top`,
      status: 301,
    });
    expect(server.log).toEqual(['GET /a', 'GET /b']);
  });

  it('stops after maxRedirects: the extra hop is recorded, not followed', async () => {
    const server = await startServer((request, response) => {
      const n = Number(/^\/r\/(\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
      response.writeHead(302, { location: `/r/${n + 1}` });
      response.end();
    });
    const result = await fetcher({ maxRedirects: 3 }).fetch(`${server.origin}/r/0`);
    expect(result.errorCode).toBe('ERR_FETCH_TOO_MANY_REDIRECTS');
    expect(result.hops.map((hop) => hop.to)).toEqual([1, 2, 3, 4].map((n) => `${server.origin}/r/${n}`));
    expect(result.finalUrl).toBe(`${server.origin}/r/3`);
    expect(server.log).toEqual(['GET /r/0', 'GET /r/1', 'GET /r/2', 'GET /r/3']);
  });

  it('follows 10 redirects by default, not 11', async () => {
    const server = await startServer((request, response) => {
      const n = Number(/^\/r\/(-?\d+)$/.exec(request.url ?? '')?.[1] ?? 0);
      if (n === 10) {
        response.writeHead(200, html);
        response.end('ten');
        return;
      }
      response.writeHead(301, { location: `/r/${n + 1}` });
      response.end();
    });
    const ok = await fetcher().fetch(`${server.origin}/r/0`);
    expect(ok).toMatchObject({ status: 200, body: 'ten', errorCode: undefined });
    expect(ok.hops).toHaveLength(10);
    const tooMany = await fetcher().fetch(`${server.origin}/r/-1`);
    expect(tooMany.errorCode).toBe('ERR_FETCH_TOO_MANY_REDIRECTS');
    expect(tooMany.hops).toHaveLength(11);
  });

  it('maxRedirects: 0 records the first redirect and follows none', async () => {
    const server = await startServer(routes({ '/': [301, { location: '/x' }] }));
    const result = await fetcher({ maxRedirects: 0 }).fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_TOO_MANY_REDIRECTS');
    expect(result.hops).toEqual([{ from: `${server.origin}/`, to: `${server.origin}/x`, status: 301 }]);
    expect(server.log).toEqual(['GET /']);
  });

  it('records a 3xx without Location as such: status kept, not followed, body read', async () => {
    const server = await startServer(routes({ '/': [302, html, '<a href="/elsewhere">moved</a>'] }));
    const result = await fetcher().fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_REDIRECT_WITHOUT_LOCATION');
    expect(result.status).toBe(302);
    expect(result.hops).toEqual([{ from: `${server.origin}/`, to: undefined, status: 302 }]);
    expect(result.finalUrl).toBe(`${server.origin}/`);
    expect(result.body).toBe('<a href="/elsewhere">moved</a>');
    expect(server.log).toEqual(['GET /']);
  });

  it('takes 300 and 304 as final responses, Location or not', async () => {
    const server = await startServer(routes({ '/300': [300, { ...html, location: '/x' }, 'choices'], '/304': [304, {}] }));
    const choices = await fetcher().fetch(`${server.origin}/300`);
    expect(choices).toMatchObject({ status: 300, hops: [], body: 'choices', errorCode: undefined });
    const notModified = await fetcher().fetch(`${server.origin}/304`);
    // Final, not followed; asked for without validators, it is a protocol error (create-fetcher.not-modified.test.ts).
    expect(notModified).toMatchObject({ status: 304, hops: [], errorCode: 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED' });
    expect(server.log).toEqual(['GET /300', 'GET /304']);
  });

  it('DEVIATION(RFC 9110 §10.2.2) reads a Location as a browser does: surrounding whitespace, spaces, backslashes, raw UTF-8', async () => {
    const target = await startServer((_request, response) => {
      response.writeHead(200, html);
      response.end('ok');
    });
    const raw = await startRawServer((socket) => {
      socket.once('data', (data) => {
        const path = /^GET (\S+)/.exec(data.toString('latin1'))?.[1] ?? '/';
        const locations: Record<string, Buffer> = {
          '/spaces': Buffer.from(`Location: \t /a b/c d \t\r\n`, 'latin1'),
          '/utf8': Buffer.concat([Buffer.from('Location: /caf'), Buffer.from('é?q=ü', 'utf8'), Buffer.from('\r\n')]),
          '/latin1': Buffer.from('Location: /caf\xe9\r\n', 'latin1'),
          '/backslash': Buffer.from(`Location: http://127.0.0.1:${target.port}\\x\\y\r\n`, 'latin1'),
        };
        socket.end(
          Buffer.concat([
            Buffer.from('HTTP/1.1 302 Found\r\n'),
            locations[path] ?? Buffer.alloc(0),
            Buffer.from('Content-Length: 0\r\nConnection: close\r\n\r\n'),
          ]),
        );
      });
    });
    const origin = `http://127.0.0.1:${raw.port}`;
    const f = fetcher({ maxRedirects: 0 });
    expect((await f.fetch(`${origin}/spaces`)).hops[0]?.to).toBe(`${origin}/a%20b/c%20d`);
    expect((await f.fetch(`${origin}/utf8`)).hops[0]?.to).toBe(`${origin}/caf%C3%A9?q=%C3%BC`);
    expect((await f.fetch(`${origin}/latin1`)).hops[0]?.to).toBe(`${origin}/caf%C3%A9`);
    const followed = await fetcher().fetch(`${origin}/backslash`);
    expect(followed.hops[0]?.to).toBe(`${target.origin}/x/y`);
    expect(followed).toMatchObject({ status: 200, body: 'ok', finalUrl: `${target.origin}/x/y` });
    expect(target.log).toEqual(['GET /x/y']);
  });

  it('an invalid Location is a hop to undefined with ERR_FETCH_BAD_LOCATION', async () => {
    const server = await startServer(routes({ '/': [301, { location: 'http://[::1/garbage' }] }));
    const result = await fetcher().fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_BAD_LOCATION');
    expect(result.status).toBe(301);
    expect(result.hops).toEqual([{ from: `${server.origin}/`, to: undefined, status: 301 }]);
    expect(result.headers.location).toBe('http://[::1/garbage');
  });

  it('records a redirect to another scheme and does not follow it', async () => {
    const server = await startServer(
      routes({ '/ftp': [302, { location: 'ftp://files.example/x' }], '/mail': [302, { location: 'mailto:a@b.example' }] }),
    );
    const ftp = await fetcher().fetch(`${server.origin}/ftp`);
    expect(ftp.errorCode).toBe('ERR_FETCH_UNSUPPORTED_SCHEME');
    expect(ftp.hops).toEqual([{ from: `${server.origin}/ftp`, to: 'ftp://files.example/x', status: 302 }]);
    const mail = await fetcher().fetch(`${server.origin}/mail`);
    expect(mail.errorCode).toBe('ERR_FETCH_UNSUPPORTED_SCHEME');
    expect(mail.hops[0]?.to).toBe('mailto:a@b.example');
  });

  it('fetches only absolute http: and https: URLs', async () => {
    const f = fetcher();
    expect(await f.fetch('ftp://files.example/x')).toMatchObject({
      errorCode: 'ERR_FETCH_UNSUPPORTED_SCHEME',
      status: undefined,
      finalUrl: 'ftp://files.example/x',
      hops: [],
    });
    expect((await f.fetch('/relative')).errorCode).toBe('ERR_FETCH_INVALID_URL');
    expect((await f.fetch('http://exa mple.com/')).errorCode).toBe('ERR_FETCH_INVALID_URL');
    expect((await f.fetch('http:///no-host')).errorCode).toBe('ERR_FETCH_INVALID_URL');
    expect((await f.fetch('http:no-authority')).errorCode).toBe('ERR_FETCH_INVALID_URL');
  });

  it('does not wait for the body of a redirect: a slow one is dropped and the chain goes on', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/slow') {
        response.writeHead(302, { location: '/done', 'content-type': 'text/html' });
        const timer = setInterval(() => response.write('.'), 20);
        response.once('close', () => clearInterval(timer));
        return;
      }
      response.writeHead(200, html);
      response.end('done');
    });
    const started = Date.now();
    const result = await fetcher().fetch(`${server.origin}/slow`);
    expect(result).toMatchObject({ status: 200, body: 'done', finalUrl: `${server.origin}/done` });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('sends no fragment and keeps the path as written', async () => {
    const server = await startServer(routes({}));
    await fetcher().fetch(`${server.origin}/a/%7Euser/%2F?x=%41#frag`);
    await fetcher().fetch(`${server.origin}`);
    expect(server.log).toEqual(['GET /a/%7Euser/%2F?x=%41', 'GET /']);
  });
});
