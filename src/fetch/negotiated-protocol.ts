// The protocol each request went out on, learnt per request, not per origin: with
// keep-alive and several connections to one origin, what one connection negotiated
// says nothing of the next request, which may go out on another (or a new) one.
//
// undici tells a dispatch handler nothing of the connection it was given. It does
// publish, on the diagnostics channel `undici:client:sendHeaders`, each request with
// the socket it is written to — synchronously, in the same call that first hands the
// request to its handler (`onRequestStart`, undici's writeH1 and writeH2). So the
// handler registers itself in `onRequestStart`, and the message that follows, before
// any other code runs, names its socket: an `h2` one if ALPN chose HTTP/2 (RFC 9113
// §3.2, RFC 7301), otherwise HTTP/1.1 (TLS without ALPN, or plain TCP). The method and
// path are compared too, so that a message of another undici in the process (Node's
// own fetch publishes on the same channel) is never taken for ours.

import { subscribe } from 'node:diagnostics_channel';
import type { HttpProtocol } from './types.js';

/** A request waiting to hear which connection it was written to. */
export interface ProtocolListener {
  readonly method: string;
  readonly path: string;
  onProtocol(protocol: HttpProtocol): void;
  /** Only for a request whose exchange is kept: the header block as written and the peer's address. */
  readonly onSent?: ((headers: string, remoteAddress: string | undefined) => void) | undefined;
}

interface SendHeadersMessage {
  readonly request?: { readonly method?: unknown; readonly path?: unknown };
  readonly headers?: unknown;
  readonly socket?: { readonly alpnProtocol?: unknown; readonly remoteAddress?: unknown };
}

let waiting: ProtocolListener | undefined;
let isSubscribed = false;

function onSendHeaders(message: unknown): void {
  const listener = waiting;
  waiting = undefined;
  if (listener === undefined) return;
  const { request, socket } = message as SendHeadersMessage;
  if (request?.method !== listener.method || !isSamePath(request.path, listener.path)) return;
  listener.onProtocol(socket?.alpnProtocol === 'h2' ? 'h2' : 'http/1.1');
  if (listener.onSent !== undefined) {
    const { headers } = message as SendHeadersMessage;
    const address = socket?.remoteAddress;
    listener.onSent(typeof headers === 'string' ? headers : '', typeof address === 'string' ? address : undefined);
  }
}

/** The path as sent, or in absolute form (RFC 9112 §3.2.2: to a forward proxy, a plain-http request names the whole URL). */
function isSamePath(sent: unknown, path: string): boolean {
  if (sent === path) return true;
  if (typeof sent !== 'string' || !/^https?:\/\//i.test(sent)) return false;
  const pathStart = sent.indexOf('/', sent.indexOf('//') + 2);
  return pathStart !== -1 && sent.slice(pathStart) === path;
}

/**
 * Called from the handler's `onRequestStart`: the next `sendHeaders` message, sent
 * before control returns to any other code, is this request's.
 */
export function listenForProtocol(listener: ProtocolListener): void {
  if (!isSubscribed) {
    subscribe('undici:client:sendHeaders', onSendHeaders);
    isSubscribed = true;
  }
  waiting = listener;
}
