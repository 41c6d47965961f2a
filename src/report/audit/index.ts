// The audit: findings about a crawl's links, pages and redirects, from its index.

export { SEVERITIES, type AuditFinding, type AuditFindings, type Severity } from './finding.js';
export {
  AUDIT_CODES,
  AUDIT_CODE_LIST,
  PAGE_CODES_NOT_REPORTED,
  SEVERITY_RANK,
  isAuditCode,
  type AuditCode,
  type AuditCodeSpec,
} from './codes.js';
export { audit, AUDIT_DEFAULTS, type AuditOptions } from './audit.js';
export { redactPassword, redactPasswords } from '../redact.js';
export { formatAuditText, formatTargetGroupsText, positionText, terminalSafe, type AuditTextOptions } from './format-text.js';
export { formatAuditJson, auditFindingJson, targetGroupJson } from './format-json.js';
export { formatAuditCsv, AUDIT_CSV_HEADER, type AuditCsvOptions } from './format-csv.js';
export { filterFindings, findingTest, type FindingFilter, type FindingTest } from './finding-filter.js';
export { countInlinks, findingStatus, groupByTarget, targetKey, type TargetGroup, type TargetGroups } from './target-groups.js';
export { formatAuditSummary, summarizeFindings, type AuditSummary } from './audit-summary.js';
export { DIRECTORY_INDEX, parseSourceRoot, sourceFileOf, type SourceRoot } from './source-roots.js';
export { formatAuditSarif, sarifResult, sarifRules, SARIF_SCHEMA, SARIF_VERSION, type SarifBaselineState, type SarifOptions } from './format-sarif.js';
export { auditIdentities, compareFindings, findingIdentity, identityFinding, identityKey, type FindingChanges, type FindingComparison } from './since.js';
export { changedFindings, formatSinceCsv, formatSinceJson, formatSinceText, sinceSummary, SINCE_CSV_HEADER, type FindingChange } from './format-since.js';
