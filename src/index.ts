// linkladder's library API. Everything not exported here is internal.

export {
  parse,
  tryParse,
  resolve,
  tryResolve,
  normalize,
  tryNormalize,
  compare,
  tryCompare,
  iriToUri,
  tryIriToUri,
  type ResolveOptions,
} from './api.js';
export {
  serialize,
  removeDotSegments,
  normalizePercentEncoding,
  isIPv4Address,
  isIPv6Address,
  ipv6ToCanonicalText,
  type UriReference,
  type AbsoluteUri,
  type Result,
  type UriSyntaxError,
  type ErrorSubject,
} from './uri/index.js';
export {
  RUNGS,
  SCHEMES,
  AliasMap,
  ALIAS_EVIDENCE,
  resourceKey,
  type Rung,
  type SyntacticRung,
  type SchemeSpec,
  type NormalizeOptions,
  type Comparison,
  type CompareOptions,
  type AliasEdge,
  type AliasEvidence,
  type AliasMapOptions,
  type AliasResolution,
} from './ladder/index.js';
export { openIndex, type OpenIndexOptions } from './open-index.js';
export {
  crawl,
  explain,
  CrawlError,
  type CrawlOptions,
  type CrawlSummary,
  type CrawlEvent,
  type Explanation,
} from './crawl/index.js';
export {
  createFetcher,
  createRobotsPolicy,
  type Fetcher,
  type FetchedResponse,
  type FetcherOptions,
  type RobotsPolicy,
} from './fetch/index.js';
export { computeBaseChain, isSameDocumentReference, type BaseChain, type ResponseFacts } from './base/index.js';
export { extractLinks, cleanHref } from './html/index.js';
export type {
  IndexStore,
  AdmitEntry,
  AdmitResult,
  AliasRecord,
  BaseLevel,
  ClaimedUrl,
  FetchRecord,
  MatchRung,
  RedirectHop,
  StoreStats,
  UrlRecord,
  UrlState,
} from './store/index.js';
export {
  ERROR_MESSAGES,
  LinkladderError,
  UriError,
  OptionError,
  StoreError,
  type ErrorCode,
  type UriErrorCode,
} from './errors.js';
