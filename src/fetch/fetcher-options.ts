// Options of createFetcher, validated once at the boundary.

import type { LookupFunction } from 'node:net';
import { MAX_TIMER_MS, checkBoolean, checkFunction, checkInteger, checkKnownKeys, checkOptionsObject } from '../infra/index.js';
import { checkCa, checkHosts, checkProxy, checkUserAgent } from './fetch-option-checks.js';
import { OptionError, describeValue } from '../errors.js';
import type { RequestCredentials } from './credentials.js';
import type { OnExchange } from './wire-exchange.js';
import type { BeforeRedirect, FetchCallOptions, HttpMethod, OnRequest, Validators } from './types.js';

const MiB = 1024 * 1024;

export interface FetcherOptions {
  /**
   * Sent as the `User-Agent` header of every request.
   * @default 'linkladder'
   */
  readonly userAgent?: string;
  /**
   * How many redirects are followed before the fetch ends with `ERR_FETCH_TOO_MANY_REDIRECTS`.
   * `0` follows none (the first 3xx is then recorded and the fetch ends).
   * @default 10
   */
  readonly maxRedirects?: number;
  /**
   * Time to open a connection: TCP connect, and the TLS handshake for `https:`
   * (`ERR_FETCH_CONNECT_TIMEOUT`). Per hop.
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Time from sending a request to its complete response headers (`ERR_FETCH_HEADERS_TIMEOUT`). Per hop.
   * @default 15000
   */
  readonly headersTimeoutMs?: number;
  /**
   * Time from the response headers to the end of the body: a deadline for the whole
   * body, not an idle timeout, so a server that drips one byte a second is cut too
   * (`ERR_FETCH_BODY_TIMEOUT`; what was read is kept). Per hop.
   * @default 30000
   */
  readonly bodyTimeoutMs?: number;
  /**
   * One deadline for the whole request — connect, every redirect hop, headers and
   * body — on top of the timeouts of each phase (`ERR_FETCH_REQUEST_TIMEOUT`; a body
   * read so far is kept). 60 s: the phase timeouts of one hop add up to 55 s, so one
   * slow hop still fits, while a chain of slow hops, or a body that never ends at a
   * rate just above `minBytesPerSecond`, holds its host for a minute at most.
   * @default 60000
   */
  readonly requestTimeoutMs?: number;
  /**
   * The least transfer rate of a body read, in bytes a second on the wire: each
   * `rateWindowMs` of the body (counted from its headers, so the first window is the
   * grace a server has to start) must bring `minBytesPerSecond` · `rateWindowMs` / 1000
   * bytes, or the body is cut there (`ERR_FETCH_TOO_SLOW`; what came is kept). A server
   * that sends a byte every few seconds is cut after one window, not at the body
   * deadline. `0`: no minimum.
   * @default 1024
   */
  readonly minBytesPerSecond?: number;
  /**
   * The window over which `minBytesPerSecond` is measured.
   * @default 10000
   */
  readonly rateWindowMs?: number;
  /**
   * Cap on the body's bytes as they come over the wire (compressed or not).
   * Reading stops there: `ERR_FETCH_BODY_TOO_LARGE`, the text read so far is kept.
   * @default 10485760 (10 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * Cap on the body's bytes once gzip, deflate or br is undone. The body is
   * decompressed as a stream and reading stops as soon as the cap is passed, so
   * a compression bomb costs no more than this: `ERR_FETCH_BODY_TOO_LARGE`.
   * @default 10485760 (10 MiB)
   */
  readonly maxDecodedBytes?: number;
  /**
   * Refuse to connect to a loopback, private, link-local or otherwise non-public
   * address (RFC 6890: `127.0.0.0/8`, `10/8`, `172.16/12`, `192.168/16`, `169.254/16`,
   * `::1`, `fc00::/7`, `fe80::/10` …), whether the URL names it or DNS resolves its
   * host to it: `ERR_FETCH_PRIVATE_ADDRESS`, nothing sent. Checked for every new
   * connection, redirect hops included, on the address connected to, so DNS
   * rebinding cannot pass. crawl() and the CLI set it unless `allowPrivate`.
   * @default false
   */
  readonly refusePrivate?: boolean;
  /**
   * Host names (or IP literals) that `refusePrivate` lets through: an intranet
   * host to reach while every other private address stays refused. Compared
   * case-insensitively with the URL's host.
   * @default []
   */
  readonly trustedHosts?: readonly string[];
  /**
   * Host name resolution, as `dns.lookup` (a `node:net` `LookupFunction`): a hook to
   * pin or vet addresses, and for tests.
   * @default dns.lookup
   */
  readonly lookup?: LookupFunction;
  /**
   * The clock of `FetchedResponse.startedAt` (ms since the epoch).
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Header fields, Basic auth and cookies (`createRequestCredentials`), asked for
   * each request — each redirect hop — by its origin and URL. Give the robots.txt
   * policy the same object, so robots.txt of a seed's origin gets them too and the
   * cookies a site sets are one jar.
   * @default none
   */
  readonly credentials?: RequestCredentials | undefined;
  /**
   * The proxy requests go through: an `http:` or `https:` URL (its userinfo, if any,
   * is sent to the proxy only, as `Proxy-Authorization`); `false`: none, whatever the
   * environment says. Plain http goes to the proxy in absolute form, https through a
   * CONNECT tunnel. Hosts in `NO_PROXY` (`no_proxy`) are connected to directly. A proxy
   * that cannot be reached or refuses the request: `ERR_FETCH_PROXY`. `refusePrivate`
   * judges the target (as the local resolver answers for its name), never the proxy.
   * @default undefined (`https_proxy`/`HTTPS_PROXY` for https, else the http one; `http_proxy`/`HTTP_PROXY` for http; `NO_PROXY`)
   */
  readonly proxy?: string | false | undefined;
  /**
   * PEM certificates trusted as roots on top of Node's own (its bundled roots and
   * `NODE_EXTRA_CA_CERTS`): a staging site's own CA.
   * @default undefined (Node's roots)
   */
  readonly ca?: readonly string[] | undefined;
  /**
   * Do not verify certificates (`rejectUnauthorized: false`): an expired, self-signed
   * or wrongly named certificate is accepted. For a test site only.
   * @default false
   */
  readonly insecure?: boolean | undefined;
  /**
   * Offer HTTP/2 on `https:` by ALPN (RFC 9113 §3.2): a server that chooses it gets
   * the requests to its origin as streams of one connection; one that does not, and
   * every `http:` URL, get HTTP/1.1. `FetchedResponse.protocol` says which it was.
   * `false`: HTTP/1.1 only.
   * @default true
   */
  readonly http2?: boolean;
}

