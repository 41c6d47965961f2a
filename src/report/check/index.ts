// The findings of `linkladder check`: audit findings with a verdict and a file, and their formats.

export { checkSeverity, toCheckFinding, verdictOfFinding, type CheckFinding, type Verdict } from './check-finding.js';
export {
  CHECK_CSV_HEADER,
  CHECK_JSON_KEYS,
  checkFindingJson,
  checkSummaryLine,
  countCheckFindings,
  fileUri,
  formatCheckCsv,
  formatCheckJson,
  formatCheckSarif,
  formatCheckText,
  type CheckCounts,
  type CheckFindings,
  type CheckSarifOptions,
  type CheckTextOptions,
} from './format-check.js';
