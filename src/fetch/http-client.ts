// One URL fetched with undici, redirects followed by hand, hop by hop (RFC 9110 §15.4),
// each hop recorded; every failure becomes a FetchedResponse with an ERR_FETCH_* code.

import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FetchErrorCode } from '../errors.js';
import { classifyError } from './classify-error.js';
import type { RequestCredentials } from './credentials.js';
import { isCssMediaType, isHtmlMediaType, isMarkdownMediaType, parseContentType } from './content-type.js';
import { decodeCss, decodeHtml, decodeMarkdown, decodeUtf8 } from './decode-body.js';
import { createDispatcher, type DispatcherOptions, type RequestDispatcher } from './dispatcher.js';
import { decodeBody, parseContentEncoding, plainBody } from './read-body.js';
import { CUT_CODES, HopSignal, RequestDeadline } from './request-deadline.js';
import { FOLLOWED_REDIRECT_STATUSES } from './redirect-statuses.js';
import { resolveLocation, toRequestTarget, type RequestTarget } from './request-target.js';
import { ResponseSink, type ResponseHead } from './response-sink.js';
import type { OnExchange, WireExchange } from './wire-exchange.js';
import type { BeforeRedirect, FetchHop, FetchedResponse, HttpMethod, OnRequest, RedirectHop, RequestKind, Validators } from './types.js';

/** The content codings asked for: exactly those `decodeBody` undoes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** At most this much of a body not wanted (a redirect's, an image's) is read to keep the connection… */
const DISCARD_LIMIT = 16 * 1024;
/** …and for at most this long. */
const DISCARD_WAIT_MS = 500;

/** What the client is made with: its dispatcher's options (dispatcher.ts), and what it sends. */
export interface HttpClientOptions extends DispatcherOptions {
  readonly userAgent: string;
  readonly now: () => number;
  /** Header fields, Basic auth and cookies, asked per hop by that hop's origin and URL. @default none */
  readonly credentials?: RequestCredentials | undefined;
}

/** What one retrieval does with redirects and bodies. */
export interface RetrievePolicy {
  readonly maxRedirects: number;
  readonly maxBodyBytes: number;
  readonly maxDecodedBytes: number;
  readonly bodyTimeoutMs: number;
  /** One deadline for the whole retrieval: every hop, from connecting to the last body byte. */
  readonly requestTimeoutMs: number;
  /** The least transfer rate of a body read, checked over each `rateWindowMs`; 0: none. */
  readonly minBytesPerSecond: number;
  readonly rateWindowMs: number;
  /** The Accept header. */
  readonly accept: string;
  /**
   * `html`: decode only HTML bodies, their encoding sniffed, and stylesheets (CSS Syntax 3
   * §3.2); other bodies are not read.
   * `utf-8`: decode every body as UTF-8 (robots.txt, RFC 9309 §2.3).
   * `bytes`: read every body, undecoded, as `data` (a sitemap).
   */
  readonly decode: 'html' | 'utf-8' | 'bytes';
  /** What the requests are for: `page` (its hops are `redirect`), or `robots` (hops included). */
  readonly purpose: 'page' | 'robots';
}

/** What one caller brings to one retrieval. */
export interface RetrieveCall {
  readonly signal?: AbortSignal | undefined;
  readonly beforeRedirect?: BeforeRedirect | undefined;
  /** Told of each request as it is sent. */
  readonly onRequest?: OnRequest | undefined;
  /** Sent as If-None-Match / If-Modified-Since on the first request only (RFC 9110 §13.1). */
  readonly validators?: Validators | undefined;
  /** @default 'GET' */
  readonly method?: HttpMethod | undefined;
  /** Told of each hop's exchange as on the wire, once it is over. @default undefined (nothing of it is kept) */
  readonly onExchange?: OnExchange | undefined;
}

type FinalFields = Pick<
  FetchedResponse,
  'finalUrl' | 'status' | 'headers' | 'contentType' | 'charset' | 'body' | 'data' | 'bytes' | 'errorCode' | 'redirectStopped' | 'protocol'
