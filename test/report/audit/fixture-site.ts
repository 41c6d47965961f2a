// The audit's fixture sites (test/fixtures/audit/*.json), each crafted for one or a
// few finding codes, served over HTTP on 127.0.0.1 at a port the OS picks, crawled
// with the CLI into a database and audited.

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { keyOf } from '../../crawl/fake-site.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/audit/', import.meta.url));

export interface FixtureResource {
  /** @default 200 */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as `text/html; charset=utf-8` unless `headers` gives a Content-Type. */
  readonly body?: string;
  /** Bytes sent as they are (base64), in place of `body`. */
  readonly bodyBase64?: string;
  /** A gzip of `body` (if any) then this many zero bytes (a compression bomb for a cap to stop; a big text cheaply). */
  readonly gzipOfZeros?: number;
}

export interface Fixture {
  readonly name: string;
  readonly about: string;
  /** The base modes to crawl it in; the audit must give `expect` in each. @default ['rfc3986'] */
  readonly baseModes: readonly ('rfc3986' | 'browser')[];
  /** Exactly the codes its audit gives (each at least once). */
  readonly expect: readonly string[];
  /** Flags (or seeds) added to its `linkladder crawl` (a cap the finding needs), `{{origin}}` filled in. @default [] */
  readonly args: readonly string[];
  /** Path (and query) → resource; `{{origin}}` and `{{host}}` in bodies and header values are filled in. */
  readonly resources: Readonly<Record<string, FixtureResource>>;
}

export function loadFixtures(): Fixture[] {
  return readdirSync(FIXTURE_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(path.join(FIXTURE_DIR, file), 'utf8')) as Omit<Fixture, 'name' | 'baseModes'> & {
        baseModes?: Fixture['baseModes'];
        args?: Fixture['args'];
      };
      return { ...data, name: file.replace(/\.json$/, ''), baseModes: data.baseModes ?? ['rfc3986'], args: data.args ?? [] };
    });
}

export interface FixtureServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every request target, as received. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** Serve `fixture` on 127.0.0.1; a request is matched by its URL's key (RFC 3986 §6.2.3), so `/%7Eu/` finds `/~u/`. */
export async function serveFixture(fixture: Fixture): Promise<FixtureServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let origin = '';
  let routes = new Map<string, FixtureResource>();
  const fill = (text: string): string => text.replaceAll('{{origin}}', origin).replaceAll('{{host}}', origin.slice('http://'.length));
  const server: Server = createServer((request, response) => {
    const target = request.url ?? '/';
    requests.push(target);
    let resource: FixtureResource | undefined;
    try {
      resource = routes.get(keyOf(origin + target));
    } catch {
      resource = undefined;
    }
    if (resource === undefined) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>404</title><p>not found</p>');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(resource.headers ?? {})) headers[name.toLowerCase()] = fill(value);
    if (resource.body !== undefined) headers['content-type'] ??= 'text/html; charset=utf-8';
    response.writeHead(resource.status ?? 200, headers);
    if (resource.bodyBase64 !== undefined) response.end(Buffer.from(resource.bodyBase64, 'base64'));
    else if (resource.gzipOfZeros !== undefined) {
      response.end(gzipSync(Buffer.concat([Buffer.from(fill(resource.body ?? '')), Buffer.alloc(resource.gzipOfZeros)])));
    }
    else response.end(resource.body === undefined ? undefined : fill(resource.body));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = new Map(Object.entries(fixture.resources).map(([target, resource]) => [keyOf(origin + target), resource]));
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
