import { afterEach, describe, expect, it } from 'vitest';
import type { OutgoingHttpHeaders } from 'node:http';
import { closeAll, startRawServer, startServer, testFetcher as fetcher, type TestServer } from './test-server.js';

afterEach(closeAll);

/** A server that answers every request with these headers and bytes. */
function serve(headers: OutgoingHttpHeaders, body: Buffer | string): Promise<TestServer> {
  return startServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(body);
  });
}

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('charset', () => {
  it('windows-1252 from the Content-Type header', async () => {
    // 0x93 0x94 are curly quotes in windows-1252 (C1 controls in ISO-8859-1), 0xE9 is é.
    const server = await serve({ 'content-type': 'text/html; charset=windows-1252' }, bytes('<p>', [0x93], 'caf', [0xe9], [0x94]));
    const result = await fetcher().fetch(server.origin);
    expect(result).toMatchObject({ charset: 'windows-1252', body: '<p>\u201ccafé\u201d' });
  });

  it('iso-8859-1 is decoded as windows-1252, as the Encoding Standard says', async () => {
    const server = await serve({ 'content-type': 'text/html;charset="ISO-8859-1"' }, bytes([0x80], ' ', [0xfc]));
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'windows-1252', body: '€ ü' });
  });

  it('<meta charset> in the first 1024 bytes when the header has none', async () => {
    const page = bytes('<!doctype html><html><head><!-- <meta charset=utf-8> --><meta charset="windows-1252"><title>', [0xe9], '</title>');
    const server = await serve({ 'content-type': 'text/html' }, page);
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'windows-1252', body: expect.stringContaining('<title>é</title>') });
  });

  it('<meta http-equiv=content-type> with Shift_JIS', async () => {
    // 日本 in Shift_JIS.
    const page = bytes(`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>`, [0x93, 0xfa, 0x96, 0x7b]);
    const server = await serve({ 'content-type': 'text/html' }, page);
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'shift_jis', body: expect.stringContaining('<p>日本') });
  });

  it('a BOM wins over the header (UTF-16LE), and is not part of the text', async () => {
    const page = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Grüße €</p>', 'utf16le')]);
    const server = await serve({ 'content-type': 'text/html; charset=iso-8859-1' }, page);
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'utf-16le', body: '<p>Grüße €</p>' });
  });

  it('a UTF-8 BOM', async () => {
    const server = await serve({ 'content-type': 'text/html' }, bytes([0xef, 0xbb, 0xbf], '<p>', [0xc3, 0xa9]));
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'utf-8', body: '<p>é' });
  });

  it('the header charset wins over <meta>', async () => {
    const page = bytes('<meta charset="shift_jis"><p>', [0xc3, 0xa9]);
    const server = await serve({ 'content-type': 'text/html; charset=utf-8' }, page);
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'utf-8', body: expect.stringContaining('<p>é') });
  });

  it('an unknown header label is skipped: <meta>, else UTF-8', async () => {
    const withMeta = await serve({ 'content-type': 'text/html; charset=no-such-charset' }, bytes('<meta charset=windows-1252>', [0xe9]));
    expect(await fetcher().fetch(withMeta.origin)).toMatchObject({ charset: 'windows-1252', body: '<meta charset=windows-1252>é' });
    const without = await serve({ 'content-type': 'text/html; charset=no-such-charset' }, bytes([0xc3, 0xa9]));
    expect(await fetcher().fetch(without.origin)).toMatchObject({ charset: 'utf-8', body: 'é' });
  });

  it('UTF-8 by default; bad bytes become U+FFFD, never an error', async () => {
    const server = await serve({ 'content-type': 'text/html' }, bytes('<p>', [0xff, 0xc3], 'x'));
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'utf-8', body: '<p>\ufffd\ufffdx', errorCode: undefined });
  });

  it('a <meta charset> past the first 1024 bytes is not seen', async () => {
    const page = bytes('<!--', ' '.repeat(1100), '--><meta charset=windows-1252>', [0xe9]);
    const server = await serve({ 'content-type': 'text/html' }, page);
    expect(await fetcher().fetch(server.origin)).toMatchObject({ charset: 'utf-8', body: expect.stringContaining('\ufffd') });
  });

  it('application/xhtml+xml is decoded too', async () => {
    const server = await serve({ 'content-type': 'Application/XHTML+XML; charset=UTF-8' }, '<html xmlns="http://www.w3.org/1999/xhtml"/>');
    expect(await fetcher().fetch(server.origin)).toMatchObject({
      contentType: 'application/xhtml+xml',
      charset: 'utf-8',
      body: '<html xmlns="http://www.w3.org/1999/xhtml"/>',
    });
  });
});