>;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** An undici dispatcher (connection pools, a proxy) and the requests made through it. */
export class HttpClient {
  readonly #agent: RequestDispatcher;
  readonly #userAgent: string;
  readonly #now: () => number;
  readonly #credentials: RequestCredentials | undefined;

  constructor(options: HttpClientOptions) {
    this.#agent = createDispatcher(options);
    this.#userAgent = options.userAgent;
    this.#now = options.now;
    this.#credentials = options.credentials;
  }

  /** Close the pool: open connections end once their requests are done. */
  close(): Promise<void> {
    return this.#agent.close();
  }

  /** Fetch `url`, following redirects by hand. Never throws. */
  async retrieve(url: string, policy: RetrievePolicy, call: RetrieveCall = {}): Promise<FetchedResponse> {
    const startedAt = this.#now();
    const started = performance.now();
    const hops: FetchHop[] = [];
    let final: FinalFields;
    const deadline = new RequestDeadline(call.signal, policy.requestTimeoutMs);
    try {
      final = await this.#follow(url, hops, policy, call, deadline);
    } catch (error) {
      // Not expected: every known failure is handled below. The crawl goes on regardless.
      final = failed(url, classifyError(error));
    } finally {
      deadline.dispose();
    }
    return Object.freeze({
      requestUrl: url,
      ...final,
      method: call.method ?? 'GET',
      hops: Object.freeze(hops),
      startedAt,
      durationMs: Math.round(performance.now() - started),
    });
  }

