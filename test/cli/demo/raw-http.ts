// Test helpers: one HTTP/1.1 exchange with the demo server, the request target
// sent exactly as given (node:http, no agent, no decompression), or raw bytes
// over a socket for what node:http refuses to send.

import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as received (still gzip-compressed when the server compressed it). */
  readonly body: Buffer;
}

/** `method target` to `origin`, one connection, closed after the response. */
export function rawRequest(origin: string, target: string, method = 'GET'): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: target, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Write `bytes` on a fresh socket and return everything the server sends until it closes. */
export function rawExchange(origin: string, bytes: Uint8Array | string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}
