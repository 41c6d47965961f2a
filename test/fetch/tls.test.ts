// https on 127.0.0.1 with certificates made for the test (a CA and its leaves, a
// self-signed one): each certificate failure has its own code; `ca` trusts a CA on
// top of Node's roots; `insecure` skips verification. Both HTTP clients alike.

import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { beforeAll, afterEach, describe, expect, it } from 'vitest';
import { createRobotsPolicy } from '../../src/fetch/index.js';
import { makeTestCertificates, type TestCertificates } from '../support/tls-certificates.js';
import { closeAll, onCleanup, testFetcher } from './test-server.js';

let certificates: TestCertificates;
beforeAll(async () => {
  certificates = await makeTestCertificates();
});
afterEach(closeAll);

async function httpsServer(key: string, cert: string): Promise<string> {
  const server = createServer({ key, cert }, (request, response) => {
    if (request.url === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /no\n');
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>secure');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('certificate failures, each with its code', () => {
  it.each([
    ['a leaf of a CA not trusted', 'leaf', 'ERR_FETCH_TLS_UNTRUSTED'],
    ['an expired leaf', 'expired', 'ERR_FETCH_TLS_CERT_EXPIRED'],
    ['a self-signed leaf', 'selfSigned', 'ERR_FETCH_TLS_SELF_SIGNED'],
    ['a leaf for another name', 'wrongName', 'ERR_FETCH_TLS_HOSTNAME'],
  ] as const)('%s: %s', async (_what, which, code) => {
    const origin = await httpsServer(certificates[`${which}Key`], certificates[`${which}Cert`]);
    // The CA is trusted (but for the first case): what is left is the leaf's own failure.
    const ca = which === 'leaf' ? undefined : [certificates.caPem];
    const result = await testFetcher({ ...(ca === undefined ? {} : { ca }) }).fetch(`${origin}/`);
    expect(result).toMatchObject({ errorCode: code, status: undefined });
  });
});

describe('ca: a CA trusted on top of Node\'s roots', () => {
  it("the CA's leaf is fetched, by IP and by name (localhost)", async () => {
    const origin = await httpsServer(certificates.leafKey, certificates.leafCert);
    const fetcher = testFetcher({ ca: [certificates.caPem] });
    expect(await fetcher.fetch(`${origin}/`)).toMatchObject({ status: 200, body: '<p>secure', errorCode: undefined });
    expect(await fetcher.fetch(`${origin.replace('127.0.0.1', 'localhost')}/`)).toMatchObject({ status: 200 });
  });

  it('robots.txt is read with the same trust', async () => {
    const origin = await httpsServer(certificates.leafKey, certificates.leafCert);
    const trusting = createRobotsPolicy({ ca: [certificates.caPem] });
    const strict = createRobotsPolicy({});
    onCleanup(async () => {
      await trusting.close();
      await strict.close();
    });
    expect(await trusting.isAllowed(`${origin}/no/page`)).toBe(false);
    expect(trusting.robotsFile(`${origin}/`)).toMatchObject({ verdict: 'parsed' });
    // Refused, it is unavailable, not unreachable: the pages fail the same handshake, each with the certificate's code.
    expect(await strict.isAllowed(`${origin}/no/page`)).toBe(true);
    expect(strict.robotsFile(`${origin}/`)).toMatchObject({ verdict: 'unavailable', errorCode: 'ERR_FETCH_TLS_UNTRUSTED' });
  });

  it("is not a PEM certificate: an option error; Node's roots stay trusted beside it", () => {
    expect(() => testFetcher({ ca: ['not a certificate'] })).toThrow(/Expected `ca` to be an array of PEM texts/);
    expect(rootCertificates.length).toBeGreaterThan(50);
  });
});

describe('insecure: no verification', () => {
  it.each(['expired', 'selfSigned', 'wrongName'] as const)('a %s certificate is accepted', async (which) => {
    const origin = await httpsServer(certificates[`${which}Key`], certificates[`${which}Cert`]);
    expect(await testFetcher({ insecure: true }).fetch(`${origin}/`)).toMatchObject({ status: 200, errorCode: undefined });
  });
});
