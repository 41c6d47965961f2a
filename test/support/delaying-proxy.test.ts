// The delaying proxy the PostgreSQL bench and round-trip test put between a worker and
// the server: each chunk is delivered the delay later, in order, both ways; a close
// reaches the other side; the client's round trips are counted.

import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDelayingProxy, type DelayingProxy } from './delaying-proxy.js';

let server: Server | undefined;
let proxy: DelayingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = proxy = undefined;
});

/** An echo server on 127.0.0.1 that closes its side when the client does. */
async function echo(): Promise<number> {
  server = createServer((socket) => {
    socket.on('data', (chunk) => socket.write(chunk));
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function open(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Resolves with the time (ms) until the client has received `bytes`, and what it received. */
function receive(socket: Socket, bytes: number): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  let text = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (text.length >= bytes) {
        socket.off('data', onData);
        resolve({ ms: performance.now() - started, text });
      }
    };
    socket.on('data', onData);
  });
}

describe('delaying proxy', () => {
  it('adds twice the one-way delay to a round trip', async () => {
    proxy = await startDelayingProxy({ targetPort: await echo(), oneWayMs: 40 });
    const socket = await open(proxy.port);
    const answer = receive(socket, 4);
    socket.write('ping');
    const { ms, text } = await answer;
    expect(text).toBe('ping');
    expect(ms).toBeGreaterThanOrEqual(79);
    expect(ms).toBeLessThan(1000);
    socket.destroy();
  });

  it('keeps the order of chunks, and counts chunks sent before an answer as one round trip', async () => {
    proxy = await startDelayingProxy({ targetPort: await echo(), oneWayMs: 5 });
    const socket = await open(proxy.port);
    const chunks = Array.from({ length: 50 }, (_, i) => `<${i}>`);
    const answer = receive(socket, chunks.join('').length);
    for (const chunk of chunks) socket.write(chunk);
    expect((await answer).text).toBe(chunks.join(''));
    expect(proxy.turns).toBeGreaterThanOrEqual(1);
    const before = proxy.turns;
    const second = receive(socket, 2);
    socket.write('ok');
    await second;
    expect(proxy.turns).toBe(before + 1);
    socket.destroy();
  });

  it('passes a close on after what was in transit, both ways', async () => {
    proxy = await startDelayingProxy({ targetPort: await echo(), oneWayMs: 20 });
    const socket = await open(proxy.port);
    const received = receive(socket, 4);
    const closed = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    socket.end('last');
    expect((await received).text).toBe('last');
    await closed;
    expect(proxy.connections).toBe(1);
  });

  it('closes the client when the server is not there', async () => {
    const port = await echo();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    proxy = await startDelayingProxy({ targetPort: port });
    const socket = connect({ host: '127.0.0.1', port: proxy.port });
    await new Promise<void>((resolve) => socket.once('close', () => resolve()).on('error', () => {}));
  });
});
