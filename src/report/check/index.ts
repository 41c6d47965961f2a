// The findings of `linkladder check`: audit findings with a verdict and a file, and their formats.

export { checkSeverity, toCheckFinding, verdictOfFinding, type CheckFinding, type Verdict } from './check-finding.js';
// For CI: JUnit XML, GitHub workflow commands and a Markdown summary.
export { CHECK_CI_FORMATS, type CheckCiFormat } from './ci-formats.js';
export { formatCheckJunit, type CheckJunitOptions } from './format-junit.js';
export { formatCheckGithub, githubCommand, type CheckGithubOptions } from './format-github.js';
export { formatCheckMarkdown, markdownText, GITHUB_COMMENT_MAX_LENGTH, type CheckMarkdownSummary } from './format-markdown.js';
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