describe('chunked responses', () => {
  it('many small chunks, a UTF-8 character split across two of them', async () => {
    const text = '<p>' + 'Grüße, 日本 '.repeat(50) + '</p>';
    const encoded = Buffer.from(text, 'utf8');
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      let at = 0;
      const next = (): void => {
        if (at >= encoded.length) {
          response.end();
          return;
        }
        // 7-byte chunks cut through the multi-byte characters.
        response.write(encoded.subarray(at, at + 7), () => setImmediate(next));
        at += 7;
      };
      next();
    });
    const result = await fetcher().fetch(server.origin);
    expect(result.headers['transfer-encoding']).toBe('chunked');
    expect(result).toMatchObject({ body: text, bytes: encoded.length, errorCode: undefined });
  });
});

describe('bodies that are not HTML', () => {
  it('image/png is not decoded: body undefined, bytes 0, a large one not read (the server stops)', async () => {
    let serverClosed: Promise<void> | undefined;
    let written = 0;
    const server = await startServer((_request, response) => {
      serverClosed = new Promise((resolve) => response.once('close', () => resolve()));
      response.writeHead(200, { 'content-type': 'image/png' });
      response.on('error', () => undefined);
      const chunk = Buffer.alloc(64 * 1024, 0x89);
      const pump = (): void => {
        while (!response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    const result = await fetcher().fetch(server.origin);
    expect(result).toMatchObject({ status: 200, contentType: 'image/png', body: undefined, charset: undefined, bytes: 0 });
    expect(result.errorCode).toBeUndefined();
    await serverClosed;
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('no Content-Type: not taken for HTML', async () => {
    const raw = await startRawServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<html>')),
    );
    const result = await fetcher().fetch(`http://127.0.0.1:${raw.port}/`);
    expect(result).toMatchObject({ status: 200, contentType: undefined, body: undefined });
  });

  it('a small non-HTML body is drained and its connection reused', async () => {
    const ports: Array<number | undefined> = [];
    const server = await startServer((request, response) => {
      ports.push(request.socket.remotePort);
      response.writeHead(200, { 'content-type': request.url === '/a.js' ? 'text/javascript' : 'text/html' });
      response.end(request.url === '/a.js' ? 'f()' : 'ok');
    });
    const f = fetcher();
    expect(await f.fetch(`${server.origin}/a.js`)).toMatchObject({ contentType: 'text/javascript', body: undefined });
    // undici hands the connection back to its pool a moment after the body ends.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await f.fetch(`${server.origin}/page`)).toMatchObject({ body: 'ok' });
    expect(server.log).toEqual(['GET /a.js', 'GET /page']);
    expect(ports[1]).toBe(ports[0]);
  });
});

describe('headers', () => {
  it('pass through as sent: names lower-cased, repeated ones joined, malformed values kept', async () => {
    const raw = await startRawServer((socket) =>
      socket.once('data', () =>
        socket.end(
          [
            'HTTP/1.1 200 OK',
            'Content-Type: text/html',
            // Apache's negotiated ETag without its closing quote.
            'ETag: "1e4-5a8b9c0d1e2f0;5a8b9c0d1e2f1',
            'Content-Location: index.html.en',
            'Content-Base: http://example.test/base/',
            'Link: </style.css>; rel=preload',
            'LINK: </next>; rel="next"',
            'X-Weird:   spaced value  ',
            'Content-Length: 2',
            '',
            'ok',
          ].join('\r\n'),
        ),
      ),
    );
    const result = await fetcher().fetch(`http://127.0.0.1:${raw.port}/`);
    expect(result.errorCode).toBeUndefined();
    expect(result.headers).toMatchObject({
      etag: '"1e4-5a8b9c0d1e2f0;5a8b9c0d1e2f1',
      'content-location': 'index.html.en',
      'content-base': 'http://example.test/base/',
      link: '</style.css>; rel=preload, </next>; rel="next"',
      'x-weird': 'spaced value',
    });
    expect(Object.keys(result.headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('the Location of every hop, and of the last response, is in its headers', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/') {
        response.writeHead(301, { location: '/next' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html', location: '/elsewhere' });
      response.end('x');
    });
    const result = await fetcher().fetch(server.origin);
    expect(result.headers.location).toBe('/elsewhere');
  });

  it('sends User-Agent (default linkladder), Accept and Accept-Encoding', async () => {
    const server = await serve({ 'content-type': 'text/html' }, 'x');
    await fetcher().fetch(server.origin);
    await fetcher({ userAgent: 'linkladder/0.1 (+https://example.test/bot)' }).fetch(server.origin);
    expect(server.requests[0]).toMatchObject({ 'user-agent': 'linkladder', 'accept-encoding': 'gzip, deflate, br' });
    expect(server.requests[0]?.accept).toContain('text/html');
    expect(server.requests[1]?.['user-agent']).toBe('linkladder/0.1 (+https://example.test/bot)');
  });

  it('records startedAt from the clock given, and a duration', async () => {
    const server = await serve({ 'content-type': 'text/html' }, 'x');
    const result = await fetcher({ now: () => 1_700_000_000_000 }).fetch(server.origin);
    expect(result.startedAt).toBe(1_700_000_000_000);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(Object.isFrozen(result)).toBe(true);
  });
});
