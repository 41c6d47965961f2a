// The connection guard: with `refusePrivate`, a host whose
// address — literal, or resolved by DNS — is loopback or private is not connected
// to, for the URL and for every redirect hop. Names resolve through a lookup the
// test injects (a hosts table); no real DNS.

import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRobotsPolicy, guardedLookup, privateIpOf, robotsVerdict } from '../../src/fetch/index.js';
import { closeAll, onCleanup, startServer, testFetcher } from './test-server.js';

afterEach(closeAll);

/** A hosts table as a `dns.lookup`; each call answers the next entry of a list (the last one repeats). */
function hosts(table: Readonly<Record<string, string | readonly string[]>>, calls: string[] = []): LookupFunction {
  const seen = new Map<string, number>();
  return (host, options, callback) => {
    calls.push(host);
    const entry = table[host];
    if (entry === undefined) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    const answers = typeof entry === 'string' ? [entry] : entry;
    const n = seen.get(host) ?? 0;
    seen.set(host, n + 1);
    const address = answers[Math.min(n, answers.length - 1)]!;
    const family = address.includes(':') ? 6 : 4;
    if (options.all === true) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const page = { 'content-type': 'text/html' };

describe('refusePrivate: a host name that resolves to a private address', () => {
  it('is refused with ERR_FETCH_PRIVATE_ADDRESS, nothing sent; allowed without refusePrivate', async () => {
    const server = await startServer((_request, response) => response.writeHead(200, page).end('<p>hi'));
    const lookup = hosts({ 'site.test': '127.0.0.1' });
    const url = `http://site.test:${server.port}/`;

    const refused = await testFetcher({ lookup, refusePrivate: true }).fetch(url);
    expect(refused).toMatchObject({ errorCode: 'ERR_FETCH_PRIVATE_ADDRESS', status: undefined, body: undefined, hops: [] });
    expect(server.log).toEqual([]);

    const allowed = await testFetcher({ lookup, refusePrivate: false }).fetch(url);
    expect(allowed).toMatchObject({ errorCode: undefined, status: 200, body: '<p>hi' });
    expect(server.log).toEqual(['GET /']);
  });

  it('a literal private address is refused too (no lookup is made for it)', async () => {
    const server = await startServer((_request, response) => response.writeHead(200, page).end('x'));
    const calls: string[] = [];
    const result = await testFetcher({ lookup: hosts({}, calls), refusePrivate: true }).fetch(`${server.origin}/`);
    expect(result.errorCode).toBe('ERR_FETCH_PRIVATE_ADDRESS');
    expect(calls).toEqual([]);
    expect(server.log).toEqual([]);
  });

  it('a redirect hop to such a name is refused: the hop is recorded, its target not requested', async () => {
    let port = 0;
    const server = await startServer((request, response) => {
      if (request.url === '/start') response.writeHead(302, { location: `http://internal.test:${port}/secret` }).end();
      else response.writeHead(200, page).end('secret');
    });
    port = server.port;
    // public.test stands for a public host: trusted, so the guard lets the first hop through.
    const lookup = hosts({ 'public.test': '127.0.0.1', 'internal.test': '127.0.0.1' });
    const options = { lookup, refusePrivate: true, trustedHosts: ['Public.Test'] };

    const refused = await testFetcher(options).fetch(`http://public.test:${port}/start`);
    expect(refused).toMatchObject({ errorCode: 'ERR_FETCH_PRIVATE_ADDRESS', status: undefined, finalUrl: `http://internal.test:${port}/secret` });
    expect(refused.hops).toEqual([{ from: `http://public.test:${port}/start`, to: `http://internal.test:${port}/secret`, status: 302 }]);
    expect(server.log).toEqual(['GET /start']);

    const allowed = await testFetcher({ ...options, refusePrivate: false }).fetch(`http://public.test:${port}/start`);
    expect(allowed).toMatchObject({ errorCode: undefined, status: 200, body: 'secret' });
  });

  it('robots.txt of such a host is not requested and counts as unavailable (the URLs are refused by the fetcher)', async () => {
    const server = await startServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /'));
    const robots = createRobotsPolicy({ lookup: hosts({ 'site.test': '127.0.0.1' }), refusePrivate: true });
    onCleanup(() => robots.close());
    expect(await robots.isAllowed(`http://site.test:${server.port}/page`)).toBe(true);
    expect(robots.robotsFile(`http://site.test:${server.port}/page`)).toMatchObject({ verdict: 'unavailable', errorCode: 'ERR_FETCH_PRIVATE_ADDRESS' });
    expect(robotsVerdict({ status: undefined, errorCode: 'ERR_FETCH_PRIVATE_ADDRESS' })).toBe('unavailable');
    expect(server.log).toEqual([]);
  });
});

describe('guardedLookup: the addresses of each new connection', () => {
  const ask = (lookup: LookupFunction, host: string, all: boolean): Promise<{ error: Error | null; answer: unknown }> =>
    new Promise((resolve) => {
      lookup(host, { all }, (error: Error | null, address: unknown) => resolve({ error, answer: address }));
    });

  it('DNS rebinding: a public answer passes, the private answer of a later connection is refused', async () => {
    const lookup = guardedLookup({ lookup: hosts({ 'rebind.test': ['203.0.113.7', '127.0.0.1'] }), trustedHosts: new Set() });
    expect(await ask(lookup, 'rebind.test', false)).toEqual({ error: null, answer: '203.0.113.7' });
    const second = await ask(lookup, 'rebind.test', false);
    expect(second.error).toMatchObject({ code: 'ERR_FETCH_PRIVATE_ADDRESS', message: 'rebind.test resolves to 127.0.0.1, a loopback address: not connected to' });
  });

  it('with all: true, keeps the public addresses of a mixed answer; none left is a refusal', async () => {
    const mixed: LookupFunction = (_host, _options, callback) =>
      (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [
        { address: '10.0.0.8', family: 4 },
        { address: '198.51.100.1', family: 4 },
        { address: 'fe80::1%eth0', family: 6 },
      ]);
    const lookup = guardedLookup({ lookup: mixed, trustedHosts: new Set() });
    expect(await ask(lookup, 'mixed.test', true)).toEqual({ error: null, answer: [{ address: '198.51.100.1', family: 4 }] });
    const onlyPrivate = guardedLookup({ lookup: hosts({ 'p.test': '::ffff:192.168.1.1' }), trustedHosts: new Set() });
    expect((await ask(onlyPrivate, 'p.test', true)).error).toMatchObject({ code: 'ERR_FETCH_PRIVATE_ADDRESS' });
  });

  it('privateIpOf judges resolver answers: IPv4, IPv6, mapped, scoped', () => {
    expect(privateIpOf('127.0.0.1')).toEqual({ kind: 'loopback', address: '127.0.0.1' });
    expect(privateIpOf('169.254.169.254')?.kind).toBe('link-local');
    expect(privateIpOf('::1')?.kind).toBe('loopback');
    expect(privateIpOf('::ffff:10.1.2.3')?.kind).toBe('private');
    expect(privateIpOf('fe80::1%eth0')?.kind).toBe('link-local');
    expect(privateIpOf('93.184.216.34')).toBeUndefined();
    expect(privateIpOf('2606:4700::1')).toBeUndefined();
    expect(privateIpOf('not-an-ip')).toBeUndefined();
  });
});
