// A body that ends before it is complete — the connection reset
// mid-body, fewer bytes than Content-Length, a chunked body without its last chunk —
// is ERR_FETCH_BODY_TRUNCATED (what came is kept, for the caller to judge), not a
// network error that reads as if no response came.

import { afterEach, describe, expect, it } from 'vitest';
import { isBodyCut } from '../../src/fetch/index.js';
import { closeAll, startRawServer, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

const html = { 'content-type': 'text/html; charset=utf-8' };

describe('a body cut short', () => {
  it('a connection reset mid-body: ERR_FETCH_BODY_TRUNCATED, what came is kept', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      response.write('<p>partial', () => setTimeout(() => response.socket?.destroy(), 20));
    });
    const result = await fetcher().fetch(server.origin);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TRUNCATED', status: 200, body: '<p>partial' });
  });

  it('fewer bytes than Content-Length, then the connection closes: ERR_FETCH_BODY_TRUNCATED', async () => {
    const raw = await startRawServer((socket) => {
      socket.once('data', () => {
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n<p>only ten');
      });
    });
    const result = await fetcher().fetch(`http://127.0.0.1:${raw.port}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TRUNCATED', status: 200 });
    expect(result.body).toBe('<p>only ten');
  });

  it('a chunked body whose last chunk never comes, the connection closed: ERR_FETCH_BODY_TRUNCATED', async () => {
    const raw = await startRawServer((socket) => {
      socket.once('data', () => {
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>ab\r\n');
      });
    });
    const result = await fetcher().fetch(`http://127.0.0.1:${raw.port}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TRUNCATED', status: 200, body: '<p>ab' });
  });

  it('a whole body is no error: Content-Length met, or the connection closed after a body without one', async () => {
    const raw = await startRawServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<p>all of it'));
    });
    expect(await fetcher().fetch(`http://127.0.0.1:${raw.port}/`)).toMatchObject({ errorCode: undefined, body: '<p>all of it' });
  });

  it('isBodyCut: the codes that, with a status, mean the body is incomplete (the cap of maxBodyBytes is not one)', () => {
    for (const code of ['ERR_FETCH_BODY_TRUNCATED', 'ERR_FETCH_BODY_TIMEOUT', 'ERR_FETCH_NETWORK', 'ERR_FETCH_ABORTED']) expect(isBodyCut(code), code).toBe(true);
    for (const code of ['ERR_FETCH_BODY_TOO_LARGE', 'ERR_FETCH_CONTENT_ENCODING', 'ERR_FETCH_REDIRECT_LOOP', undefined]) expect(isBodyCut(code), code).toBe(false);
  });
});
