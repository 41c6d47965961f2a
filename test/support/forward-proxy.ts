// A forward proxy for tests, on 127.0.0.1: plain http in absolute form (RFC 9112
// §3.2.2) forwarded with node:http, CONNECT (RFC 9110 §9.3.6) tunnelled with node:net.
// It records what it saw, and can be told to refuse: a status for every request.

import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxySeen {
  readonly method: string;
  /** The request target as sent: `http://host:port/path` (absolute form) or `host:port` (CONNECT). */
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly seen: ProxySeen[];
  /** Answer every request (and CONNECT) with this status instead of forwarding it. */
  refuseWith: number | undefined;
  /** When set, a request without `Proxy-Authorization: <this>` gets 407. */
  requireAuthorization: string | undefined;
  /** Close a CONNECT's connection without an answer. */
  isHangingUp: boolean;
  close(): Promise<void>;
}

/** `tls`: an https proxy (its clients connect to it with TLS) with this key and certificate. */
export async function startForwardProxy(tls?: { readonly key: string; readonly cert: string }): Promise<ForwardProxy> {
  const sockets = new Set<Socket>();
  const seen: ProxySeen[] = [];
  const proxy: ForwardProxy = {
    url: '',
    port: 0,
    seen,
    refuseWith: undefined,
    requireAuthorization: undefined,
    isHangingUp: false,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const refusal = (headers: IncomingHttpHeaders): number | undefined => {
    if (proxy.refuseWith !== undefined) return proxy.refuseWith;
    if (proxy.requireAuthorization !== undefined && headers['proxy-authorization'] !== proxy.requireAuthorization) return 407;
    return undefined;
  };
  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    seen.push({ method: request.method ?? '?', target: request.url ?? '', headers: request.headers });
    const refused = refusal(request.headers);
    if (refused !== undefined) {
      response.writeHead(refused, { 'content-type': 'text/plain', 'proxy-authenticate': 'Basic realm="test"' }).end('refused by the proxy');
      return;
    }
    const target = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  };
  const server: Server = tls === undefined ? createServer(onRequest) : createHttpsServer(tls, onRequest);
  server.on('connect', (request, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    seen.push({ method: 'CONNECT', target: request.url ?? '', headers: request.headers });
    if (proxy.isHangingUp) return void client.destroy();
    const refused = refusal(request.headers);
    if (refused !== undefined) {
      client.end(`HTTP/1.1 ${refused} Refused\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, { url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`, port });
}
