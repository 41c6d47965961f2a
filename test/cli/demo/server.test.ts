import { createServer as createNetServer } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../../src/cli/demo/index.js';
import { rawExchange, rawRequest } from './raw-http.js';

let server: DemoServer;

beforeAll(async () => {
  server = await startDemoServer();
});

afterAll(async () => {
  await server.close();
});

const get = (target: string, method = 'GET') => rawRequest(server.origin, target, method);

describe('startDemoServer', () => {
  it('listens on 127.0.0.1 at a port the OS picked', () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.origin).not.toBe('http://127.0.0.1:0');
    expect(server.site.origin).toBe(server.origin);
  });

  // [target, status, headers that must be there (undefined: must be absent)]
  it.each<[string, number, Record<string, string | undefined>]>([
    ['/robots.txt', 200, { 'content-type': 'text/plain; charset=utf-8' }],
    ['/', 200, { 'content-type': 'text/html; charset=utf-8', 'content-location': undefined }],
    ['/docs', 301, { location: '/docs/' }],
    ['/docs/', 200, { link: '</site.css>; rel=preload; as=style' }],
    ['/manual/core.html', 200, { 'content-location': 'core.html.en', etag: '"2a-5f1e3c4d;5f1e3c4e' }],
    ['/manual/core.html.en', 200, { 'content-location': undefined }],
    ['/manual/', 200, { 'content-location': 'index.html.en' }],
    ['/manual/index.html.en', 200, { 'content-location': undefined }],
    ['/latest/', 200, { 'content-location': '/guide/' }],
    ['/chain/moved/', 302, { location: 'end.html' }],
    ['/chain/moved/end.html', 200, {}],
    ['/moved', 301, { location: '/a-b.html' }],
    ['/loop-a', 302, { location: '/loop-b' }],
    ['/loop-b', 302, { location: '/loop-a' }],
    ['/no-location', 302, { location: undefined }],
    ['/missing.html', 404, { 'content-type': 'text/html; charset=utf-8' }],
    ['/server-error', 500, {}],
    ['/gzip.html', 200, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' }],
    ['/legacy.html', 200, { 'content-type': 'text/html; charset=windows-1252' }],
    ['/img/dot.png', 200, { 'content-type': 'image/png', 'content-length': '67' }],
    ['/private/secret.html', 200, {}],
    ['/release%20notes.html', 200, {}],
    ['/caf%C3%A9.html', 200, {}],
  ])('%s → %i', async (target, status, headers) => {
    const response = await get(target);
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(headers)) expect(response.headers[name], name).toBe(value);
    expect(response.headers['content-length']).toBe(String(response.body.byteLength));
  });

  it('substitutes its origin where pages and headers need an absolute URL', async () => {
    const { origin } = server;
    const port = new URL(origin).port;
    expect((await get('/chain/start')).headers.location).toBe(`${origin}/chain/moved/`);
    const spellings = (await get('/spellings.html')).body.toString('utf8');
    expect(spellings).toContain(`href="HTTP://127.0.0.1:${port}/a-b.html"`);
    expect(spellings).toContain(`href="//127.0.0.1:${port}/~user/"`);
    expect((await get('/')).body.toString('utf8')).toContain(`href="http://localhost:${port}/out-of-scope.html"`);
    expect((await get('/base/in-body.html')).body.toString('utf8')).toContain(`<base href="${origin}/guide/">`);
    expect((await get('/docs/')).body.toString('utf8')).toContain(`<link rel="canonical" href="HTTP://127.0.0.1:${port}/docs/">`);
  });

  it('sends /gzip.html gzip-compressed, even to a client that does not ask for it', async () => {
    const { body } = await get('/gzip.html');
    expect([body[0], body[1]]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(body).toString('utf8')).toContain('<h1>gzip</h1>');
  });

  it('sends /legacy.html as windows-1252 bytes', async () => {
    const { body } = await get('/legacy.html');
    // <a href="/café.html">Café’s menu: 5 €</a>, "é" E9, "’" 92, "€" 80
    const link = Buffer.concat([
      Buffer.from('<a href="/caf'), Buffer.from([0xe9]), Buffer.from('.html">Caf'), Buffer.from([0xe9, 0x92]),
      Buffer.from('s menu: 5 '), Buffer.from([0x80]), Buffer.from('</a>'),
    ]);
    expect(body.includes(link)).toBe(true);
  });

  it('serves every spelling that percent-encoding normalization and dot-segment removal join', async () => {
    for (const target of ['/~user/', '/%7Euser/', '/%7euser/', '/a%2Db.html', '/a%2db.html?q=%7e', '/./a-b.html', '/docs/../a-b.html', '/caf%c3%a9.html']) {
      expect((await get(target)).status, target).toBe(200);
    }
    // Case matters in the path, and a reserved character stays encoded.
    expect((await get('/A-B.html')).status).toBe(404);
    expect((await get('/manual%2Fcore.html')).status).toBe(404);
  });

  it('answers HEAD with the headers and no body', async () => {
    const head = await get('/manual/core.html', 'HEAD');
    const full = await get('/manual/core.html');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-location']).toBe('core.html.en');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect((await get('/nowhere', 'HEAD')).status).toBe(404);
  });

  it('answers other methods 405', async () => {
    const response = await get('/', 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers unknown paths 404 with a page that links nowhere', async () => {
    const response = await get('/no/such/page.html');
    expect(response.status).toBe(404);
    expect(response.body.toString('utf8')).not.toContain('href');
  });

  it('logs each request as method and target, exactly as received, in order', async () => {
    const before = server.requests.length;
    await get('/%7euser/');
    await get('/./a-b.html?q=100%25');
    await get('/docs', 'HEAD');
    await get('/nowhere');
    expect(server.requests.slice(before)).toEqual(['GET /%7euser/', 'GET /./a-b.html?q=100%25', 'HEAD /docs', 'GET /nowhere']);
  });

  it('survives weird request targets and proxies nothing', async () => {
    const before = server.requests.length;
    const send = (requestLine: string | Uint8Array) => rawExchange(server.origin, requestLine);
    expect(await send('GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 404 /);
    expect(await send('GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 404 /);
    expect(await send('GET /%zz% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 404 /);
    expect(await send('GET //x//y HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 404 /);
    expect(await send('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 405 /);
    // Raw bytes node:http would not send: a non-ASCII byte, a space, no version.
    const nonAscii = Buffer.concat([Buffer.from('GET /caf'), Buffer.from([0xe9]), Buffer.from('.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]);
    expect(await send(nonAscii)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await send('GET /a b.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await send('NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    // The parser's error codes (llhttp's) vary between Node versions.
    expect(server.requests.slice(before)).toEqual([
      'GET http://example.com/',
      'GET /../../etc/passwd',
      'GET /%zz%',
      'GET //x//y',
      'OPTIONS *',
      expect.stringMatching(/^INVALID HPE_/),
      expect.stringMatching(/^INVALID HPE_/),
      expect.stringMatching(/^INVALID HPE_/),
    ]);
    // Still serving.
    expect((await get('/')).status).toBe(200);
  });
});

describe('DemoServer.close', () => {
  it('closes idle keep-alive connections and frees the port', async () => {
    const demo = await startDemoServer();
    const port = Number(new URL(demo.origin).port);
    // An idle keep-alive connection would hold server.close() open on its own.
    const response = await fetch(`${demo.origin}/`, { headers: { connection: 'keep-alive' } });
    await response.arrayBuffer();
    const closing = demo.close();
    expect(demo.close()).toBe(closing);
    await closing;
    await expect(fetch(`${demo.origin}/`)).rejects.toThrow();
    const probe = createNetServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
});
