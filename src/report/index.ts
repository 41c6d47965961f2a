// The report layer: graph export, statistics and the HTML report (and the audit).

// --- graph, statistics and HTML report --------------------------------------
export {
  exportGraph,
  readGraph,
  GRAPH_FORMATS,
  GRAPH_WRITERS,
  StreamWriter,
  type ExportGraphOptions,
  type GraphEdge,
  type GraphForm,
  type GraphFormat,
  type GraphNode,
  type GraphSource,
  type GraphWriter,
  type ReadGraphOptions,
} from './graph/index.js';
export { collectStats, formatStats, FETCHES_SAVED_DEFINITION, LINKS_NOT_FETCHED_DEFINITION, type CrawlStats, type FoldedByRung } from './stats/index.js';
export { writeHtmlReport, type HtmlReportOptions, type HtmlReportSummary } from './html/index.js';
// --- end of graph, statistics and HTML report --------------------------------

// --- audit --------------------------------------------------------------------
export {
  audit,
  AUDIT_CODES,
  AUDIT_CODE_LIST,
  AUDIT_CSV_HEADER,
  AUDIT_DEFAULTS,
  PAGE_CODES_NOT_REPORTED,
  SARIF_SCHEMA,
  SARIF_VERSION,
  SEVERITIES,
  SEVERITY_RANK,
  auditFindingJson,
  countInlinks,
  filterFindings,
  findingTest,
  formatAuditCsv,
  formatAuditJson,
  formatAuditSarif,
  formatAuditSummary,
  formatAuditText,
  formatTargetGroupsText,
  groupByTarget,
  isAuditCode,
  parseSourceRoot,
  positionText,
  sourceFileOf,
  summarizeFindings,
  targetGroupJson,
  redactPassword,
  redactPasswords,
  terminalSafe,
  type AuditCode,
  type AuditCodeSpec,
  type AuditFinding,
  type AuditFindings,
  type AuditOptions,
  type AuditSummary,
  type FindingFilter,
  type SarifOptions,
  type SourceRoot,
  type TargetGroup,
  type TargetGroups,
  type Severity,
} from './audit/index.js';
// --- end of audit ---------------------------------------------------------------
