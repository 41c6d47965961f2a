// What the fetch layer gives the crawler. The crawler depends on these types only,
// so it can be tested with a fake Fetcher.

import type { OnExchange } from './wire-exchange.js';

/** The HTTP version a response came over, as ALPN names them: HTTP/1.1 (RFC 9112) or HTTP/2 (RFC 9113). */
export type HttpProtocol = 'http/1.1' | 'h2';

/** One hop of a redirect chain, as the server sent it (Location resolved against the request URL). */
export interface FetchHop {
  readonly from: string;
  /** `undefined` for a 3xx without (a valid) Location. */
  readonly to: string | undefined;
  readonly status: number;
}

/** The outcome of fetching one URL, redirects followed hop by hop. Never an exception. */
export interface FetchedResponse {
  /** The URL asked for. */
  readonly requestUrl: string;
  /** The URL of the last hop: the retrieval URL of RFC 3986 §5.1.3. */
  readonly finalUrl: string;
  readonly hops: readonly FetchHop[];
  /** Status of the last response; `undefined` when none came (network error, timeout). */
  readonly status: number | undefined;
  /** Response headers of the last response, names lower-cased, repeated ones joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type of Content-Type, lower-cased, without parameters. */
  readonly contentType: string | undefined;
  /** The charset used to decode `body` (from the header, a BOM or <meta>), lower-cased. */
  readonly charset: string | undefined;
  /** The decoded text, for HTML responses (text/html, application/xhtml+xml), Markdown (text/markdown, text/x-markdown) and stylesheets (text/css) only; never for HEAD. */
  readonly body: string | undefined;
  /**
   * The body's bytes (content codings undone), whatever its type, for a call with
   * `read: 'bytes'` (a sitemap, gzipped or not); absent otherwise.
   */
  readonly data?: Uint8Array | undefined;
  /** Bytes of the (decoded-from-gzip/deflate/br) body read. */
  readonly bytes: number;
  readonly startedAt: number;
  readonly durationMs: number;
  /** Why there is no usable response, or why the body is cut: a stable `ERR_FETCH_*` code. */
  readonly errorCode: string | undefined;
  /**
   * `true` when the caller's `beforeRedirect` stopped the chain (or failed, with
   * `ERR_FETCH_REDIRECT_HOOK_FAILED`): the last hop's `to` was not requested, and the
   * 3xx that named it is the response (`status`, `headers`, `finalUrl` its URL, no body).
   * Absent otherwise. Not an error: `errorCode` stays `undefined` for a plain stop.
   */
  readonly redirectStopped?: true;
  /** The method of the requests (`GET` unless the call asked for `HEAD`); absent from a fetcher that does not say. */
  readonly method?: HttpMethod;
  /**
   * The protocol the last response came over: `h2` when the server chose HTTP/2 by
   * ALPN (RFC 9113 §3.2), `http/1.1` otherwise; absent when no response came, and
   * from a fetcher that does not say (a folder read from disk).
   */
  readonly protocol?: HttpProtocol | undefined;
}

/** The methods a fetch may use: `HEAD` checks that a URL answers without its body (RFC 9110 §9.3.2). */
export type HttpMethod = 'GET' | 'HEAD';

/** A redirect about to be followed, as `beforeRedirect` sees it. */
export interface RedirectHop {
  /** The URL that answered with the redirect. */
  readonly from: string;
  /** The Location resolved against `from` (RFC 9110 §10.2.2): the URL that would be requested next. */
  readonly to: string;
  /** The 3xx status: 301, 302, 303, 307 or 308. */
  readonly status: number;
  /** Where this hop is in `FetchedResponse.hops`: 0 for the first redirect. */
  readonly hopIndex: number;
}

/** What `beforeRedirect` answers: request `to` (`'follow'`), or end the chain at this hop (`'stop'`). */
export type RedirectDecision = 'follow' | 'stop';

/**
 * Asked before each redirect target is requested, once the hop passed the fetcher's
 * own checks (a valid http(s) Location, no loop, within `maxRedirects`): hops that fail
 * those end with their own code and are not asked about. May be async. A throw, a
 * rejection or any other answer stops the chain with `ERR_FETCH_REDIRECT_HOOK_FAILED`.
 */
export type BeforeRedirect = (hop: RedirectHop) => RedirectDecision | Promise<RedirectDecision>;

/**
 * What an HTTP request was sent for: the first request of a page fetch, a redirect
 * hop of one, or robots.txt (its redirect hops included).
 */
export type RequestKind = 'page' | 'redirect' | 'robots';

/** One HTTP request, as it is sent. */
export interface SentRequest {
  readonly url: string;
  readonly kind: RequestKind;
}

/** Told of every HTTP request as it is sent (the crawl's "requests" count). Must not throw. */
export type OnRequest = (request: SentRequest) => void;

