// linkladder's library API. Everything not exported here is internal. Three parts of it
// are also subpath exports, each loading only what it needs: linkladder/uri
// (entry/uri.ts), linkladder/index (entry/index-api.ts), linkladder/crawl (entry/crawl.ts).
// In reading order: the URI core (RFC 3986), the comparison ladder (§6.2), the base
// chain and link extraction, the index, the crawler (and its fetcher), the reports,
// and the errors.

// ── The URI core (RFC 3986, RFC 3987) and the ladder (§6.2): `linkladder/uri` ──
export * from './entry/uri.js';

// ── Pages: the base URI chain (§5.1) and the links of an HTML page ──
export { computeBaseChain, isSameDocumentReference, type BaseChain, type ResponseFacts } from './base/index.js';
export { extractLinks, cleanHref } from './html/index.js';

// ── The index: the dedup store a crawl writes, and its read-only view: `linkladder/index` ──
export * from './entry/index-api.js';

// ── The crawler: crawl(seed, options), as `linkladder crawl`; its fetcher and robots.txt: `linkladder/crawl` ──
export * from './entry/crawl.js';

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
