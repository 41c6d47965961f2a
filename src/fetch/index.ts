// The fetch layer: HTTP with undici — redirects followed by hand and recorded hop by
// hop, timeouts, body and decompression caps, charset sniffing — and robots.txt.
// Never throws for network or HTTP trouble: a failure is a response with `errorCode`.
//
// Decisions (docs/errors.md lists the codes):
// - Redirects: 301, 302, 303, 307, 308 are followed (GET every time); 300 and 304 are
//   final. Loops compare resource keys (scheme rung, no fragment). The hop past
//   `maxRedirects`, a loop's closing hop and a hop to another scheme are recorded, not followed.
//   A hop that passes those checks is put to the caller's `beforeRedirect` (per call);
//   `'stop'` ends the chain there: the 3xx is the response, `redirectStopped: true`,
//   no error code (a hook that throws: the same, with ERR_FETCH_REDIRECT_HOOK_FAILED).
// - Timeouts have one code per phase: ERR_FETCH_CONNECT_TIMEOUT, _HEADERS_TIMEOUT,
//   _BODY_TIMEOUT. Connect and headers are undici's (its timers tick about every
//   half second, so they are kept to about a second); the body one is a whole-body
//   deadline of our own, counted from the headers of each hop. Over them, one
//   deadline for the whole request (ERR_FETCH_REQUEST_TIMEOUT) and a minimum
//   transfer rate of the body (ERR_FETCH_TOO_SLOW), see request-deadline.ts.
// - A body cut by a cap, the body deadline, a reset or the caller's abort keeps the
//   text read so far, with the code set: the crawler decides what to do with it.
//   Cut short on the wire (reset, closed early, fewer bytes than Content-Length) is
//   ERR_FETCH_BODY_TRUNCATED; `isBodyCut` names the codes of an incomplete body.
//   A body that does not decompress has no text (ERR_FETCH_CONTENT_ENCODING).
// - Only text/html and application/xhtml+xml are read; other bodies (and responses
//   without Content-Type) are not: `body` undefined, `bytes` 0, the connection closed
//   unless the body is small and quick (16 KiB, 500 ms), then it is drained for reuse.
// - Charset: BOM, then the Content-Type charset, then <meta> in the first 1024 bytes,
//   then UTF-8 (the BOM first, as in the HTML Standard). An unknown label is skipped,
//   never an error; `charset` is the WHATWG name (iso-8859-1 → windows-1252).
//   Stylesheets (text/css) are read too, decoded as CSS Syntax 3 §3.2 says (BOM,
//   charset, `@charset`, UTF-8), for their url() and @import. So is Markdown
//   (text/markdown, text/x-markdown): BOM, charset, UTF-8.
// - HEAD (`method: 'HEAD'`, a link check): no body is read; redirects use HEAD too.
// - robots.txt: 2xx parsed (up to 500 KiB); 4xx and redirect failures allow all;
//   5xx, 429, network errors and timeouts disallow all, for as long as the entry is
//   cached (24 h). Cached per origin, one request for concurrent callers; with a
//   `RobotsCache`, also across runs (RFC 9309 §2.4: for 24 h at most; an unreachable
//   robots.txt is not stored, so the next run asks again).

export type {
  BeforeRedirect,
  FetchCallOptions,
  FetchHop,
  FetchedResponse,
  Fetcher,
  HttpMethod,
  HttpProtocol,
  OnRequest,
  RequestKind,
  RobotsCallOptions,
  SentRequest,
  Validators,
  RedirectDecision,
  RedirectHop,
  RobotsCache,
  RobotsCacheEntry,
  RobotsPolicy,
  RobotsFileState,
} from './types.js';
export type { OnExchange, WireExchange, WireField, WireHttpVersion } from './wire-exchange.js';
export { ProxyError, proxyHostOf, proxyRoutesOf, type ProxyRoutes } from './dispatcher.js';
export { createFetcher, ACCEPT_HTML, ACCEPT_XML, type HttpFetcher } from './create-fetcher.js';
export {
  createFileFetcher,
  localRobots,
  FILE_FETCHER_DEFAULTS,
  FILE_MEDIA_TYPES,
  type FileFetcher,
  type FileFetcherOptions,
  type FileRoot,
} from './file-fetcher.js';
export {
  FETCHER_DEFAULTS,
  validateFetchCallOptions,
  validateFetcherOptions,
  type FetcherOptions,
  type ValidFetchCallOptions,
  type ValidFetcherOptions,
} from './fetcher-options.js';
export { ACCEPT_ENCODING } from './http-client.js';
export { FOLLOWED_REDIRECT_STATUSES, REDIRECTION_STATUSES, isRedirectionStatus } from './redirect-statuses.js';
export {
  createRobotsPolicy,
  robotsRuleFor,
  robotsVerdict,
  type HttpRobotsPolicy,
  type RobotsFile,
  type RobotsVerdict,
} from './robots-policy.js';
export {
  ROBOTS_DEFAULTS,
  validateRobotsPolicyOptions,
  type RobotsPolicyOptions,
  type ValidRobotsPolicyOptions,
} from './robots-options.js';
export {
  CSS_MEDIA_TYPE,
  HTML_MEDIA_TYPES,
  MARKDOWN_MEDIA_TYPES,
  isCssMediaType,
  isHtmlMediaType,
  isMarkdownMediaType,
  parseContentType,
  type ContentType,
} from './content-type.js';
export {
  DEFAULT_ENCODING,
  extractCharsetFromMeta,
  getEncoding,
  prescanForMetaCharset,
  sniffEncoding,
  type EncodingSource,
  type SniffedEncoding,
} from './sniff-encoding.js';
export { decodeCss, decodeHtml, decodeMarkdown, type DecodedText } from './decode-body.js';
export { BODY_CUT_CODES, CONTENT_CODINGS, isBodyCut, parseContentEncoding } from './read-body.js';
export { resolveLocation, toRequestTarget, FETCHED_SCHEMES, type RequestTarget } from './request-target.js';
export { classifyError } from './classify-error.js';
// Sitemaps (sitemaps.org protocol 0.9) and robots.txt Sitemap: lines: pure parsing.
export {
  SITEMAP_LIMITS,
  SITEMAP_MAX_DEPTH,
  SITEMAP_NAMESPACE,
  parseSitemap,
  sitemapsFromRobots,
  type ParsedSitemap,
  type RobotsSitemaps,
  type SitemapEntry,
  type SitemapFinding,
  type SitemapFindingCode,
  type SitemapKind,
  type SitemapOptions,
} from './sitemap.js';
export {
  privateAddressOf,
  privateIpOf,
  parseIPv4Number,
  type PrivateAddress,
  type PrivateAddressKind,
} from './private-address.js';
export { PrivateAddressError, guardedLookup, type AddressGuardOptions } from './address-guard.js';
export {
  createRequestCredentials,
  expandVariables,
  headerNameOf,
  requestOrigin,
  splitHeaderFor,
  splitSeedUserinfo,
  splitUserinfo,
  type CredentialOptions,
  type RequestCredentials,
} from './credentials.js';
export { parseCookiesTxt, type CookieLine } from './cookie-jar-file.js';
