// The self-contained HTML report of a crawl.

export { writeHtmlReport, type HtmlReportOptions, type HtmlReportSummary } from './write-html-report.js';
export { escapeHtml, scriptJson } from './html-escape.js';
export { STATUS_CLASSES, statusOf, type StatusClass, type UrlStatus } from './status-class.js';
