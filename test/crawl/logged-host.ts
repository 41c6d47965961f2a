// Loopback servers that log what they are asked (`METHOD path`), for the tests of
// external links across runs: the site is 127.0.0.1, 127.0.0.x play other sites.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = readonly [status: number, headers?: Record<string, string>];

export interface Host {
  readonly origin: string;
  readonly log: string[];
}

const servers: Server[] = [];

/** Close every server started (an afterEach hook). */
export async function closeHosts(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
}

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** A server on `address`, a port the OS picks; a route is a status and headers, or a function of the request count. */
export async function host(address: string, routes: (origin: string) => Record<string, Route | ((n: number) => Route) | string>): Promise<Host> {
  const log: string[] = [];
  let table: ReturnType<typeof routes> = {};
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    log.push(`${request.method} ${path}`);
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const route = table[path];
    if (typeof route === 'string') {
      response.writeHead(200, HTML);
      response.end(request.method === 'HEAD' ? undefined : route);
      return;
    }
    const [status, headers] = typeof route === 'function' ? route(n) : (route ?? [404]);
    response.writeHead(status, { ...HTML, ...headers });
    response.end();
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  const origin = `http://${address}:${(server.address() as AddressInfo).port}`;
  table = routes(origin);
  return { origin, log };
}

/** A site whose home page links to `paths` of the external host. */
export async function siteLinkingTo(external: Host, paths: readonly string[]): Promise<Host> {
  return host('127.0.0.1', () => ({ '/': paths.map((p) => `<a href="${external.origin}${p}">x</a>`).join('') }));
}

