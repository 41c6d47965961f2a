import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, routes, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

describe('HEAD (a link check)', () => {
  it('sends HEAD, follows redirects with HEAD, reads no body and says which method it used', async () => {
    const server = await startServer(
      routes({
        '/old': [301, { location: '/new' }],
        '/new': [200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '20' }, '<p>not read at all</p>'],
      }),
    );
    const response = await fetcher().fetch(`${server.origin}/old`, undefined, { method: 'HEAD' });
    expect(server.log).toEqual(['HEAD /old', 'HEAD /new']);
    expect(response).toMatchObject({ method: 'HEAD', status: 200, contentType: 'text/html', body: undefined, bytes: 0, errorCode: undefined });
    expect(response.hops).toEqual([{ from: `${server.origin}/old`, to: `${server.origin}/new`, status: 301 }]);
  });

  it('GET by default, and says so', async () => {
    const server = await startServer(routes({ '/': [200, { 'content-type': 'text/html' }, '<p>x</p>'] }));
    const response = await fetcher().fetch(`${server.origin}/`);
    expect(server.log).toEqual(['GET /']);
    expect(response.method).toBe('GET');
  });

  it('refuses a method other than GET and HEAD', async () => {
    await expect(fetcher().fetch('http://example.com/', undefined, { method: 'POST' as 'GET' })).rejects.toThrow(/Expected `method` to be 'GET' or 'HEAD'/);
  });
});

describe('stylesheets are read (for their url() and @import)', () => {
  it('decodes text/css by BOM, charset, @charset, else UTF-8; an image is not read', async () => {
    const latin1 = Buffer.from('@charset "iso-8859-1"; a { background: url(caf\xe9.png) }', 'latin1');
    const server = await startServer((request, response) => {
      if (request.url === '/latin1.css') {
        response.writeHead(200, { 'content-type': 'text/css' });
        response.end(latin1);
      } else if (request.url === '/plain.css') {
        response.writeHead(200, { 'content-type': 'text/css' });
        response.end('a { background: url(café.png) }');
      } else {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.alloc(100));
      }
    });
    const f = fetcher();
    const declared = await f.fetch(`${server.origin}/latin1.css`);
    expect(declared).toMatchObject({ contentType: 'text/css', charset: 'windows-1252' });
    expect(declared.body).toContain('url(café.png)');
    const plain = await f.fetch(`${server.origin}/plain.css`);
    expect(plain).toMatchObject({ charset: 'utf-8', body: 'a { background: url(café.png) }' });
    const image = await f.fetch(`${server.origin}/logo.png`);
    expect(image).toMatchObject({ contentType: 'image/png', body: undefined });
  });
});

describe('Markdown is read (for its links)', () => {
  it('decodes text/markdown and text/x-markdown by BOM, charset, else UTF-8 (no <meta> sniffing); text/plain is not read', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/latin1.md') {
        response.writeHead(200, { 'content-type': 'text/markdown; charset=iso-8859-1' });
        response.end(Buffer.from('[caf\xe9](caf\xe9.md)', 'latin1'));
      } else if (request.url === '/meta.md') {
        // A <meta charset> in raw HTML is no declaration for Markdown: UTF-8 it stays.
        response.writeHead(200, { 'content-type': 'text/x-markdown' });
        response.end('<meta charset="windows-1252">\n\n[café](café.md)');
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('[a](b.md)');
      }
    });
    const f = fetcher();
    expect(await f.fetch(`${server.origin}/latin1.md`)).toMatchObject({ contentType: 'text/markdown', charset: 'windows-1252', body: '[café](café.md)' });
    expect(await f.fetch(`${server.origin}/meta.md`)).toMatchObject({ contentType: 'text/x-markdown', charset: 'utf-8', body: '<meta charset="windows-1252">\n\n[café](café.md)' });
    expect(await f.fetch(`${server.origin}/notes.txt`)).toMatchObject({ contentType: 'text/plain', body: undefined });
  });
});
