import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import type { LookupFunction } from 'node:net';
import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createFetcher } from '../../src/fetch/index.js';
import { closeAll, closedPort, startRawServer, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

const KiB = 1024;
const MiB = 1024 * KiB;
const html = { 'content-type': 'text/html; charset=utf-8' };

/** Resolves when the server side of `response` is closed (the client went away, or it ended). */
function closed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => response.once('close', () => resolve()));
}

/** Write `chunk` for ever, with backpressure, until the connection closes. */
function writeForever(response: ServerResponse, chunk: Buffer, written: { bytes: number }): void {
  const pump = (): void => {
    while (!response.destroyed && !response.writableEnded) {
      written.bytes += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  response.on('error', () => undefined);
  pump();
}

describe('timeouts', () => {
  it('headers that never come: ERR_FETCH_HEADERS_TIMEOUT', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const started = Date.now();
    const result = await fetcher({ headersTimeoutMs: 200 }).fetch(`${server.origin}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_HEADERS_TIMEOUT', status: undefined, body: undefined });
    // undici's timers tick about every half second: the deadline is kept to about a second.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a connection that never completes (TLS handshake unanswered): ERR_FETCH_CONNECT_TIMEOUT', async () => {
    const silent = await startRawServer(() => {
      /* accepts TCP, never speaks TLS */
    });
    const result = await fetcher({ connectTimeoutMs: 200 }).fetch(`https://127.0.0.1:${silent.port}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_CONNECT_TIMEOUT', status: undefined });
  });

  it('a body that drips for ever is cut at the whole-body deadline, what came is kept, the server stops', async () => {
    let serverClosed: Promise<void> | undefined;
    let timer: NodeJS.Timeout | undefined;
    const server = await startServer((_request, response) => {
      serverClosed = closed(response);
      response.writeHead(200, html);
      response.write('<p>');
      // One byte every 20 ms: never idle long enough for an idle timeout.
      timer = setInterval(() => response.write('x'), 20);
      response.once('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const result = await fetcher({ bodyTimeoutMs: 300 }).fetch(`${server.origin}/`);
    const elapsed = Date.now() - started;
    expect(result.errorCode).toBe('ERR_FETCH_BODY_TIMEOUT');
    expect(result.status).toBe(200);
    expect(result.body).toMatch(/^<p>x+$/);
    expect(result.bytes).toBe(result.body?.length);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
    await serverClosed;
  });

  it('slow headers within the deadline are fine', async () => {
    const server = await startServer((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, html);
        response.end('late');
      }, 100);
    });
    expect(await fetcher({ headersTimeoutMs: 2000 }).fetch(`${server.origin}/`)).toMatchObject({ body: 'late' });
  });
});

describe('body caps', () => {
  it('a huge body stops at maxBodyBytes: ERR_FETCH_BODY_TOO_LARGE, the text up to the cap kept', async () => {
    let serverClosed: Promise<void> | undefined;
    const written = { bytes: 0 };
    const server = await startServer((_request, response) => {
      serverClosed = closed(response);
      response.writeHead(200, { ...html, 'content-length': String(64 * MiB) });
      writeForever(response, Buffer.alloc(64 * KiB, 'a'), written);
    });
    const result = await fetcher({ maxBodyBytes: MiB }).fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
    expect(result.status).toBe(200);
    expect(result.bytes).toBe(MiB);
    expect(result.body).toBe('a'.repeat(MiB));
    await serverClosed;
    expect(written.bytes).toBeLessThan(32 * MiB);
  });

  it('a never-ending chunked body stops at the cap and the server sees the connection close', async () => {
    let serverClosed: Promise<void> | undefined;
    const written = { bytes: 0 };
    const server = await startServer((_request, response) => {
      serverClosed = closed(response);
      response.writeHead(200, html);
      writeForever(response, Buffer.from('<p>never ending</p>\n'.repeat(800)), written);
    });
    const result = await fetcher({ maxBodyBytes: 256 * KiB }).fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
    expect(result.bytes).toBe(256 * KiB);
    await serverClosed;
    const after = written.bytes;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written.bytes).toBe(after);
  });

  it('the default caps are 10 MiB', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      writeForever(response, Buffer.alloc(256 * KiB, 'b'), { bytes: 0 });
    });
    const result = await fetcher().fetch(`${server.origin}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TOO_LARGE', bytes: 10 * MiB });
  });

  it('a gzip bomb (streamed, 1 GiB of zeros inflated) stops at maxDecodedBytes: the server stops early too', async () => {
    let serverClosed: Promise<void> | undefined;
    const produced = { bytes: 0 };
    const server = await startServer((_request, response) => {
      serverClosed = closed(response);
      response.writeHead(200, { ...html, 'content-encoding': 'gzip' });
      const gzip = createGzip({ level: 9 });
      gzip.pipe(response);
      response.once('close', () => gzip.destroy());
      const zeros = Buffer.alloc(MiB);
      const pump = (): void => {
        while (!gzip.destroyed && produced.bytes < 1024 * MiB) {
          produced.bytes += zeros.length;
          if (!gzip.write(zeros)) {
            gzip.once('drain', pump);
            return;
          }
        }
        if (!gzip.destroyed) gzip.end();
      };
      pump();
    });
    const result = await fetcher({ maxDecodedBytes: 2 * MiB }).fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_BODY_TOO_LARGE');
    expect(result.bytes).toBe(2 * MiB);
    expect(result.body).toBe('\0'.repeat(2 * MiB));
    await serverClosed;
    expect(produced.bytes).toBeLessThan(256 * MiB);
  });

  it('a few KB of gzip that inflate past the default cap are cut at 10 MiB', async () => {
    const bomb = gzipSync(Buffer.alloc(12 * MiB, 0x20));
    expect(bomb.length).toBeLessThan(16 * KiB);
    const server = await startServer((_request, response) => {
      response.writeHead(200, { ...html, 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      response.end(bomb);
    });
    const result = await fetcher().fetch(`${server.origin}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TOO_LARGE', bytes: 10 * MiB });
  });

  it('br and deflate bombs are capped the same way', async () => {
    const brBomb = brotliCompressSync(Buffer.alloc(8 * MiB));
    const deflateBomb = deflateSync(Buffer.alloc(8 * MiB));
    const server = await startServer((request, response) => {
      const isBr = request.url === '/br';
      response.writeHead(200, { ...html, 'content-encoding': isBr ? 'br' : 'deflate' });
      response.end(isBr ? brBomb : deflateBomb);
    });
    const f = fetcher({ maxDecodedBytes: MiB });
    expect(await f.fetch(`${server.origin}/br`)).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TOO_LARGE', bytes: MiB });
    expect(await f.fetch(`${server.origin}/deflate`)).toMatchObject({ errorCode: 'ERR_FETCH_BODY_TOO_LARGE', bytes: MiB });
  });
});

