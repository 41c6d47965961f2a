// The connection guard: no connection to a loopback, private or link-local address
// (RFC 6890) unless allowed. It judges the address each new connection goes to —
// the host's literal address, or what DNS resolved its name to, in the lookup that
// connection uses — so a name that resolves to 127.0.0.1, a redirect to one, and DNS
// rebinding (a public answer first, a private one later) are all refused, with
// nothing sent. It costs one check per connection, none per request on a kept-alive one.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector as BuildConnector } from 'undici';
import { buildConnector } from './undici-parts.js';
import { privateIpOf, type PrivateAddress } from './private-address.js';

/** What a TLS connection trusts: the roots (`ca`, replacing Node's) and whether it verifies at all. */
export interface ConnectionTrust {
  readonly ca?: string[];
  readonly rejectUnauthorized?: boolean;
}

/** Why a connection was refused: `code` is the fetch result's `ERR_FETCH_PRIVATE_ADDRESS`. */
export class PrivateAddressError extends Error {
  readonly code = 'ERR_FETCH_PRIVATE_ADDRESS';
  readonly host: string;
  readonly address: PrivateAddress;

  constructor(host: string, address: PrivateAddress) {
    super(`${host} ${host === address.address ? 'is' : `resolves to ${address.address},`} a ${address.kind} address: not connected to`);
    this.name = 'PrivateAddressError';
    this.host = host;
    this.address = address;
  }
}

export interface AddressGuardOptions {
  /** The resolver whose answers are judged (`dns.lookup` when `undefined`). */
  readonly lookup: LookupFunction | undefined;
  /** Host names (lower case) whose addresses are not judged. */
  readonly trustedHosts: ReadonlySet<string>;
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/**
 * `lookup` that keeps only the public addresses of an answer: an answer left with
 * none fails with `PrivateAddressError`. Handles both forms of `dns.lookup`: one
 * address, or all of them (`all: true`, which Node's `autoSelectFamily` asks for).
 */
export function guardedLookup(options: AddressGuardOptions): LookupFunction {
  const resolve = options.lookup ?? (dnsLookup as LookupFunction);
  return (hostname, lookupOptions, callback) => {
    if (options.trustedHosts.has(hostname.toLowerCase())) {
      resolve(hostname, lookupOptions, callback);
      return;
    }
    if (lookupOptions.all === true) {
      const answer = callback as unknown as AllCallback;
      resolve(hostname, lookupOptions, ((error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
        if (error !== null) return answer(error, addresses);
        const allowed = addresses.filter((entry) => privateIpOf(entry.address) === undefined);
        if (allowed.length > 0 || addresses.length === 0) return answer(null, allowed);
        answer(new PrivateAddressError(hostname, privateIpOf(addresses[0]!.address)!) as NodeJS.ErrnoException, []);
      }) as unknown as Parameters<LookupFunction>[2]);
      return;
    }
    resolve(hostname, lookupOptions, (error, address, family) => {
      if (error !== null) return callback(error, address, family);
      const refused = typeof address === 'string' ? privateIpOf(address) : undefined;
      if (refused === undefined) return callback(null, address, family);
      callback(new PrivateAddressError(hostname, refused) as NodeJS.ErrnoException, '', 0);
    });
  };
}

/**
 * An undici connector that refuses a host that is a private IP literal before
 * connecting (no lookup is made for a literal), and resolves names with `guardedLookup`.
 * `tls`: the connector's other options (trusted roots, `rejectUnauthorized`).
 */
export function guardedConnector(
  connectTimeoutMs: number,
  options: AddressGuardOptions,
  tls: ConnectionTrust = {},
  allowH2 = false,
): BuildConnector.connector {
  // undici passes its Agent's `allowH2` to a connector of its own making only: this one offers h2 (ALPN) when asked.
  const connect = buildConnector({ ...tls, timeout: connectTimeoutMs, lookup: guardedLookup(options), allowH2 });
  return (connectOptions, callback) => {
    // undici strips an IPv6 literal's brackets from `hostname`.
    const { hostname } = connectOptions;
    if (isIP(hostname) !== 0 && !options.trustedHosts.has(hostname.toLowerCase())) {
      const refused = privateIpOf(hostname);
      if (refused !== undefined) {
        callback(new PrivateAddressError(hostname, refused), null);
        return;
      }
    }
    connect(connectOptions, callback);
  };
}