  async #follow(
    url: string,
    hops: FetchHop[],
    policy: RetrievePolicy,
    { beforeRedirect, onRequest, validators, method = 'GET', onExchange }: RetrieveCall,
    deadline: RequestDeadline,
  ): Promise<FinalFields> {
    const first = toRequestTarget(url);
    if (!first.ok) return failed(url, first.code);
    let target = first.target;
    const seen = new Set([target.key]);
    const requestHeaders = {
      'user-agent': this.#userAgent,
      accept: policy.accept,
      'accept-encoding': ACCEPT_ENCODING,
    };
    // RFC 9110 §13.1.2, §13.1.3: the validators of the URL asked for, not of a hop's target.
    const conditional = conditionalHeaders(requestHeaders, validators);
    for (;;) {
      if (deadline.reason !== undefined) return failed(target.url, CUT_CODES[deadline.reason]);
      const hop = new HopSignal(deadline);
      // Only with `onExchange`: the hop's request, and its outcome once known.
      let sent: SentExchange | undefined;
      let outcome: string | undefined;
      try {
        const own = hops.length === 0 ? conditional : requestHeaders;
        const headers = this.#credentials === undefined ? own : withCredentials(own, this.#credentials, target);
        const startedAt = onExchange === undefined ? 0 : this.#now();
        const sink = this.#send(target, method, requestKind(policy, hops.length), headers, hop.signal, policy.maxBodyBytes, onRequest, onExchange !== undefined);
        if (onExchange !== undefined) sent = { url: target.url, sink, headers, startedAt };
        let head: ResponseHead;
        try {
          head = await sink.head;
        } catch (error) {
          const code = hop.reason === undefined ? classifyError(error) : CUT_CODES[hop.reason];
          outcome = code;
          return failed(target.url, code);
        }
        hop.startBodyDeadline(policy.bodyTimeoutMs);
        // RFC 6265 §5.3: each hop's cookies, a redirect's included (a login sets the session on its 302).
        keepSetCookies(this.#credentials, target.url, head.headers['set-cookie']);
        const status = head.status;
        const { protocol } = sink;
        const answered = { finalUrl: target.url, status, headers: flattenHeaders(head.headers), ...(protocol === undefined ? {} : { protocol }) };
        let errorCode: FetchErrorCode | undefined;
        if (FOLLOWED_REDIRECT_STATUSES.has(status)) {
          const location = firstValue(head.headers.location);
          if (location === undefined) {
            // Recorded as such and not followed; the response is the last one.
            hops.push(Object.freeze({ from: target.url, to: undefined, status }));
            errorCode = 'ERR_FETCH_REDIRECT_WITHOUT_LOCATION';
          } else {
            await discard(sink);
            const next = this.#redirect(target, location, status, hops, seen, policy);
            if (!next.ok) return { ...answered, ...NO_BODY, errorCode: (outcome = next.code) };
            const hopIndex = hops.length - 1;
            const decision = await askBeforeRedirect(beforeRedirect, { from: target.url, to: next.target.url, status, hopIndex });
            if (decision !== 'follow') {
              const stopped = stoppedBy(answered, decision);
              outcome = stopped.errorCode;
              return stopped;
            }
            target = next.target;
            continue;
          }
        }
        // RFC 9110 §15.4.5: a 304 answers a conditional request; to one without validators it names nothing to keep.
        if (status === 304 && own === requestHeaders) errorCode = 'ERR_FETCH_UNSOLICITED_NOT_MODIFIED';
        const read = method === 'HEAD' ? await this.#headOnly(sink, answered.headers) : await this.#readFinal(sink, answered.headers, policy, hop);
        outcome = errorCode ?? read.errorCode;
        return { ...answered, ...read, errorCode: outcome };
      } finally {
        hop.dispose();
        if (sent !== undefined) tellExchange(onExchange, method, sent, outcome);
      }
    }
  }

  /**
   * The one place an HTTP request is sent: whoever counts requests (the crawl's
   * "requests") is told here, so that every request is counted, whatever sends it.
   */
  #send(
    target: RequestTarget,
    method: HttpMethod,
    kind: RequestKind,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal,
    maxBodyBytes: number,
    onRequest: OnRequest | undefined,
    isCapturing: boolean,
  ): ResponseSink {
    try {
      onRequest?.({ url: target.url, kind });
    } catch {
      // A counter that throws does not stop the request.
    }
    const sink = new ResponseSink(signal, maxBodyBytes, { method, path: target.path, isCapturing });
    this.#agent.dispatch({ origin: target.origin, path: target.path, method, headers }, sink);
    return sink;
  }

  /** One hop: record it, then decide whether it is followed. */
  #redirect(
    from: RequestTarget,
    location: string,
    status: number,
    hops: FetchHop[],
    seen: Set<string>,
    policy: RetrievePolicy,
  ): { readonly ok: true; readonly target: RequestTarget } | { readonly ok: false; readonly code: FetchErrorCode } {
    const resolved = resolveLocation(location, from.parsed);
    hops.push(Object.freeze({ from: from.url, to: resolved.ok ? resolved.url : undefined, status }));
    if (!resolved.ok) return { ok: false, code: 'ERR_FETCH_BAD_LOCATION' };
    if (!resolved.target.ok) return resolved.target;
    const next = resolved.target.target;
    if (seen.has(next.key)) return { ok: false, code: 'ERR_FETCH_REDIRECT_LOOP' };
    if (hops.length > policy.maxRedirects) return { ok: false, code: 'ERR_FETCH_TOO_MANY_REDIRECTS' };
    seen.add(next.key);
    return { ok: true, target: next };
  }

  /** RFC 9110 §9.3.2: a HEAD response has no content (what a faulty server sends anyway is dropped). */
  async #headOnly(sink: ResponseSink, headers: Readonly<Record<string, string>>): Promise<Omit<FinalFields, 'finalUrl' | 'status' | 'headers'>> {
    await discard(sink);
    return { ...NO_BODY, contentType: parseContentType(headers['content-type']).mediaType };
  }

  async #readFinal(
    sink: ResponseSink,
    headers: Readonly<Record<string, string>>,
    policy: RetrievePolicy,
    hop: HopSignal,
  ): Promise<Omit<FinalFields, 'finalUrl' | 'status' | 'headers'>> {
    const { mediaType, charset } = parseContentType(headers['content-type']);
    const isCss = isCssMediaType(mediaType);
    const isMarkdown = isMarkdownMediaType(mediaType);
    if (policy.decode === 'html' && !isHtmlMediaType(mediaType) && !isCss && !isMarkdown) {
      // Not wanted: not read (beyond what keeps the connection, when it is small).
      await discard(sink);
      return { ...NO_BODY, contentType: mediaType };
    }
    const codings = parseContentEncoding(headers['content-encoding']);
    if (codings === undefined) {
      sink.close();
      return { ...NO_BODY, contentType: mediaType, errorCode: 'ERR_FETCH_CONTENT_ENCODING' };
    }
    const onWireBytes = hop.watchRate(policy.minBytesPerSecond, policy.rateWindowMs);
    const read =
      codings.length === 0
        ? // An uncoded body is its decoded self: not read past the smaller cap.
          plainBody(await sink.read({ maxBytes: Math.min(policy.maxBodyBytes, policy.maxDecodedBytes), onWireBytes }))
        : await decodeBody(sink.stream({ onWireBytes }), codings, policy, () => sink.close());
    let errorCode = read.errorCode;
    // Cut by a clock (a deadline, the rate, the caller): that is why, not the error the cut raised.
    if (errorCode !== undefined && errorCode !== 'ERR_FETCH_BODY_TOO_LARGE' && hop.reason !== undefined) errorCode = CUT_CODES[hop.reason];
    if (errorCode === 'ERR_FETCH_CONTENT_ENCODING') {
      return { ...NO_BODY, contentType: mediaType, bytes: read.data.length, errorCode };
    }
    if (policy.decode === 'bytes') return { ...NO_BODY, contentType: mediaType, data: read.data, bytes: read.data.length, errorCode };
    const decoded =
      policy.decode === 'utf-8'
        ? decodeUtf8(read.data)
        : isCss
          ? decodeCss(read.data, charset)
          : isMarkdown
            ? decodeMarkdown(read.data, charset)
            : decodeHtml(read.data, charset);
    return {
      contentType: mediaType,
      charset: decoded.charset,
      body: decoded.text,
      bytes: read.data.length,
      errorCode,
    };
  }
}

