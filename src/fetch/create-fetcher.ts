// The crawler's Fetcher over undici.

import { HttpClient, type RetrievePolicy } from './http-client.js';
import { validateFetchCallOptions, validateFetcherOptions, type FetcherOptions } from './fetcher-options.js';
import type { FetchCallOptions, FetchedResponse, Fetcher } from './types.js';

/** A Fetcher that owns a connection pool. */
export interface HttpFetcher extends Fetcher {
  /**
   * Fetch `url` with GET, redirects followed hop by hop, each one first put to
   * `options.beforeRedirect` when given (or with HEAD: `options.method`). Never throws
   * for network or HTTP trouble: a failure is a response with `errorCode`. Only HTML
   * bodies and stylesheets (text/css) are read and decoded.
   * Rejects with `OptionError` only for bad `options`.
   */
  fetch(url: string, signal?: AbortSignal, options?: FetchCallOptions): Promise<FetchedResponse>;
  /** Close the connection pool once its requests are done. Fetches after it fail with `ERR_FETCH_NETWORK`. */
  close(): Promise<void>;
}

/** The Accept header of page fetches. */
export const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The Accept header of a `read: 'bytes'` fetch (sitemaps: XML, maybe gzipped). */
export const ACCEPT_XML = 'application/xml,text/xml;q=0.9,*/*;q=0.8';

/** Create a fetcher. Throws `OptionError` for a bad option, and nothing else, ever. */
export function createFetcher(options?: FetcherOptions): HttpFetcher {
  const valid = validateFetcherOptions(options);
  const client = new HttpClient(valid);
  const policy: RetrievePolicy = Object.freeze({
    maxRedirects: valid.maxRedirects,
    maxBodyBytes: valid.maxBodyBytes,
    maxDecodedBytes: valid.maxDecodedBytes,
    bodyTimeoutMs: valid.bodyTimeoutMs,
    requestTimeoutMs: valid.requestTimeoutMs,
    minBytesPerSecond: valid.minBytesPerSecond,
    rateWindowMs: valid.rateWindowMs,
    accept: ACCEPT_HTML,
    decode: 'html',
    purpose: 'page',
  });
  const bytesPolicy: RetrievePolicy = Object.freeze({ ...policy, accept: ACCEPT_XML, decode: 'bytes' });
  return Object.freeze({
    fetch: async (url: string, signal?: AbortSignal, options?: FetchCallOptions) => {
      const { method, beforeRedirect, onRequest, validators, read, onExchange } = validateFetchCallOptions(options);
      return client.retrieve(String(url), read === 'bytes' ? bytesPolicy : policy, { signal, beforeRedirect, onRequest, validators, method, onExchange });
    },
    close: () => client.close(),
  });
}
