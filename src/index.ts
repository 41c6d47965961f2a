// linkladder's library API. Everything not exported here is internal.
// In reading order: the URI core (RFC 3986), the comparison ladder (§6.2), the base
// chain and link extraction, the index, the crawler (and its fetcher), the reports,
// and the errors.

// ── The URI core: parse, resolve, normalize, compare (RFC 3986, RFC 3987) ──
export {
  parse,
  tryParse,
  resolve,
  tryResolve,
  resolverFor,
  type BoundResolver,
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

// ── The ladder: rungs, schemes and the protocol rung's aliases (§6.2) ──
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

// ── Pages: the base URI chain (§5.1) and the links of an HTML page ──
export { computeBaseChain, isSameDocumentReference, type BaseChain, type ResponseFacts } from './base/index.js';
export { extractLinks, cleanHref } from './html/index.js';

// ── The index: the dedup store a crawl writes, and its read-only view ──
export { openIndex, openIndexReader, type OpenIndexOptions } from './open-index.js';
export type {
  IndexWriter,
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
  UrlHistory,
  IndexReader,
  UrlRow,
  LinkRow,
  EdgeRow,
  FetchRow,
  AliasRow,
  FormRow,
  Funnel,
} from './store/index.js';

// ── The crawler: crawl(seed, options), as `linkladder crawl`; its fetcher and robots.txt ──
export { crawl, type CrawlOptions } from './api.js';
export { explain, CrawlError, type CrawlSummary, type CrawlEvent, type Explanation } from './crawl/index.js';
export {
  createFetcher,
  createRobotsPolicy,
  type Fetcher,
  type FetchedResponse,
  type FetcherOptions,
  type FetchCallOptions,
  type BeforeRedirect,
  type RobotsPolicy,
  type RobotsCache,
  type RobotsCacheEntry,
} from './fetch/index.js';

// ── Reports on a crawl's index: audit, graph, statistics, HTML ──
export {
  audit,
  formatAuditText,
  formatAuditJson,
  formatAuditCsv,
  formatAuditSarif,
  exportGraph,
  collectStats,
  writeHtmlReport,
  type AuditFinding,
  type AuditFindings,
  type AuditOptions,
  type Severity,
  type GraphFormat,
  type ExportGraphOptions,
  type CrawlStats,
  type HtmlReportOptions,
} from './report/index.js';

// ── Errors: one base class, stable codes (docs/errors.md) ──
export {
  ERROR_MESSAGES,
  LinkladderError,
  UriError,
  OptionError,
  StoreError,
  type ErrorCode,
  type UriErrorCode,
} from './errors.js';
