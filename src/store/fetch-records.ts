// What the crawl records of a fetch: the URL it claimed, the redirect hops, the result.

import type { FetchMethod, FetchProtocol, UrlRole, Verdict } from './url-vocabulary.js';

export interface ClaimedUrl {
  readonly id: number;
  readonly key: string;
  readonly depth: number;
  readonly host: string | undefined;
  /** What the crawl does with it (`page` for a row written before migration 006). */
  readonly role: UrlRole;
}

export interface RedirectHop {
  readonly from: string;
  /** `undefined` for a 3xx without Location. */
  readonly to: string | undefined;
  readonly status: number;
}

/** What happened when a URL was fetched. */
export interface FetchRecord {
  readonly urlId: number;
  /** `done`: fetched (whatever the status); `failed`: no usable response. */
  readonly outcome: 'done' | 'failed';
  readonly startedAt: number;
  readonly durationMs?: number | undefined;
  readonly status?: number | undefined;
  readonly contentType?: string | undefined;
  readonly bytes?: number | undefined;
  readonly errorCode?: string | undefined;
  readonly finalUrl?: string | undefined;
  readonly redirects?: readonly RedirectHop[] | undefined;
  /**
   * How many requests this outcome took (retries included); 0: none, the answer was
   * taken from an earlier run's index (the crawl's verdict cache), `startedAt` being
   * when it was really asked. @default 1
   */
  readonly attempts?: number | undefined;
  /** Codes about the page itself (`HTML_*`, `BASE_*`). */
  readonly findings?: readonly string[] | undefined;
  /** The ids and anchor names of the page: what its URL's fragments may point to. */
  readonly anchors?: readonly string[] | undefined;
  /**
   * The URL whose representation this fetch stands for: the end of its redirect
   * chain (the URL the chain stopped at, when it was not followed), else `urlId`.
   */
  readonly representsUrlId?: number | undefined;
  /** The method of the request that gave this answer; `undefined` when no request was made. */
  readonly method?: FetchMethod | undefined;
  /** The response's `ETag` as sent (RFC 9110 §8.8.3): sent back as If-None-Match by a re-check, never a key. */
  readonly etag?: string | undefined;
  /** The response's `Last-Modified` as sent (RFC 9110 §8.8.2): sent back as If-Modified-Since by a re-check. */
  readonly lastModified?: string | undefined;
  /**
   * The request was answered 304 Not Modified (RFC 9110 §15.4.5): the record carries
   * the status, type, findings and anchors of the representation it revalidated.
   * @default false
   */
  readonly isNotModified?: boolean | undefined;
  /**
   * SHA-256 (base64url) of the body the crawl read, for a 2xx response that had one
   * (HTML and CSS): byte-identical representations under URLs the ladder did not
   * join are reported by it (DUPLICATE_REPRESENTATION, heuristic).
   */
  readonly digest?: string | undefined;
  /** The verdict on this answer, as the crawl judged it when it recorded it (`verdictOf`). */
  readonly verdict?: Verdict | undefined;
  /**
   * The protocol the response came over (`FetchedResponse.protocol`): `h2` when the
   * server chose HTTP/2 by ALPN; `undefined` when no response came, or none over HTTP.
   */
  readonly protocol?: FetchProtocol | undefined;
}
