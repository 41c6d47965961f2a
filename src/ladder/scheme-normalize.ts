// RFC 3986 §6.2.3 Scheme-Based Normalization, on top of §6.2.2.

import { domainToASCII } from 'node:url';
import { charTables, ipv6ToCanonicalText, percentDecodeUtf8, type UriReference } from '../uri/index.js';
import { lookupScheme, type SchemeSpec } from './scheme-registry.js';

/**
 * RFC 3986 §6.2.3, for a reference that is already syntax-normalized:
 * - an empty port, or the scheme's default port, is dropped with its ":" (§3.2.3);
 *   a port of a registered scheme is a decimal number, so "080" is written "80";
 * - an empty path after an authority becomes what the scheme says (`/` for http);
 * - an Internet host in IDNA form goes to ASCII (§3.2.2, RFC 5890) and an IPv6
 *   literal to its RFC 5952 text;
 * - the scheme's own path rules (gopher, mailto) and local host names (file).
 * An empty query or fragment is kept: no scheme here licenses dropping it.
 */
export function normalizeScheme(ref: UriReference): UriReference {
  const spec = ref.scheme === undefined ? undefined : lookupScheme(ref.scheme);
  let port = ref.port;
  if (port === '') port = undefined;
  if (spec === undefined) {
    // DEVIATION(§6.2.3): §3.2.2 makes an IP-literal an IP address in every scheme,
    // so its RFC 5952 text is applied whatever the scheme, registered or not.
    const host = ref.host === undefined ? undefined : canonicalIPv6Literal(ref.host);
    return port === ref.port && host === ref.host ? ref : { ...ref, host, port };
  }
  if (port !== undefined) {
    // Leading zeros go textually: a port too long for a number keeps its digits.
    const digits = stripLeadingZeros(port);
    port = spec.defaultPort !== undefined && digits === String(spec.defaultPort) ? undefined : digits;
  }
  let host = ref.host;
  let path = ref.path;
  if (host !== undefined) {
    host = normalizeHost(host, spec);
    if (path === '' && spec.emptyPathWithAuthority !== undefined) path = spec.emptyPathWithAuthority;
  }
  if (spec.normalizePath) path = spec.normalizePath(path, host);
  if (port === ref.port && host === ref.host && path === ref.path) return ref;
  return { ...ref, host, port, path };
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 0x30) i++;
  return i === 0 ? digits : digits.slice(i);
}

function normalizeHost(host: string, spec: SchemeSpec): string {
  if (spec.localHostNames?.includes(host)) return '';
  if (!spec.hasInternetHost || host === '') return host;
  if (host.charCodeAt(0) === 0x5b) return canonicalIPv6Literal(host);
  if (host.indexOf('%') === -1) return host;
  // §3.2.2: a reg-name of non-ASCII UTF-8 octets names an IDN; its ASCII form is the
  // one DNS resolves (RFC 5891 ToASCII, via node:url's UTS #46 processing).
  const decoded = percentDecodeUtf8(host);
  if (decoded === undefined || !hasNonAscii(decoded)) return host;
  const ascii = domainToASCII(decoded);
  return ascii !== '' && isRegName(ascii) ? ascii : host;
}

function isRegName(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!charTables.isInClass(text.charCodeAt(i), charTables.REG_NAME)) return false;
  }
  return true;
}

/** An IPv6 IP-literal in RFC 5952 text; other hosts (and IPvFuture) as they are. */
function canonicalIPv6Literal(host: string): string {
  if (host.charCodeAt(0) !== 0x5b || host.charCodeAt(1) === 0x76) return host;
  const canonical = ipv6ToCanonicalText(host.slice(1, -1));
  return canonical === undefined ? host : `[${canonical}]`;
}

function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return true;
  return false;
}
