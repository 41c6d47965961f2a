// linkladder's library API. Everything not exported here is internal. Three parts of it
// are also subpath exports, each loading only what it needs: linkladder/uri
// (entry/uri.ts), linkladder/index (entry/index-api.ts), linkladder/crawl (entry/crawl.ts).
// In reading order: the URI core (RFC 3986), the comparison ladder (§6.2), the base
// chain and link extraction, the index, the crawler (and its fetcher), the reports,
// and the errors.

// ── The URI core (RFC 3986, RFC 3987) and the ladder (§6.2): also `linkladder/uri` ──
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
} from './entry/uri.js';

// ── Pages: the base URI chain (§5.1) and the links of an HTML page ──
export { computeBaseChain, isSameDocumentReference, type BaseChain, type ResponseFacts } from './base/index.js';
export { extractLinks, cleanHref } from './html/index.js';

// ── The index: the dedup store a crawl writes, and its read-only view: also `linkladder/index` ──
export { openIndex, type OpenIndexOptions, openIndexReader } from './entry/index-api.js';
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
} from './entry/index-api.js';

// ── The crawler: crawl(seed, options), as `linkladder crawl`; its fetcher and robots.txt: also `linkladder/crawl` ──
export {
  crawl,
  type CrawlOptions,
  explain,
  CrawlError,
  type CrawlSummary,
  type CrawlEvent,
  type Explanation,
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
} from './entry/crawl.js';

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