describe('content codings', () => {
  const page = '<!doctype html><title>Zürich</title><p>' + 'compressible '.repeat(200);
  const bodies: Record<string, readonly [string, Buffer]> = {
    '/gzip': ['gzip', gzipSync(page)],
    '/x-gzip': ['x-gzip', gzipSync(page)],
    '/deflate': ['deflate', deflateSync(page)],
    '/raw-deflate': ['deflate', deflateRawSync(page)],
    '/br': ['br', brotliCompressSync(page)],
    '/both': ['deflate, gzip', gzipSync(deflateSync(page))],
    '/identity': ['identity', Buffer.from(page)],
    '/truncated': ['gzip', gzipSync(page).subarray(0, 60)],
    '/corrupt': ['gzip', Buffer.from('this is not gzip at all')],
    '/zstd': ['zstd', Buffer.from(page)],
  };

  it.each(['/gzip', '/x-gzip', '/deflate', '/br', '/both', '/identity'])(
    '%s is decoded; bytes counts the decoded body',
    async (path) => {
      const server = await startServer((request, response) => {
        const [coding, body] = bodies[request.url ?? ''] ?? ['identity', Buffer.alloc(0)];
        response.writeHead(200, { ...html, 'content-encoding': coding });
        response.end(body);
      });
      const result = await fetcher().fetch(server.origin + path);
      expect(result).toMatchObject({ errorCode: undefined, body: page, bytes: Buffer.byteLength(page) });
      expect(server.requests[0]?.['accept-encoding']).toBe('gzip, deflate, br');
    },
  );

  it('DEVIATION(RFC 9110 §8.4.1.2) "deflate" without its zlib wrapper (raw deflate) is decoded too', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { ...html, 'content-encoding': 'deflate' });
      response.end(bodies['/raw-deflate']?.[1]);
    });
    expect(await fetcher().fetch(server.origin)).toMatchObject({ errorCode: undefined, body: page });
  });

  it('DEVIATION(RFC 9110 §8.4) a gzip stream cut short yields what decodes, as browsers do', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { ...html, 'content-encoding': 'gzip' });
      response.end(bodies['/truncated']?.[1]);
    });
    const result = await fetcher().fetch(server.origin);
    expect(result.errorCode).toBeUndefined();
    expect(page.startsWith(result.body ?? 'not a prefix')).toBe(true);
  });

  it.each(['/corrupt', '/zstd'])('%s: ERR_FETCH_CONTENT_ENCODING, no body', async (path) => {
    const server = await startServer((request, response) => {
      const [coding, body] = bodies[request.url ?? ''] ?? ['identity', Buffer.alloc(0)];
      response.writeHead(200, { ...html, 'content-encoding': coding });
      response.end(body);
    });
    const result = await fetcher().fetch(server.origin + path);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_CONTENT_ENCODING', status: 200, body: undefined });
  });
});

