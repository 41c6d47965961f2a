// Slow hosts. One deadline for the whole request (connect,
// every redirect hop, the body: `requestTimeoutMs`), and a minimum transfer rate
// (`minBytesPerSecond`, measured over each `rateWindowMs` of the body), so a server
// that sends a byte every few seconds is cut after one window.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FETCHER_DEFAULTS, validateFetcherOptions } from '../../src/fetch/index.js';
import { closeAll, startServer, testFetcher as fetcher } from './test-server.js';

afterEach(closeAll);

const html = { 'content-type': 'text/html; charset=utf-8' };

/** Write `chunk` every `everyMs` until the connection closes; ends after `count` writes when given. */
function drip(response: ServerResponse, chunk: string, everyMs: number, count = Infinity): void {
  let n = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    response.write(chunk);
    if (++n >= count) {
      clearInterval(timer);
      response.end();
    }
  }, everyMs);
  response.once('close', () => clearInterval(timer));
}

describe('minBytesPerSecond: a body that trickles', () => {
  it('is cut after one rate window below the minimum: ERR_FETCH_TOO_SLOW, what came is kept', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      response.write('<p>');
      drip(response, 'x', 50); // 20 bytes a second
    });
    const started = Date.now();
    const result = await fetcher({ minBytesPerSecond: 1000, rateWindowMs: 300, bodyTimeoutMs: 10_000 }).fetch(server.origin);
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_TOO_SLOW', status: 200 });
    expect(result.body).toMatch(/^<p>x*$/);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it('a body that keeps above the minimum is read whole, however long it takes', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      drip(response, 'y'.repeat(1024), 50, 16); // 20 KiB a second for 0.8 s
    });
    const result = await fetcher({ minBytesPerSecond: 1000, rateWindowMs: 300 }).fetch(server.origin);
    expect(result).toMatchObject({ errorCode: undefined, status: 200, bytes: 16 * 1024 });
  });

  it('minBytesPerSecond 0 checks no rate: the body deadline cuts the trickle', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, html);
      drip(response, 'x', 50);
    });
    const result = await fetcher({ minBytesPerSecond: 0, rateWindowMs: 100, bodyTimeoutMs: 400 }).fetch(server.origin);
    expect(result.errorCode).toBe('ERR_FETCH_BODY_TIMEOUT');
  });
});

describe('requestTimeoutMs: one deadline for the whole request', () => {
  it('covers every redirect hop and the body: ERR_FETCH_REQUEST_TIMEOUT, though each phase kept within its own timeout', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/a') setTimeout(() => response.writeHead(302, { location: '/b' }).end(), 200);
      else if (request.url === '/b') setTimeout(() => response.writeHead(302, { location: '/c' }).end(), 200);
      else {
        response.writeHead(200, html);
        drip(response, 'z'.repeat(1024), 20); // fast enough for any rate
      }
    });
    const started = Date.now();
    const result = await fetcher({ requestTimeoutMs: 700, bodyTimeoutMs: 10_000, headersTimeoutMs: 10_000 }).fetch(`${server.origin}/a`);
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_REQUEST_TIMEOUT', status: 200, finalUrl: `${server.origin}/c` });
    expect(result.hops).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(690);
    expect(elapsed).toBeLessThan(2000);
  });

  it('cuts a hop still waiting for its headers: no status', async () => {
    const server = await startServer((request, response) => {
      if (request.url === '/a') response.writeHead(302, { location: '/never' }).end();
      // /never: no answer at all.
    });
    const result = await fetcher({ requestTimeoutMs: 400, headersTimeoutMs: 10_000 }).fetch(`${server.origin}/a`);
    expect(result).toMatchObject({ errorCode: 'ERR_FETCH_REQUEST_TIMEOUT', status: undefined, finalUrl: `${server.origin}/never` });
  });

  it('defaults: 60 s for a request, 1 KiB/s over 10 s windows', () => {
    expect(FETCHER_DEFAULTS).toMatchObject({ requestTimeoutMs: 60_000, minBytesPerSecond: 1024, rateWindowMs: 10_000 });
    expect(() => validateFetcherOptions({ requestTimeoutMs: 0 })).toThrow('Expected `requestTimeoutMs` to be an integer between 1 and 2147483647, got `0` (number)');
    expect(() => validateFetcherOptions({ minBytesPerSecond: -1 })).toThrow('Expected `minBytesPerSecond` to be an integer >= 0, got `-1` (number)');
  });
});
