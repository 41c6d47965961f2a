// RFC 3986 §7.4 Rare IP Address Formats — https://www.rfc-editor.org/rfc/rfc3986#section-7.4
// A host such as `0x7f.1`, `2130706433` or `0177.0.0.1` is a reg-name in RFC 3986
// terms, yet the resolver (inet_aton, the WHATWG URL parser that undici uses) reads
// it as 127.0.0.1. The guard compares the numeric address, whatever its spelling.
// `privateAddressOf` judges a URI host as written (no DNS lookup); the connection
// guard (address-guard.ts) judges the address a name resolved to, with `privateIpOf`.

import { isIPv4, isIPv6 } from 'node:net';
import { scanIPv6Address } from '../uri/index.js';

/** Why a host is refused, or `undefined` when it names no private address. */
export type PrivateAddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'shared'
  | 'reserved'
  | 'multicast'
  | 'unique-local'
  | 'site-local';

/** A private, loopback or otherwise non-public address, as the guard found it. */
export interface PrivateAddress {
  readonly kind: PrivateAddressKind;
  /** The address in its usual text form (`127.0.0.1`, `::1`), or the name (`localhost`). */
  readonly address: string;
}

/**
 * IPv4 blocks that are not public unicast (RFC 6890 and the IANA special-purpose
 * registry): [first address, prefix length, kind].
 */
const IPV4_BLOCKS: readonly (readonly [number, number, PrivateAddressKind])[] = [
  [ipv4(0, 0, 0, 0), 8, 'unspecified'], // RFC 1122 "this network"
  [ipv4(10, 0, 0, 0), 8, 'private'], // RFC 1918
  [ipv4(100, 64, 0, 0), 10, 'shared'], // RFC 6598 carrier-grade NAT
  [ipv4(127, 0, 0, 0), 8, 'loopback'], // RFC 1122
  [ipv4(169, 254, 0, 0), 16, 'link-local'], // RFC 3927
  [ipv4(172, 16, 0, 0), 12, 'private'], // RFC 1918
  [ipv4(192, 0, 0, 0), 24, 'reserved'], // RFC 6890 IETF protocol assignments
  [ipv4(192, 168, 0, 0), 16, 'private'], // RFC 1918
  [ipv4(198, 18, 0, 0), 15, 'reserved'], // RFC 2544 benchmarking
  [ipv4(224, 0, 0, 0), 4, 'multicast'], // RFC 5771
  [ipv4(240, 0, 0, 0), 4, 'reserved'], // RFC 1112, with 255.255.255.255
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

/**
 * The private address a URI host names, or `undefined`. `host` is the host
 * component as parsed (IPv6 literals keep their brackets); pass it after the
 * syntax rung (RFC 3986 §6.2.2) so percent-encoded digits are already decoded.
 *
 * - `localhost` and any name under `.localhost` (RFC 6761 §6.3), with or without a final dot;
 * - an IPv4 address in any form inet_aton accepts (RFC 3986 §7.4): 1 to 4 dot-separated
 *   parts, each decimal, octal (leading `0`) or hexadecimal (`0x`), the last one filling
 *   the remaining bytes — `0x7f.1`, `2130706433`, `0177.0.0.1`, `127.1`;
 * - an IPv6 literal: `::1`, `::`, fc00::/7, fe80::/10, fec0::/10, ff00::/8, and an IPv4
 *   address embedded by mapping (`::ffff:127.0.0.1`), compatibility (`::127.0.0.1`) or
 *   NAT64 (`64:ff9b::/96`), judged as that IPv4 address.
 */
export function privateAddressOf(host: string): PrivateAddress | undefined {
  if (host.startsWith('[')) return host.endsWith(']') ? classifyIPv6(host.slice(1, -1)) : undefined;
  let name = host.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name === 'localhost' || name.endsWith('.localhost')) {
    return { kind: name === '' ? 'unspecified' : 'loopback', address: name };
  }
  const value = parseIPv4Number(name);
  return value === undefined ? undefined : classifyIPv4(value);
}

/**
 * inet_aton's reading of a host as an IPv4 address (the WHATWG URL Standard's
 * "IPv4 parser" reads it the same way): the 32-bit value, or `undefined` when the
 * host is a name, or numeric parts that overflow (which resolvers refuse).
 */
export function parseIPv4Number(host: string): number | undefined {
  const parts = host.split('.');
  // One trailing dot is allowed: `127.0.0.1.`
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Part(part);
    if (n === undefined) return undefined;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  let value = last;
  numbers.forEach((n, k) => {
    value += n * 256 ** (3 - k);
  });
  return value;
}

function parseIPv4Part(part: string): number | undefined {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
    if (digits === '') return 0; // "0x" alone is zero, as inet_aton and WHATWG read it
    if (!/^[0-9a-f]+$/i.test(digits)) return undefined;
  } else if (digits.length > 1 && digits.startsWith('0')) {
    digits = digits.slice(1);
    radix = 8;
    if (!/^[0-7]+$/.test(digits)) return undefined;
  } else if (!/^[0-9]+$/.test(digits)) {
    return undefined;
  }
  const n = Number.parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : undefined;
}

function classifyIPv4(value: number): PrivateAddress | undefined {
  for (const [first, prefix, kind] of IPV4_BLOCKS) {
    const size = 2 ** (32 - prefix);
    if (value >= first && value < first + size) return { kind, address: ipv4Text(value) };
  }
  return undefined;
}

function ipv4Text(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function classifyIPv6(text: string): PrivateAddress | undefined {
  const p: number[] = [];
  if (scanIPv6Address(text, 0, text.length, p) !== -1) return undefined;
  const address = text.toLowerCase();
  const zerosBefore = (n: number): boolean => p.slice(0, n).every((piece) => piece === 0);
  const embedded = (): number => p[6]! * 0x10000 + p[7]!;
  if (zerosBefore(8)) return { kind: 'unspecified', address };
  if (zerosBefore(7) && p[7] === 1) return { kind: 'loopback', address };
  // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2), ::a.b.c.d (deprecated, §2.5.5.1), 64:ff9b::a.b.c.d (RFC 6052)
  const isMapped = zerosBefore(5) && p[5] === 0xffff;
  const isCompatible = zerosBefore(6);
  const isNat64 = p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((piece) => piece === 0);
  if (isMapped || isCompatible || isNat64) {
    const inner = classifyIPv4(embedded());
    return inner === undefined ? undefined : { kind: inner.kind, address };
  }
  const first = p[0]!;
  if ((first & 0xfe00) === 0xfc00) return { kind: 'unique-local', address }; // RFC 4193
  if ((first & 0xffc0) === 0xfe80) return { kind: 'link-local', address }; // RFC 4291 §2.5.6
  if ((first & 0xffc0) === 0xfec0) return { kind: 'site-local', address }; // RFC 3879
  if ((first & 0xff00) === 0xff00) return { kind: 'multicast', address }; // RFC 4291 §2.7
  return undefined;
}

/**
 * The private address an IP address in text form is (`127.0.0.1`, `::1`,
 * `::ffff:10.0.0.1`, as a resolver or a socket gives it), or `undefined` when it
 * is public unicast or not an IP address.
 */
export function privateIpOf(ip: string): PrivateAddress | undefined {
  if (isIPv4(ip)) return classifyIPv4(parseIPv4Number(ip)!);
  if (!isIPv6(ip)) return undefined;
  // A scoped address (`fe80::1%eth0`, RFC 4007 §11) is judged without its zone.
  const zone = ip.indexOf('%');
  return classifyIPv6(zone === -1 ? ip : ip.slice(0, zone));
}