/** The defaults of every option. */
export const FETCHER_DEFAULTS = Object.freeze({
  userAgent: 'linkladder',
  maxRedirects: 10,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  minBytesPerSecond: 1024,
  rateWindowMs: 10_000,
  maxBodyBytes: 10 * MiB,
  maxDecodedBytes: 10 * MiB,
  refusePrivate: false,
  trustedHosts: Object.freeze([]) as readonly string[],
  lookup: undefined,
  now: Date.now,
  credentials: undefined,
  proxy: undefined,
  ca: undefined,
  insecure: false,
  http2: true,
} as const);

/** Options checked once, every default filled in. */
export interface ValidFetcherOptions {
  readonly userAgent: string;
  readonly maxRedirects: number;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly minBytesPerSecond: number;
  readonly rateWindowMs: number;
  readonly maxBodyBytes: number;
  readonly maxDecodedBytes: number;
  readonly refusePrivate: boolean;
  /** Lower-cased, IPv6 literals without brackets. */
  readonly trustedHosts: readonly string[];
  readonly lookup: LookupFunction | undefined;
  readonly now: () => number;
  readonly credentials: RequestCredentials | undefined;
  readonly proxy: string | false | undefined;
  readonly ca: readonly string[] | undefined;
  readonly insecure: boolean;
  readonly http2: boolean;
}

const KNOWN = Object.keys(FETCHER_DEFAULTS);

/** Names people bring from undici, fetch or other crawlers, and the option that does that here. */
export const RENAMED_FETCH_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  maxRedirections: 'maxRedirects',
  redirect: 'maxRedirects',
  connectTimeout: 'connectTimeoutMs',
  headersTimeout: 'headersTimeoutMs',
  bodyTimeout: 'bodyTimeoutMs',
  timeout: 'connectTimeoutMs, headersTimeoutMs and bodyTimeoutMs',
  totalTimeout: 'requestTimeoutMs',
  deadline: 'requestTimeoutMs',
  maxResponseSize: 'maxBodyBytes',
  maxBodySize: 'maxBodyBytes',
  allowH2: 'http2',
});

/** The request deadline and the minimum transfer rate, which the robots.txt policy takes too. */
export function checkTransferOptions(
  options: Readonly<Record<string, unknown>>,
  d: Pick<ValidFetcherOptions, 'requestTimeoutMs' | 'minBytesPerSecond' | 'rateWindowMs'>,
): Pick<ValidFetcherOptions, 'requestTimeoutMs' | 'minBytesPerSecond' | 'rateWindowMs'> {
  return {
    requestTimeoutMs: checkInteger('requestTimeoutMs', options.requestTimeoutMs, d.requestTimeoutMs, 1, MAX_TIMER_MS),
    minBytesPerSecond: checkInteger('minBytesPerSecond', options.minBytesPerSecond, d.minBytesPerSecond, 0, Number.MAX_SAFE_INTEGER),
    rateWindowMs: checkInteger('rateWindowMs', options.rateWindowMs, d.rateWindowMs, 1, MAX_TIMER_MS),
  };
}

