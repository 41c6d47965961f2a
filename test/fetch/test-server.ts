// Loopback HTTP servers for the fetch tests: 127.0.0.1, a port the OS picks, closed after each test.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createFetcher, type FetcherOptions, type HttpFetcher } from '../../src/fetch/index.js';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** `METHOD path` of every request, in order. */
  readonly log: string[];
  /** The request headers of every request, in order. */
  readonly requests: IncomingMessage['headers'][];
  close(): Promise<void>;
}

const open: Array<() => Promise<void>> = [];

/** Close every server and fetcher opened by the test (call from `afterEach`). */
export async function closeAll(): Promise<void> {
  const closers = open.splice(0);
  await Promise.all(closers.map((close) => close()));
}

/** Run `close` after the test. */
export function onCleanup(close: () => Promise<void>): void {
  open.push(close);
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const log: string[] = [];
  const requests: IncomingMessage['headers'][] = [];
  const server: Server = createServer((request, response) => {
    log.push(`${request.method ?? '?'} ${request.url ?? '?'}`);
    requests.push(request.headers);
    handler(request, response);
  });
  await listen(server);
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  open.push(close);
  return { origin: `http://127.0.0.1:${port}`, port, log, requests, close };
}

/** A raw TCP server: `onSocket` sees each connection (for answers no HTTP server would send). */
export async function startRawServer(onSocket: (socket: Socket) => void): Promise<{ readonly port: number }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await listen(server);
  const { port } = server.address() as AddressInfo;
  open.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { port };
}

/** A port that was open a moment ago and is closed now: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function listen(server: { listen(port: number, host: string, callback: () => void): unknown; once(event: 'error', listener: (error: Error) => void): unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

/** A fetcher closed when the test's servers are. */
export function testFetcher(options?: FetcherOptions): HttpFetcher {
  const created = createFetcher(options);
  onCleanup(() => created.close());
  return created;
}

/** Answer each path from a table: `[status, headers, body]`; 404 for the rest. */
export function routes(table: Record<string, readonly [number, Record<string, string>, string?]>): Handler {
  return (request, response) => {
    const route = table[request.url ?? ''] ?? [404, { 'content-type': 'text/html' }, 'not found'];
    response.writeHead(route[0], route[1]);
    response.end(route[2] ?? '');
  };
}
