// RFC 9110 §15.4.5: a 304 Not Modified answers a conditional request only. One that
// comes to a request without validators (the first request of an unconditional
// fetch, a redirect hop's, a HEAD) says nothing about a representation: it is a
// protocol error, ERR_FETCH_UNSOLICITED_NOT_MODIFIED.

import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

describe('304 Not Modified', () => {
  const server304 = () =>
    startServer((request, response) => {
      if (request.url === '/old') response.writeHead(301, { location: '/page' }).end();
      else response.writeHead(304, { etag: '"v1"' }).end();
    });

  it('answers a conditional request: no error', async () => {
    const server = await server304();
    const response = await fetcher().fetch(`${server.origin}/page`, undefined, { validators: { etag: '"v1"', lastModified: undefined } });
    expect(server.requests[0]?.['if-none-match']).toBe('"v1"');
    expect(response).toMatchObject({ status: 304, errorCode: undefined });
  });

  it('to a request without validators is ERR_FETCH_UNSOLICITED_NOT_MODIFIED (GET and HEAD)', async () => {
    const server = await server304();
    const get = await fetcher().fetch(`${server.origin}/page`);
    expect(get).toMatchObject({ status: 304, errorCode: 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED' });
    const head = await fetcher().fetch(`${server.origin}/page`, undefined, { method: 'HEAD' });
    expect(head).toMatchObject({ status: 304, errorCode: 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED' });
  });

  it('at the end of a redirect is unsolicited: the validators went to the URL asked for, not to the hop', async () => {
    const server = await server304();
    const response = await fetcher().fetch(`${server.origin}/old`, undefined, { validators: { etag: '"v1"', lastModified: undefined } });
    expect(server.requests.map((headers) => headers['if-none-match'])).toEqual(['"v1"', undefined]);
    expect(response).toMatchObject({ status: 304, errorCode: 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED' });
  });
});