/** A hop's request, kept for its exchange (the target moves on before the hop is told). */
interface SentExchange {
  readonly url: string;
  readonly sink: ResponseSink;
  readonly headers: Readonly<Record<string, string>>;
  readonly startedAt: number;
}

/**
 * The hop's exchange as on the wire, once it is over (its body read, kept or dropped).
 * The sink still holds the body's chunks as received, before any decoding.
 */
function tellExchange(
  onExchange: OnExchange | undefined,
  method: HttpMethod,
  sent: SentExchange,
  errorCode: string | undefined,
): void {
  const { sink } = sent;
  const capture = sink.capture;
  if (onExchange === undefined || capture === undefined) return;
  const hasHead = capture.status !== undefined;
  const { chunks, isCut } = sink.received();
  const exchange: WireExchange = Object.freeze({
    method,
    url: sent.url,
    httpVersion: capture.requestHeaders === undefined ? undefined : sink.protocol === 'h2' ? '2' : '1.1',
    requestHeaders: Object.freeze(capture.requestHeaders ?? Object.entries(sent.headers).map(([name, value]) => [name, value] as const)),
    status: capture.status,
    statusText: capture.statusText,
    responseHeaders: Object.freeze(capture.responseHeaders),
    body: hasHead ? new Uint8Array(Buffer.concat(chunks)) : new Uint8Array(0),
    isCut: hasHead && isCut,
    remoteAddress: capture.remoteAddress,
    startedAt: sent.startedAt,
    errorCode,
  });
  try {
    onExchange(exchange);
  } catch {
    // An archive that throws does not stop the fetch.
  }
}

/** The request's header fields with the validators' conditional ones (RFC 9110 §13.1.2, §13.1.3). */
function conditionalHeaders(headers: Readonly<Record<string, string>>, validators: Validators | undefined): Readonly<Record<string, string>> {
  if (validators?.etag === undefined && validators?.lastModified === undefined) return headers;
  return {
    ...headers,
    ...(validators.etag === undefined ? {} : { 'if-none-match': validators.etag }),
    ...(validators.lastModified === undefined ? {} : { 'if-modified-since': validators.lastModified }),
  };
}

