// The crawler: p-queue scheduling with per-host limits, scope, depth, resume,
// protocol-rung evidence and progress events, over an IndexWriter and a Fetcher.

export { runCrawler } from './crawler.js';
export {
  CRAWL_DEFAULTS,
  crawlerOptionsOf,
  validateCrawlerOptions,
  validateSeeds,
  type CrawlerOptions,
  type CrawlRuntime,
  type CrawlSeeds,
  type ValidCrawlerOptions,
} from './crawler-options.js';
export {
  CONTENT_LOCATION_POLICIES,
  RENAMED_CRAWL_OPTIONS,
  cacheMaxAgeSetting,
  crawlOptionsSchema,
  sitemapSetting,
  type ContentLocationPolicy,
  type CrawlSettingsData,
  type CrawlSettingsInput,
  type CrawlSettingsOf,
} from './crawl-settings.js';
export { SETTING_META, integerAtLeast, integerBetween, isOn, oneOf, type SettingMeta } from './setting-kinds.js';
export { describeOptionIssue, optionPath, parseOptionData, valueAt } from './option-issues.js';
export type {
  CheckCounts,
  CrawlEvent,
  CrawlSummary,
  ErrorEvent,
  EvidenceEvent,
  HrefFindingReport,
  PageEvent,
  ProgressEvent,
  RequestCounts,
  StopReason,
} from './crawl-summary.js';
export { noRequests, requestTotal, type ContentEvidenceSummary } from './crawl-summary.js';
export type { UnreachableHost } from './host-breaker.js';
export type { HostPaceReport, PausedHost, SlowedHost } from './host-pace.js';
export { CrawlError, type CrawlErrorCode } from './crawl-error.js';
export { LinkRoles, NOT_CHECKED_RELS, linkUseOf, type LinkDecision, type LinkUse } from './link-role.js';
export { STYLESHEET_ELEMENT } from './stylesheet-links.js';
export { runOutcomeOf, runSettingsOf, seedOutcomes } from './crawl-run.js';
export { CrawlArchive, secretHeaderNamesOf, type ArchiveSummary, type ArchivedRecordData, type CrawlArchiveOptions } from './crawl-archive.js';
export { readPackageVersion } from './package-version.js';
export type { SeedOutcome } from './crawl-summary.js';
export { BROKEN_KINDS, brokenKindOf, errorCodeOf, errorKindOf, type BrokenKind, type ErrorKind } from './broken-links.js';
export {
  OUTCOME_TABLE,
  OUTCOMES,
  RETRY_STATUSES,
  MAX_RETRY_DELAY_MS,
  outcomeOf,
  outcomeOfResponse,
  retryDelayMs,
  retriesFor,
  SLOW_FAILURES,
  type Outcome,
  type TabledCode,
} from './outcome-table.js';
export { originKey } from './origin-key.js';
export { SCOPES, CRAWL_SCHEMES, ScopeTest, describeVerdict, type Scope, type ScopeRules, type ScopeVerdict } from './scope.js';
export { privateAddressOf, parseIPv4Number, isPrivateUrl, type PrivateAddress, type PrivateAddressKind } from './private-address.js';
export { credentialOptionsOf, fetcherOptionsOf, httpOptionsOf, type CredentialSources, type FetcherHttpOptions, type HttpOptions } from './http-options.js';
export { isNegotiatedVariant } from './negotiated-variant.js';
export {
  DEFAULT_CACHE_MAX_AGE_MS,
  EMPTY_VERDICT_CACHE,
  cachedFetchRecord,
  isFromCache,
  parseCacheMaxAge,
  readVerdictCache,
  type CachedAnswer,
  type VerdictCache,
  type VerdictCacheOptions,
} from './verdict-cache.js';
export { SECOND_PASS_DEFAULT_WAIT_MS } from './second-pass.js';
export { explain, type Explanation, type ExplainArchived, type ExplainScope, type ExplainVerdict } from './explain.js';
export { LINK_HEADER_ELEMENT, LINK_HEADER_ATTRIBUTE } from './page-links.js';
export {
  CODE_VERDICTS,
  DEFAULT_STATUS_POLICY,
  STATUS_POLICY_EXPECTED,
  VERDICTS,
  formatStatusPolicy,
  parseStatusPolicy,
  readStatusPolicy,
  verdictOf,
  checkedCounts,
  type CheckedCounts,
  verdictOfRow,
  withVerdict,
  type StatusPolicy,
  type Verdict,
  type VerdictFacts,
} from './verdict.js';
