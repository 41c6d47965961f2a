// The findings of the html layer: what a page or an href does that a browser
// tolerates and RFC 3986 does not. They are returned, never thrown; the audit
// reports them by code. Codes are stable; the summaries are for people.

/** How much a finding matters to the audit. */
export type FindingSeverity = 'info' | 'warning' | 'error';

/** A finding's severity and its one-line explanation. */
export interface FindingSpec {
  readonly severity: FindingSeverity;
  readonly summary: string;
}

/**
 * Every finding code of the html layer. `HREF_*` come from `cleanHref` (one
 * attribute value), `HTML_*` from the link extractor (the page as a whole).
 */
export const HTML_FINDINGS = {
  HREF_SURROUNDING_WHITESPACE: {
    severity: 'warning',
    summary: 'leading or trailing C0 control or space removed, as the WHATWG URL parser strips it',
  },
  HREF_TAB_OR_NEWLINE: {
    severity: 'warning',
    summary: 'ASCII tab, LF or CR inside the href removed, as the WHATWG URL parser removes it',
  },
  HREF_BACKSLASH: {
    severity: 'warning',
    summary: '"\\" before the query read as "/", as browsers do for http(s), ws(s), ftp, file and relative hrefs',
  },
  HREF_UNENCODED_CHARACTER: {
    severity: 'warning',
    summary: 'an ASCII character RFC 3986 does not allow there (space, ", <, >, ^, `, {, |, }, …) percent-encoded',
  },
  HREF_NON_ASCII: {
    severity: 'warning',
    summary: 'raw non-ASCII characters percent-encoded as UTF-8 (RFC 3987 §3.1 IRI to URI mapping)',
  },
  HREF_BAD_PERCENT: {
    severity: 'warning',
    summary: '"%" not followed by two hex digits encoded as "%25", as browsers treat it as a literal "%"',
  },
  HREF_NOT_FETCHABLE: {
    severity: 'info',
    summary: 'the scheme names no retrievable resource (javascript:, mailto:, data:, tel:, …): left as written, not cleaned',
  },
  HREF_INVALID: {
    severity: 'error',
    summary: 'still not an RFC 3986 URI-reference after clean-up; the URI core error code says why',
  },
  HTML_BASE_REPEATED: {
    severity: 'warning',
    summary: 'a <base href> after the first one: browsers ignore it (HTML: the first base element with href wins)',
  },
  HTML_BASE_IN_BODY: {
    severity: 'warning',
    summary: '<base> after the body content started: it still sets the base of every link, earlier ones included',
  },
  HTML_BASE_RELATIVE: {
    severity: 'warning',
    summary: '<base href> is a relative reference: resolved against the next level of the base chain (RFC 3986 §5.1.1)',
  },
  HTML_CANONICAL_REPEATED: {
    severity: 'warning',
    summary: 'a second <link rel=canonical href>: only the first one is recorded',
  },
  HTML_REFRESH_INVALID: {
    severity: 'warning',
    summary: '<meta http-equiv=refresh> whose content does not start with a delay: browsers ignore it',
  },
} as const satisfies Record<string, FindingSpec>;

export type HtmlFindingCode = keyof typeof HTML_FINDINGS;

/** The codes `cleanHref` returns. */
export type HrefFindingCode = Extract<HtmlFindingCode, `HREF_${string}`>;

/** The codes the link extractor returns about the page. */
export type PageFindingCode = Extract<HtmlFindingCode, `HTML_${string}`>;
