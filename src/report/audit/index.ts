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
export { formatAuditText, terminalSafe } from './format-text.js';
export { formatAuditJson, auditFindingJson } from './format-json.js';
export { formatAuditCsv, AUDIT_CSV_HEADER } from './format-csv.js';
export { formatAuditSarif, sarifResult, sarifRules, SARIF_SCHEMA, SARIF_VERSION, type SarifOptions } from './format-sarif.js';
