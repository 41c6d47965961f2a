// The undici dispatcher both HTTP clients send through: an Agent that connects
// directly, or undici's ProxyAgent for the URLs a proxy is set for (`proxy`, else
// `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`), with the trusted roots and verification
// asked for. Plain http goes to the proxy in absolute form (RFC 9112 §3.2.2), never
// as a CONNECT tunnel (which most proxies refuse to port 80, as squid does by
// default); https goes through CONNECT (RFC 9110 §9.3.6), verified end to end.
//
// The private-address guard judges the target, not the proxy: a direct connection is
// judged where it connects (address-guard.ts); a proxied request, whose target the
// proxy resolves, by what the local resolver says of the target's name before anything
// is sent. The proxy itself may be private (127.0.0.1:3128 is a common one).

import { readFileSync } from 'node:fs';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { PrivateAddressError, guardedConnector, guardedLookup, type ConnectionTrust } from './address-guard.js';
import { privateIpOf } from './private-address.js';
import { streamingPool } from './h2-streams.js';
import { UndiciAgent, loadProxyParts, type ProxyParts } from './undici-parts.js';

export interface DispatcherOptions {
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly refusePrivate: boolean;
  readonly trustedHosts: readonly string[];
  readonly lookup: LookupFunction | undefined;
  /** A proxy URL; `false`: none; `undefined`: as the environment says. */
  readonly proxy: string | false | undefined;
  /** PEM certificates trusted on top of Node's default roots. */
  readonly ca: readonly string[] | undefined;
  /** Certificates are not verified. */
  readonly insecure: boolean;
  /** Offer HTTP/2 by ALPN on https to the sites connected to directly (through a proxy, HTTP/1.1). */
  readonly http2: boolean;
}

/** What the HTTP client sends through and closes. */
export type RequestDispatcher = Pick<Dispatcher, 'dispatch' | 'close'>;

/** Why a proxied request got no answer from its target: the proxy refused it or could not be reached. */
export class ProxyError extends Error {
  readonly code = 'ERR_FETCH_PROXY';

  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'ProxyError';
  }
}

/** The proxies for each scheme and the hosts that bypass them. */
export interface ProxyRoutes {
  readonly http: string | undefined;
  readonly https: string | undefined;
  /** `NO_PROXY` as written: host names (a leading `.` or `*.` takes subdomains), optional `:port`, `*` for all. */
  readonly noProxy: string;
}

/**
 * The proxies a client uses: `proxy` for both schemes, none for `false`, and for
 * `undefined` the environment, as curl and undici read it — `https_proxy` /
 * `HTTPS_PROXY` for https (else the http proxy), `http_proxy` / `HTTP_PROXY` for
 * http, the lower-case name first. `NO_PROXY` (`no_proxy`) applies to a given proxy
 * too, as curl does.
 */
export function proxyRoutesOf(proxy: string | false | undefined, env: NodeJS.ProcessEnv = process.env): ProxyRoutes | undefined {
  if (proxy === false) return undefined;
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  if (proxy !== undefined) return { http: proxy, https: proxy, noProxy };
  const http = nonEmpty(env.http_proxy ?? env.HTTP_PROXY);
  const https = nonEmpty(env.https_proxy ?? env.HTTPS_PROXY) ?? http;
  return http === undefined && https === undefined ? undefined : { http, https, noProxy };
}

/** A proxy URL as it may be shown or stored: `host:port`, never its userinfo. */
export function proxyHostOf(proxy: string): string {
  try {
    const url = new URL(proxy);
    return url.port === '' ? `${url.hostname}:${url.protocol === 'https:' ? 443 : 80}` : `${url.hostname}:${url.port}`;
  } catch {
    return 'an invalid proxy URL';
  }
}

/**
 * Node's default roots and `ca`: `ca` alone would replace them, and with them the
 * certificates of `NODE_EXTRA_CA_CERTS`, which Node adds to its defaults only.
 */
function trustedRoots(ca: readonly string[]): string[] {
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  if (extraFile !== undefined && extraFile !== '') {
    try {
      extra = [readFileSync(extraFile, 'utf8')];
    } catch {
      // Node warns of an unreadable file at start-up and goes on without it; so does this.
    }
  }
  return [...rootCertificates, ...extra, ...ca];
}