/** Per-call options of `Fetcher.fetch`. */
export interface FetchCallOptions {
  /**
   * `HEAD` asks for the head only (a link check): no body is read, redirects are
   * followed with HEAD too.
   * @default 'GET'
   */
  readonly method?: HttpMethod | undefined;
  /**
   * Told of each request this call sends: the first, then each redirect hop.
   * @default undefined
   */
  readonly onRequest?: OnRequest | undefined;
  /**
   * Vets each redirect before its target is requested: the crawler stops at a target it
   * already fetched, or at one it must not connect to.
   * @default undefined (every redirect the fetcher's checks allow is followed)
   */
  readonly beforeRedirect?: BeforeRedirect | undefined;
  /**
   * The validators of a representation fetched before (RFC 9110 §13.1): sent as
   * `If-None-Match` (the ETag) and `If-Modified-Since` (the Last-Modified) on the first
   * request only, never on a redirect hop (they belong to the URL that gave them).
   * A 304 Not Modified is then the response (status 304, no body).
   * @default undefined (an unconditional request)
   */
  readonly validators?: Validators | undefined;
  /**
   * Experimental, for archives (WARC): told of each hop's exchange as on the wire —
   * the request's fields as sent (credentials included), the raw response fields in
   * order, the body as received before content decoding (up to `maxBodyBytes`), the
   * peer's address. Nothing of it is kept without it.
   * @default undefined
   */
  readonly onExchange?: OnExchange | undefined;
  /**
   * `html`: only an HTML body is read and decoded (`body`); `bytes`: any body is read,
   * up to the same caps, and given as `data` (a sitemap).
   * @default 'html'
   */
  readonly read?: 'html' | 'bytes' | undefined;
}

/** A representation's validators as its response sent them (RFC 9110 §8.8). */
export interface Validators {
  readonly etag?: string | undefined;
  readonly lastModified?: string | undefined;
}

/** Fetches one URL. Implementations never throw for network or HTTP trouble. */
export interface Fetcher {
  fetch(url: string, signal?: AbortSignal, options?: FetchCallOptions): Promise<FetchedResponse>;
  /**
   * Whether `url` is answered without a network (a folder read from disk): no server to
   * be polite to, so its host gets no per-host limit or delay. Optional: absent, none is.
   */
  isLocal?(url: string): boolean;
}

/** robots.txt (RFC 9309) for the crawler's user-agent. */
export interface RobotsPolicy {
  /**
   * Whether the user-agent may fetch `url` (fetching and caching the origin's robots.txt as needed).
   * `options.onRequest` is told of each request sent for robots.txt while answering.
   */
  isAllowed(url: string, options?: RobotsCallOptions): Promise<boolean>;
  /** The origin's Crawl-delay in milliseconds, once its robots.txt has been read. */
  crawlDelayMs(url: string): number | undefined;
  /**
   * What became of the robots.txt of `url`'s origin, once asked: a crawler that
   * can tell `unreachable` (RFC 9309 §2.3.1.4) from a disallow treats it as the
   * host's outage, not as the URL's verdict. Optional.
   */
  robotsFile?(url: string): RobotsFileState | undefined;
}

/** What a RobotsPolicy tells of one origin's robots.txt (`RobotsFile` of createRobotsPolicy). */
export interface RobotsFileState {
  /** `scheme://host[:port]/robots.txt` */
  readonly url: string;
  /** RFC 9309 §2.3.1: `parsed` (2xx), `unavailable` (4xx: all allowed), `unreachable` (5xx, 429, network failure: all disallowed). */
  readonly verdict: 'parsed' | 'unavailable' | 'unreachable';
  /** The status of the last response, `undefined` when none came. */
  readonly status: number | undefined;
  /** Why the fetch failed, if it did. */
  readonly errorCode: string | undefined;
  /** The absolute URLs of its `Sitemap:` lines, each once, in order (a parsed file only). Optional. */
  readonly sitemaps?: readonly string[] | undefined;
}

/** Per-call options of `RobotsPolicy.isAllowed`. */
export interface RobotsCallOptions {
  /** @default undefined */
  readonly onRequest?: OnRequest | undefined;
  /**
   * Experimental, as `FetchCallOptions.onExchange`: each robots.txt exchange this call
   * sends (none when the file is cached, or fetched for another caller).
   * @default undefined
   */
  readonly onExchange?: OnExchange | undefined;
}

/**
 * What a RobotsCache keeps of one origin's robots.txt: the facts the decision is
 * rebuilt from without a request (RFC 9309 §2.4). Plain data, for a database row.
 */
export interface RobotsCacheEntry {
  /** When it was fetched, ms since the epoch: its age counts from here. */
  readonly fetchedAt: number;
  /** The status of the last response (after redirects); `undefined` when none came. */
  readonly status: number | undefined;
  /** The `ERR_FETCH_*` code the fetch ended with (`ERR_FETCH_BODY_TOO_LARGE`, a redirect failure …), if any. */
  readonly errorCode: string | undefined;
  /**
   * The robots.txt text of a 2xx, decoded as UTF-8: at most the policy's `maxBytes`
   * bytes of the file, so at most `maxBytes` UTF-16 code units. `undefined` for any other status.
   */
  readonly body: string | undefined;
}

/**
 * Where a RobotsPolicy keeps robots.txt across runs, keyed by origin
 * (`scheme://host[:port]`, scheme and host lower-cased, default port dropped, as
 * `http://example.com` or `http://127.0.0.1:8080`). Synchronous, like the index.
 */
export interface RobotsCache {
  /** The entry stored for `origin`, fresh or not (the policy judges its age), or `undefined`. */
  get(origin: string): RobotsCacheEntry | undefined | Promise<RobotsCacheEntry | undefined>;
  /** Store (replace) the entry of `origin`; a promise it returns is awaited (a `Map` is a RobotsCache too). */
  set(origin: string, entry: RobotsCacheEntry): unknown;
}
