// What the fetch layer gives the crawler. The crawler depends on these types only,
// so it can be tested with a fake Fetcher.

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
  /** The decoded text, for HTML responses only (text/html, application/xhtml+xml). */
  readonly body: string | undefined;
  /** Bytes of the (decoded-from-gzip/deflate/br) body read. */
  readonly bytes: number;
  readonly startedAt: number;
  readonly durationMs: number;
  /** Why there is no usable response, or why the body is cut: a stable `ERR_FETCH_*` code. */
  readonly errorCode: string | undefined;
}

/** Fetches one URL. Implementations never throw for network or HTTP trouble. */
export interface Fetcher {
  fetch(url: string, signal?: AbortSignal): Promise<FetchedResponse>;
}

/** robots.txt (RFC 9309) for the crawler's user-agent. */
export interface RobotsPolicy {
  /** Whether the user-agent may fetch `url` (fetching and caching the origin's robots.txt as needed). */
  isAllowed(url: string): Promise<boolean>;
  /** The origin's Crawl-delay in milliseconds, once its robots.txt has been read. */
  crawlDelayMs(url: string): number | undefined;
}
