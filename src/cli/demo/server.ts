// The demo site's HTTP server: node:http on 127.0.0.1, a port the OS picks, every
// request logged as received. It serves site.ts and nothing else: no proxying,
// no file system.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { routeKey } from './request-target.js';
import { HTML_UTF8, createDemoSite, type DemoResource, type DemoSite } from './site.js';

export interface DemoServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** The site being served, its pages written for `origin`. */
  readonly site: DemoSite;
  /**
   * Every request, in arrival order, as `"METHOD target"` with the target exactly
   * as received (`GET /%7euser/`, `HEAD /docs`). A request the HTTP parser
   * rejects is logged as `"INVALID <parser error code>"`.
   */
  readonly requests: readonly string[];
  /** Stop listening and close every connection, idle or not. Calling it again returns the same promise. */
  close(): Promise<void>;
}

/** A response ready to send: headers complete, body encoded once at start. */
interface PreparedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

const NOT_FOUND = prepare({
  path: '',
  trap: '',
  status: 404,
  headers: { 'content-type': HTML_UTF8 },
  body: '<!doctype html>\n<html><head><title>404</title></head>\n<body><h1>404 Not Found</h1></body></html>\n',
});

const METHOD_NOT_ALLOWED = prepare({
  path: '',
  trap: '',
  status: 405,
  headers: { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' },
  body: 'GET or HEAD only\n',
});

function prepare(resource: DemoResource): PreparedResponse {
  const given = resource.body;
  let body: Uint8Array = typeof given === 'string' ? Buffer.from(given, 'utf8') : given;
  if (resource.headers['content-encoding'] === 'gzip') body = gzipSync(body);
  return {
    status: resource.status,
    headers: { ...resource.headers, 'content-length': String(body.byteLength) },
    body,
  };
}

/** Start the demo server on 127.0.0.1 at a port the OS picks. */
export async function startDemoServer(): Promise<DemoServer> {
  const requests: string[] = [];
  const routes = new Map<string, PreparedResponse>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '';
    const method = request.method ?? '';
    requests.push(`${method} ${target}`);
    let prepared: PreparedResponse;
    if (method !== 'GET' && method !== 'HEAD') {
      prepared = METHOD_NOT_ALLOWED;
    } else {
      const key = routeKey(target);
      prepared = (key === undefined ? undefined : routes.get(key)) ?? NOT_FOUND;
    }
    response.writeHead(prepared.status, prepared.headers);
    response.end(method === 'HEAD' ? undefined : prepared.body);
  });

  // A request the parser rejects never reaches the handler above: log it, answer 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    requests.push(`INVALID ${error.code ?? 'unknown'}`);
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const site = createDemoSite(origin);
  for (const [path, resource] of site.resources) routes.set(path, prepare(resource));

  let closing: Promise<void> | undefined;
  return {
    origin,
    site,
    requests,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