describe('network failures', () => {
  it('connection refused: ERR_FETCH_CONNECTION_REFUSED', async () => {
    const port = await closedPort();
    const result = await fetcher().fetch(`http://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_CONNECTION_REFUSED', status: undefined, headers: {}, hops: [] });
  });

  it('a DNS failure: ERR_FETCH_DNS', async () => {
    const noSuchHost: LookupFunction = (host, _options, callback) => {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      callback(error, '', 4);
    };
    const result = await fetcher({ lookup: noSuchHost }).fetch('http://no-such-host.test/');
    expect(result.errorCode).toBe('ERR_FETCH_DNS');
  });

  it('a resolver that did not answer (EAI_AGAIN): ERR_FETCH_DNS_TEMPORARY, not a name that does not exist', async () => {
    const noAnswer: LookupFunction = (host, _options, callback) => {
      const error = Object.assign(new Error(`getaddrinfo EAI_AGAIN ${host}`), { code: 'EAI_AGAIN' });
      callback(error, '', 4);
    };
    const result = await fetcher({ lookup: noAnswer }).fetch('http://flaky-resolver.test/');
    expect(result.errorCode).toBe('ERR_FETCH_DNS_TEMPORARY');
  });

  it('a response that is not HTTP: ERR_FETCH_PROTOCOL', async () => {
    const raw = await startRawServer((socket) => socket.once('data', () => socket.end('SMTP ready\r\n\r\n')));
    expect((await fetcher().fetch(`http://127.0.0.1:${raw.port}/`)).errorCode).toBe('ERR_FETCH_PROTOCOL');
  });

  it('https to a server that speaks plain HTTP: ERR_FETCH_TLS', async () => {
    const server = await startServer((_request, response) => response.end());
    expect((await fetcher().fetch(`https://127.0.0.1:${server.port}/`)).errorCode).toBe('ERR_FETCH_TLS');
  });

  it("the caller's signal aborts: ERR_FETCH_ABORTED", async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      response.write('<p>');
    });
    const controller = new AbortController();
    const pending = fetcher().fetch(server.origin, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).errorCode).toBe('ERR_FETCH_ABORTED');
    expect((await fetcher().fetch(server.origin, AbortSignal.abort())).errorCode).toBe('ERR_FETCH_ABORTED');
  });

  it('never throws, even after close', async () => {
    const f = createFetcher();
    await f.close();
    const result = await f.fetch('http://127.0.0.1:9/');
    expect(result.errorCode).toBe('ERR_FETCH_NETWORK');
  });
});
