import { channel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { listenForProtocol } from '../../src/fetch/negotiated-protocol.js';
import type { HttpProtocol } from '../../src/fetch/index.js';

const sendHeaders = channel('undici:client:sendHeaders');

function listen(method: string, path: string): { heard: HttpProtocol[] } {
  const heard: HttpProtocol[] = [];
  listenForProtocol({ method, path, onProtocol: (protocol) => heard.push(protocol) });
  return { heard };
}

describe('the protocol a request was written to, from undici:client:sendHeaders', () => {
  it('is h2 on a socket whose ALPN chose h2, http/1.1 on any other (TLS without ALPN, plain TCP)', () => {
    for (const [alpnProtocol, expected] of [['h2', 'h2'], ['http/1.1', 'http/1.1'], [false, 'http/1.1'], [undefined, 'http/1.1']] as const) {
      const listener = listen('GET', '/page');
      sendHeaders.publish({ request: { method: 'GET', path: '/page' }, headers: '', socket: { alpnProtocol } });
      expect(listener.heard, String(alpnProtocol)).toEqual([expected]);
    }
  });

  it('takes the message that follows only: another request’s (another method or path) is not taken, and the listener is dropped', () => {
    const listener = listen('GET', '/page');
    sendHeaders.publish({ request: { method: 'HEAD', path: '/page' }, headers: '', socket: { alpnProtocol: 'h2' } });
    sendHeaders.publish({ request: { method: 'GET', path: '/page' }, headers: '', socket: { alpnProtocol: 'h2' } });
    expect(listener.heard).toEqual([]);
    const other = listen('GET', '/a');
    sendHeaders.publish({ request: { method: 'GET', path: '/b' }, headers: '', socket: { alpnProtocol: 'h2' } });
    expect(other.heard).toEqual([]);
  });

  it('matches a path sent in absolute form (to a forward proxy), not a longer one that ends alike', () => {
    const proxied = listen('GET', '/docs/');
    sendHeaders.publish({ request: { method: 'GET', path: 'http://site.test:8080/docs/' }, headers: '', socket: {} });
    expect(proxied.heard).toEqual(['http/1.1']);
    const longer = listen('GET', '/docs/');
    sendHeaders.publish({ request: { method: 'GET', path: 'http://site.test/x/docs/' }, headers: '', socket: {} });
    expect(longer.heard).toEqual([]);
  });
});