/**
 * The request's fields with the credentials for this hop's origin and URL: a field
 * given for the origin replaces the fetcher's own of that name (a `User-Agent` the
 * site's gate expects); a `Cookie` given as a field goes before the jar's cookies.
 */
function withCredentials(
  headers: Readonly<Record<string, string>>,
  credentials: RequestCredentials,
  target: RequestTarget,
): Readonly<Record<string, string>> {
  const given = credentials.headersFor(target.origin);
  const cookie = credentials.cookieHeader(target.url);
  if (Object.keys(given).length === 0 && cookie === undefined) return headers;
  // Null-prototype: a field named `__proto__` is a field like any other.
  const merged = Object.assign(Object.create(null) as Record<string, string>, headers, given);
  if (cookie !== undefined) merged.cookie = merged.cookie === undefined ? cookie : `${merged.cookie}; ${cookie}`;
  return merged;
}

function keepSetCookies(credentials: RequestCredentials | undefined, url: string, setCookie: string | string[] | undefined): void {
  if (credentials === undefined || setCookie === undefined) return;
  try {
    credentials.keepCookies(url, Array.isArray(setCookie) ? setCookie : [setCookie]);
  } catch {
    // Credentials given by a caller that throw do not stop the fetch.
  }
}

const NO_BODY = Object.freeze({
  contentType: undefined,
  charset: undefined,
  body: undefined,
  bytes: 0,
  errorCode: undefined,
});

/** The kind of the request sent after `hopsSoFar` redirects. */
function requestKind(policy: RetrievePolicy, hopsSoFar: number): RequestKind {
  if (policy.purpose === 'robots') return 'robots';
  return hopsSoFar === 0 ? 'page' : 'redirect';
}

/**
 * The caller's word on a hop the fetcher would follow. `failed`: the hook threw,
 * rejected or answered something else; the chain stops there all the same.
 */
async function askBeforeRedirect(
  beforeRedirect: BeforeRedirect | undefined,
  hop: RedirectHop,
): Promise<'follow' | 'stop' | 'failed'> {
  if (beforeRedirect === undefined) return 'follow';
  try {
    const decision: unknown = await beforeRedirect(Object.freeze(hop));
    return decision === 'follow' || decision === 'stop' ? decision : 'failed';
  } catch {
    return 'failed';
  }
}

/** The 3xx whose target the caller declined: the response, its hop recorded, its target not requested. */
function stoppedBy(answered: Pick<FinalFields, 'finalUrl' | 'status' | 'headers'>, decision: 'stop' | 'failed'): FinalFields {
  const errorCode = decision === 'failed' ? 'ERR_FETCH_REDIRECT_HOOK_FAILED' : undefined;
  return { ...answered, ...NO_BODY, errorCode, redirectStopped: true };
}

function failed(finalUrl: string, errorCode: FetchErrorCode): FinalFields {
  return { finalUrl, status: undefined, headers: NO_HEADERS, ...NO_BODY, errorCode };
}

/**
 * Read and drop a body nobody needs (a redirect's, an image's) when it is small and
 * quick, so the connection can be reused; a larger or slower one closes it.
 */
async function discard(sink: ResponseSink): Promise<void> {
  const timer = setTimeout(() => sink.close(), DISCARD_WAIT_MS);
  try {
    await sink.read({ maxBytes: DISCARD_LIMIT });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Names lower-cased (undici does it); a repeated field joined with ", " (RFC 9110 §5.3);
 * trailing whitespace, which is not part of a value (RFC 9110 §5.5), dropped. Values
 * are otherwise kept as sent, malformed or not (Apache's ETag without its closing quote).
 */
function flattenHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    Object.defineProperty(flat, name.toLowerCase(), {
      value: Array.isArray(value) ? value.map(trimOws).join(', ') : trimOws(value),
      enumerable: true,
    });
  }
  return Object.freeze(flat);
}

function trimOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Location is a single value (RFC 9110 §10.2.2); of several, the first counts. */
function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
