import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/fetch/index.js';

const withCode = (code: string, name = 'Error'): Error => Object.assign(new Error(code), { code, name });

describe('classifyError', () => {
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 'ERR_FETCH_CONNECT_TIMEOUT'],
    ['UND_ERR_HEADERS_TIMEOUT', 'ERR_FETCH_HEADERS_TIMEOUT'],
    ['UND_ERR_BODY_TIMEOUT', 'ERR_FETCH_BODY_TIMEOUT'],
    ['UND_ERR_HEADERS_OVERFLOW', 'ERR_FETCH_PROTOCOL'],
    ['HPE_INVALID_CONSTANT', 'ERR_FETCH_PROTOCOL'],
    ['UND_ERR_SOCKET', 'ERR_FETCH_NETWORK'],
    ['ECONNREFUSED', 'ERR_FETCH_CONNECTION_REFUSED'],
    ['ECONNRESET', 'ERR_FETCH_NETWORK'],
    ['ENOTFOUND', 'ERR_FETCH_DNS'],
    ['EAI_AGAIN', 'ERR_FETCH_DNS_TEMPORARY'],
    ['EAI_FAIL', 'ERR_FETCH_DNS_TEMPORARY'],
    ['EAI_NODATA', 'ERR_FETCH_DNS'],
    ['EHOSTUNREACH', 'ERR_FETCH_NETWORK'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_FETCH_TLS'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'ERR_FETCH_TLS'],
    // A certificate refused: a code for what the user can do about it.
    ['CERT_HAS_EXPIRED', 'ERR_FETCH_TLS_CERT_EXPIRED'],
    ['CERT_NOT_YET_VALID', 'ERR_FETCH_TLS_CERT_EXPIRED'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_FETCH_TLS_SELF_SIGNED'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'ERR_FETCH_TLS_SELF_SIGNED'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_FETCH_TLS_HOSTNAME'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_FETCH_TLS_UNTRUSTED'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_FETCH_TLS_UNTRUSTED'],
    ['CERT_SIGNATURE_FAILURE', 'ERR_FETCH_TLS_UNTRUSTED'],
    // The dispatcher's own: a proxy that failed.
    ['ERR_FETCH_PROXY', 'ERR_FETCH_PROXY'],
  ])('%s → %s', (code, expected) => {
    expect(classifyError(withCode(code))).toBe(expected);
  });

  it('reads causes, parser errors by name, and anything else as a network error', () => {
    expect(classifyError(new TypeError('fetch failed', { cause: withCode('UND_ERR_CONNECT_TIMEOUT') }))).toBe(
      'ERR_FETCH_CONNECT_TIMEOUT',
    );
    expect(classifyError(Object.assign(new Error('bad'), { name: 'HTTPParserError' }))).toBe('ERR_FETCH_PROTOCOL');
    expect(classifyError(new Error('?'))).toBe('ERR_FETCH_NETWORK');
    expect(classifyError(undefined)).toBe('ERR_FETCH_NETWORK');
    expect(classifyError('a string')).toBe('ERR_FETCH_NETWORK');
  });
});
