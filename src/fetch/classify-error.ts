// An error from undici, node:net, node:tls or node:dns, as one stable ERR_FETCH_* code.

import type { FetchErrorCode } from '../errors.js';

/** undici's own codes, by what they mean here. */
const UNDICI_CODES: Readonly<Record<string, FetchErrorCode>> = Object.freeze({
  UND_ERR_CONNECT_TIMEOUT: 'ERR_FETCH_CONNECT_TIMEOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ERR_FETCH_HEADERS_TIMEOUT',
  // undici's idle body timeout: set to bodyTimeoutMs, the whole-body deadline usually fires first.
  UND_ERR_BODY_TIMEOUT: 'ERR_FETCH_BODY_TIMEOUT',
  UND_ERR_HEADERS_OVERFLOW: 'ERR_FETCH_PROTOCOL',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'ERR_FETCH_PROTOCOL',
  UND_ERR_INFO: 'ERR_FETCH_PROTOCOL',
  UND_ERR_NOT_SUPPORTED: 'ERR_FETCH_PROTOCOL',
});

/**
 * node:dns (getaddrinfo) codes that say the name is not there: it does not exist
 * (RFC 1035 §4.1.1 RCODE 3, NXDOMAIN: `ENOTFOUND`, `EAI_NONAME`) or has no address
 * (`EAI_NODATA`). Node reports both as `ENOTFOUND`.
 */
const DNS_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_NODATA', 'EAI_NONAME']);

/**
 * getaddrinfo codes of a resolver that failed: `EAI_AGAIN` (a timeout, SERVFAIL, no
 * network), `EAI_FAIL` (a non-recoverable failure). They say nothing of the name.
 */
const DNS_TEMPORARY_CODES: ReadonlySet<string> = new Set(['EAI_AGAIN', 'EAI_FAIL']);

/**
 * Certificate verification codes (OpenSSL's X509_V_ERR_* names, as node:tls reports
 * them) by what the user can do about each.
 */
const CERTIFICATE_CODES: Readonly<Record<string, FetchErrorCode>> = Object.freeze({
  CERT_HAS_EXPIRED: 'ERR_FETCH_TLS_CERT_EXPIRED',
  CERT_NOT_YET_VALID: 'ERR_FETCH_TLS_CERT_EXPIRED',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'ERR_FETCH_TLS_SELF_SIGNED',
  SELF_SIGNED_CERT_IN_CHAIN: 'ERR_FETCH_TLS_SELF_SIGNED',
  ERR_TLS_CERT_ALTNAME_INVALID: 'ERR_FETCH_TLS_HOSTNAME',
  HOSTNAME_MISMATCH: 'ERR_FETCH_TLS_HOSTNAME',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'ERR_FETCH_TLS_UNTRUSTED',
  UNABLE_TO_GET_ISSUER_CERT: 'ERR_FETCH_TLS_UNTRUSTED',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'ERR_FETCH_TLS_UNTRUSTED',
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: 'ERR_FETCH_TLS_UNTRUSTED',
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: 'ERR_FETCH_TLS_UNTRUSTED',
  CERT_SIGNATURE_FAILURE: 'ERR_FETCH_TLS_UNTRUSTED',
  CERT_UNTRUSTED: 'ERR_FETCH_TLS_UNTRUSTED',
  CERT_REJECTED: 'ERR_FETCH_TLS_UNTRUSTED',
  CERT_REVOKED: 'ERR_FETCH_TLS_UNTRUSTED',
  INVALID_CA: 'ERR_FETCH_TLS_UNTRUSTED',
  PATH_LENGTH_EXCEEDED: 'ERR_FETCH_TLS_UNTRUSTED',
  INVALID_PURPOSE: 'ERR_FETCH_TLS_UNTRUSTED',
});

/** OpenSSL and node:tls codes: the handshake failed or the certificate was refused. */
const TLS_CODE = /^(?:ERR_SSL_|ERR_TLS_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * The code of a request or body error: a DNS failure and a refused connection are
 * named, so that one line can say what failed. Anything not recognised —
 * ECONNRESET, EHOSTUNREACH, undici's UND_ERR_SOCKET ("other side closed") — is a
 * network error. Walks `cause` chains.
 */
export function classifyError(error: unknown): FetchErrorCode {
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = typeof current === 'object' && 'code' in current ? current.code : undefined;
    const name = typeof current === 'object' && 'name' in current ? current.name : undefined;
    if (typeof code === 'string') {
      // The connection guard's own refusal (address-guard.ts).
      if (code === 'ERR_FETCH_PRIVATE_ADDRESS') return code;
      // A proxy that refused the request or could not be reached (dispatcher.ts).
      if (code === 'ERR_FETCH_PROXY') return code;
      const certificate = CERTIFICATE_CODES[code];
      if (certificate !== undefined) return certificate;
      const known = UNDICI_CODES[code];
      if (known !== undefined) return known;
      // llhttp refused the response: undici's HTTPParserError carries HPE_* codes.
      if (code.startsWith('HPE_')) return 'ERR_FETCH_PROTOCOL';
      if (TLS_CODE.test(code)) return 'ERR_FETCH_TLS';
      if (DNS_CODES.has(code)) return 'ERR_FETCH_DNS';
      if (DNS_TEMPORARY_CODES.has(code)) return 'ERR_FETCH_DNS_TEMPORARY';
      if (code === 'ECONNREFUSED') return 'ERR_FETCH_CONNECTION_REFUSED';
    }
    if (name === 'HTTPParserError') return 'ERR_FETCH_PROTOCOL';
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return 'ERR_FETCH_NETWORK';
}