/** Check options once, at the boundary: a bad option throws `OptionError`. */
export function validateFetcherOptions(input: FetcherOptions | undefined): ValidFetcherOptions {
  const options = checkOptionsObject(input);
  checkKnownKeys(options, KNOWN, RENAMED_FETCH_OPTIONS);
  const d = FETCHER_DEFAULTS;
  return Object.freeze({
    userAgent: checkUserAgent(options.userAgent, d.userAgent),
    maxRedirects: checkInteger('maxRedirects', options.maxRedirects, d.maxRedirects, 0, 1000),
    connectTimeoutMs: checkInteger('connectTimeoutMs', options.connectTimeoutMs, d.connectTimeoutMs, 1, MAX_TIMER_MS),
    headersTimeoutMs: checkInteger('headersTimeoutMs', options.headersTimeoutMs, d.headersTimeoutMs, 1, MAX_TIMER_MS),
    bodyTimeoutMs: checkInteger('bodyTimeoutMs', options.bodyTimeoutMs, d.bodyTimeoutMs, 1, MAX_TIMER_MS),
    ...checkTransferOptions(options, d),
    maxBodyBytes: checkInteger('maxBodyBytes', options.maxBodyBytes, d.maxBodyBytes, 1, Number.MAX_SAFE_INTEGER),
    maxDecodedBytes: checkInteger(
      'maxDecodedBytes',
      options.maxDecodedBytes,
      d.maxDecodedBytes,
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    refusePrivate: checkBoolean('refusePrivate', options.refusePrivate, d.refusePrivate),
    trustedHosts: checkHosts('trustedHosts', options.trustedHosts),
    lookup: checkFunction<LookupFunction | undefined>('lookup', options.lookup, undefined),
    now: checkFunction<() => number>('now', options.now, d.now),
    credentials: checkCredentials(options.credentials),
    proxy: checkProxy(options.proxy),
    ca: checkCa(options.ca),
    insecure: checkBoolean('insecure', options.insecure, d.insecure),
    http2: checkBoolean('http2', options.http2, d.http2),
  });
}

/** A `RequestCredentials`: an object with its three methods. */
export function checkCredentials(value: unknown): RequestCredentials | undefined {
  if (value === undefined) return undefined;
  const given = value as Partial<Record<keyof RequestCredentials, unknown>> | null;
  if (typeof given !== 'object' || given === null || (['headersFor', 'cookieHeader', 'keepCookies'] as const).some((name) => typeof given[name] !== 'function')) {
    throw new OptionError(`Expected \`credentials\` to be a RequestCredentials (headersFor, cookieHeader and keepCookies methods), got ${describeValue(value)}`);
  }
  return value as RequestCredentials;
}

/** The per-call options of `fetch`, checked at each call (a bad one rejects the call with `OptionError`). */
export interface ValidFetchCallOptions {
  readonly method: HttpMethod;
  readonly beforeRedirect: BeforeRedirect | undefined;
  readonly onRequest: OnRequest | undefined;
  readonly validators: Validators | undefined;
  readonly read: 'html' | 'bytes';
  readonly onExchange: OnExchange | undefined;
}

const NO_CALL_OPTIONS: ValidFetchCallOptions = Object.freeze({ method: 'GET', beforeRedirect: undefined, onRequest: undefined, validators: undefined, read: 'html', onExchange: undefined });

/** Names from other fetch APIs for what `beforeRedirect` does. */
const RENAMED_CALL_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  onRedirect: 'beforeRedirect',
  redirect: 'beforeRedirect',
});

export function validateFetchCallOptions(input: FetchCallOptions | undefined): ValidFetchCallOptions {
  if (input === undefined) return NO_CALL_OPTIONS;
  const options = checkOptionsObject(input);
  checkKnownKeys(options, ['method', 'beforeRedirect', 'onRequest', 'validators', 'read', 'onExchange'], RENAMED_CALL_OPTIONS);
  const method = options.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') throw new OptionError(`Expected \`method\` to be 'GET' or 'HEAD', got ${describeValue(method)}`);
  const read: unknown = options.read ?? 'html';
  if (read !== 'html' && read !== 'bytes') throw new OptionError(`Expected \`read\` to be one of html, bytes, got ${describeValue(read)}`);
  return Object.freeze({
    method,
    beforeRedirect: checkFunction<BeforeRedirect | undefined>('beforeRedirect', options.beforeRedirect, undefined),
    onRequest: checkFunction<OnRequest | undefined>('onRequest', options.onRequest, undefined),
    validators: checkValidators(options.validators),
    read,
    onExchange: checkFunction<OnExchange | undefined>('onExchange', options.onExchange, undefined),
  });
}

/** A validator is sent in a header field: text without CR, LF or NUL (RFC 9110 §5.5). */
function checkValidators(value: unknown): Validators | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new OptionError(`Expected \`validators\` to be an object, got ${describeValue(value)}`);
  const { etag, lastModified } = value as Record<string, unknown>;
  for (const [name, field] of [['etag', etag], ['lastModified', lastModified]] as const) {
    if (field !== undefined && (typeof field !== 'string' || field === '' || /[\r\n\0]/.test(field))) {
      throw new OptionError(`Expected \`validators.${name}\` to be a non-empty string without CR, LF or NUL, got ${describeValue(field)}`);
    }
  }
  return Object.freeze({ etag: etag as string | undefined, lastModified: lastModified as string | undefined });
}
