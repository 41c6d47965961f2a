// The reports of `check` for CI: JUnit XML, GitHub workflow commands and a Markdown summary.

export type { CheckFinding, Verdict } from './check-finding.js';
export { formatCheckJunit, type CheckJunitOptions } from './format-junit.js';
export { formatCheckGithub, githubCommand, type CheckGithubOptions } from './format-github.js';
export { formatCheckMarkdown, markdownText, GITHUB_COMMENT_MAX_LENGTH, type CheckMarkdownSummary } from './format-markdown.js';
