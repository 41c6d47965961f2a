// The dispatch handler behind every request: head, body, caps, aborts, as a server
// on 127.0.0.1 makes them happen.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseSink } from '../../src/fetch/response-sink.js';
import { UndiciAgent } from '../../src/fetch/undici-parts.js';

let server: Server;
let origin: string;
const agent = new UndiciAgent({});

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/hello') return void response.end('hello, world');
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const more = (): void => {
        while (sent < 64 && response.write(chunk)) sent++;
        if (sent < 64) response.once('drain', more);
        else response.end();
      };
      return void more();
    }
    if (request.url === '/cut') {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only this');
      return void setTimeout(() => request.socket.destroy(), 20);
    }
    if (request.url === '/stall') {
      response.writeHead(200);
      return void response.write('a');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function get(path: string, maxBytes: number, signal = new AbortController().signal): ResponseSink {
  const sink = new ResponseSink(signal, maxBytes);
  agent.dispatch({ origin, path, method: 'GET' }, sink);
  return sink;
}

describe('ResponseSink', () => {
  it('gives the status and header fields, then the whole body', async () => {
    const sink = get('/hello', 1024);
    const head = await sink.head;
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('12');
    const body = await sink.read();
    expect(Buffer.concat(body.chunks).toString()).toBe('hello, world');
    expect(body).toMatchObject({ wireBytes: 12, isCapped: false, error: undefined });
  });

  it('stops at its cap and closes the connection, keeping what came up to it', async () => {
    const sink = get('/big', 100_000);
    await sink.head;
    const body = await sink.read();
    expect(body.isCapped).toBe(true);
    expect(body.wireBytes).toBe(100_000);
    expect(Buffer.concat(body.chunks).length).toBe(100_000);
  });

  it('streams chunks to a reader that may stop early', async () => {
    const sink = get('/big', 8 * 1024 * 1024);
    await sink.head;
    let seen = 0;
    for await (const chunk of sink.stream()) {
      seen += chunk.length;
      if (seen >= 128 * 1024) break;
    }
    expect(seen).toBeGreaterThanOrEqual(128 * 1024);
    expect(seen).toBeLessThan(4 * 1024 * 1024);
  });

  it('says the exchange failed when the server closes before Content-Length', async () => {
    const sink = get('/cut', 1024);
    await sink.head;
    const body = await sink.read();
    expect(Buffer.concat(body.chunks).toString()).toBe('only this');
    expect(body.error).toBeInstanceOf(Error);
  });

  it('aborts a stalled body when its signal aborts', async () => {
    const controller = new AbortController();
    const sink = get('/stall', 1024, controller.signal);
    await sink.head;
    setTimeout(() => controller.abort(new Error('deadline')), 20);
    const body = await sink.read();
    expect(body.error).toBeInstanceOf(Error);
    expect(body.wireBytes).toBe(1);
  });

  it('rejects its head when the connection cannot be made', async () => {
    const sink = new ResponseSink(new AbortController().signal, 1024);
    agent.dispatch({ origin: 'http://127.0.0.1:1', path: '/', method: 'GET' }, sink);
    await expect(sink.head).rejects.toThrow();
  });
});