/** The dispatcher `options` ask for. */
export function createDispatcher(options: DispatcherOptions): RequestDispatcher {
  const tls: ConnectionTrust = {
    ...(options.ca === undefined || options.ca.length === 0 ? {} : { ca: trustedRoots(options.ca) }),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
  const guard = { lookup: options.lookup, trustedHosts: new Set(options.trustedHosts) };
  // The options of every agent made here, direct or through a proxy: one place to add one.
  const agentOptions = {
    headersTimeout: options.headersTimeoutMs,
    // undici's is an idle timeout; the whole-body deadline is ours (request-deadline.ts).
    bodyTimeout: options.bodyTimeoutMs,
  };
  // Over h2 the requests in flight to one origin are streams of one connection
  // (h2-streams.ts), and a body left unread or cut at a cap resets its stream, not the
  // connection. The crawl's per-host limit caps what is in flight, h2 or not. A
  // connector of our own must offer h2 itself (ALPN).
  const direct = new UndiciAgent({
    ...agentOptions,
    allowH2: options.http2,
    ...(options.http2 ? { factory: streamingPool } : {}),
    connect: options.refusePrivate
      ? guardedConnector(options.connectTimeoutMs, guard, tls, options.http2)
      : {
          ...tls,
          timeout: options.connectTimeoutMs,
          ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
        },
  });
  const routes = proxyRoutesOf(options.proxy);
  if (routes === undefined) return direct;
  const makeProxy = (parts: ProxyParts, uri: string): Dispatcher => {
    const pool = (origin: string | URL, opts: object): Dispatcher => new parts.Pool(origin, { ...agentOptions, ...opts });
    return new parts.ProxyAgent({
      ...agentOptions,
      uri,
      proxyTunnel: false,
      // An https proxy is verified with the same trust as the sites (a corporate CA).
      proxyTls: { ...tls, timeout: options.connectTimeoutMs },
      requestTls: { ...tls, timeout: options.connectTimeoutMs },
      factory: pool,
      // The pool CONNECT tunnels are asked on. Its failures are the proxy's, named so:
      // undici retries a connection that failed with a socket error ("other side
      // closed") for as long as requests wait, and a proxy that hangs up on CONNECT
      // would be asked again and again.
      clientFactory: (origin, opts) => {
        const proxyPool = pool(origin, opts);
        const connect = parts.connect.bind(proxyPool) as (params: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
        return Object.assign(proxyPool, {
          connect: async (params: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => {
            try {
              return await connect(params);
            } catch (error) {
              const code = (error as { code?: unknown }).code;
              throw new ProxyError(`the proxy ${proxyHostOf(uri)} failed the CONNECT (${typeof code === 'string' ? code : String(error)})`, { cause: error });
            }
          },
        });
      },
    });
  };
  return new ProxyRouter(direct, routes, makeProxy, options.refusePrivate ? guard : undefined);
}

/** How long the guard's judgement of a proxied host name is kept. */
const JUDGEMENT_TTL_MS = 60_000;
const MAX_JUDGEMENTS = 10_000;

interface NoProxyEntry {
  readonly hostname: string;
  readonly port: number;
}

/** Each request to the direct agent or to the proxy of its scheme. */
class ProxyRouter implements RequestDispatcher {
  readonly #direct: Dispatcher;
  readonly #routes: ProxyRoutes;
  readonly #noProxy: readonly NoProxyEntry[] | 'all';
  readonly #makeProxy: (parts: ProxyParts, uri: string) => Dispatcher;
  readonly #guard: { readonly lookup: LookupFunction | undefined; readonly trustedHosts: ReadonlySet<string> } | undefined;
  readonly #proxies = new Map<string, Promise<Dispatcher>>();
  readonly #judgements = new Map<string, { readonly until: number; readonly refusal: Promise<Error | undefined> }>();
  #parts: Promise<ProxyParts> | undefined;

  constructor(
    direct: Dispatcher,
    routes: ProxyRoutes,
    makeProxy: (parts: ProxyParts, uri: string) => Dispatcher,
    guard: { readonly lookup: LookupFunction | undefined; readonly trustedHosts: ReadonlySet<string> } | undefined,
  ) {
    this.#direct = direct;
    this.#routes = routes;
    this.#noProxy = parseNoProxy(routes.noProxy);
    this.#makeProxy = makeProxy;
    this.#guard = guard;
  }

  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const target = new URL(String(opts.origin));
    const proxy = target.protocol === 'https:' ? this.#routes.https : this.#routes.http;
    if (proxy === undefined || this.#bypasses(target)) return this.#direct.dispatch(opts, handler);
    void this.#viaProxy(proxy, target, opts, handler);
    return true;
  }

  async close(): Promise<void> {
    await Promise.all([this.#direct.close(), ...[...this.#proxies.values()].map(async (proxy) => (await proxy).close())]);
  }

  async #viaProxy(proxy: string, target: URL, opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): Promise<void> {
    try {
      const refusal = await this.#judge(target.hostname);
      if (refusal !== undefined) {
        handler.onResponseError?.(undefined as unknown as Dispatcher.DispatchController, refusal);
        return;
      }
      const agent = await this.#proxyFor(proxy);
      // ProxyAgent writes `host` into the headers it is given: a copy, so that the
      // caller's (kept for the next hop, maybe frozen) stay as they are.
      agent.dispatch({ ...opts, headers: { ...(opts.headers as Record<string, string>) } }, proxyFailures(handler, proxy));
    } catch (error) {
      handler.onResponseError?.(undefined as unknown as Dispatcher.DispatchController, error as Error);
    }
  }

  #proxyFor(uri: string): Promise<Dispatcher> {
    let proxy = this.#proxies.get(uri);
    if (proxy === undefined) {
      this.#parts ??= loadProxyParts();
      proxy = this.#parts.then((parts) => this.#makeProxy(parts, uri));
      this.#proxies.set(uri, proxy);
    }
    return proxy;
  }

  /** undici's `NO_PROXY` rule (env-http-proxy-agent.js): the host or a subdomain of it, on the port if one is named. */
  #bypasses(target: URL): boolean {
    if (this.#noProxy === 'all') return true;
    if (this.#noProxy.length === 0) return false;
    const hostname = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port);
    return this.#noProxy.some(
      (entry) => (entry.port === 0 || entry.port === port) && (hostname === entry.hostname || hostname.endsWith(`.${entry.hostname}`)),
    );
  }

  /**
   * `PrivateAddressError` when the guard is on and the target's host is, or resolves
   * only to, a private address; else `undefined`. A name the local resolver cannot
   * resolve is left to the proxy (behind one, often only the proxy can).
   */
  #judge(hostname: string): Promise<Error | undefined> {
    const guard = this.#guard;
    if (guard === undefined) return Promise.resolve(undefined);
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (guard.trustedHosts.has(host)) return Promise.resolve(undefined);
    if (isIP(host) !== 0) {
      const refused = privateIpOf(host);
      return Promise.resolve(refused === undefined ? undefined : new PrivateAddressError(host, refused));
    }
    const now = performance.now();
    const known = this.#judgements.get(host);
    if (known !== undefined && known.until > now) return known.refusal;
    if (this.#judgements.size >= MAX_JUDGEMENTS) this.#judgements.clear();
    const refusal = new Promise<Error | undefined>((resolve) => {
      guardedLookup(guard)(host, { all: true }, (error) => {
        resolve(error !== null && (error as { code?: unknown }).code === 'ERR_FETCH_PRIVATE_ADDRESS' ? error : undefined);
      });
    });
    this.#judgements.set(host, { until: now + JUDGEMENT_TTL_MS, refusal });
    return refusal;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parseNoProxy(value: string): readonly NoProxyEntry[] | 'all' {
  if (value.trim() === '*') return 'all';
  const entries: NoProxyEntry[] = [];
  for (const entry of value.split(/[,\s]/)) {
    if (entry === '') continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    entries.push({
      hostname: (parsed === null ? entry : parsed[1]!).replace(/^\*?\./, '').replace(/^\[|\]$/g, '').toLowerCase(),
      port: parsed === null ? 0 : Number(parsed[2]),
    });
  }
  return entries;
}

/**
 * The handler with the failures that are the proxy's — it refused the connection or
 * could not be resolved, answered a CONNECT with another status than 200, asked for
 * credentials (407) — named `ProxyError`. A proxied request connects only to the
 * proxy: a refused connection or a name not found is the proxy's.
 */
function proxyFailures(handler: Dispatcher.DispatchHandler, proxy: string): Dispatcher.DispatchHandler {
  return {
    onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
    onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, headers, message),
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, asProxyError(error, proxy)),
  };
}

const PROXY_UNREACHABLE: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'UND_ERR_PRX_TLS']);

function asProxyError(error: Error, proxy: string): Error {
  const code = (error as { code?: unknown }).code;
  const host = proxyHostOf(proxy);
  if (typeof code === 'string' && PROXY_UNREACHABLE.has(code)) return new ProxyError(`the proxy ${host} could not be reached (${code})`, { cause: error });
  // undici: "Proxy response (407) !== 200 when HTTP Tunneling", "Proxy Authentication Required (407)".
  const status = /^Proxy (?:response \((\d{3})\)|Authentication Required \((407)\))/.exec(error.message);
  if (status !== null) return new ProxyError(`the proxy ${host} answered ${status[1] ?? status[2]}`, { cause: error });
  return error;
}
