// Every code the audit can emit, with its severity and one-line explanation: the
// single source for docs/audit.md (a test checks both agree), SARIF rules and the
// text output. Codes are stable: a code is never renamed or reused.

import { BASE_FINDINGS, type BaseFindingCode } from '../../base/index.js';
import { HTML_FINDINGS, type HrefFindingCode, type PageFindingCode } from '../../html/index.js';
import type { Severity } from './finding.js';

export interface AuditCodeSpec {
  readonly severity: Severity;
  /** What the code means, for the documentation and SARIF rules. */
  readonly summary: string;
  /** Where the finding sits: on a link of a page, on a page, or on a URL (a redirect). */
  readonly subject: 'link' | 'page' | 'url';
}

/** A finding of src/html, with its severity there; an href's with what it means for the link. */
const fromHtml = (code: HrefFindingCode | PageFindingCode, summary?: string): AuditCodeSpec => ({
  severity: HTML_FINDINGS[code].severity,
  summary: summary ?? HTML_FINDINGS[code].summary,
  subject: code.startsWith('HREF_') ? 'link' : 'page',
});

const fromBase = (code: BaseFindingCode, severity: Severity): AuditCodeSpec => ({
  severity,
  summary: BASE_FINDINGS[code],
  subject: 'page',
});

export const AUDIT_CODES = {
  // Links and what their targets did when fetched.
  LINK_BROKEN: {
    severity: 'error',
    summary: 'the link names a URL that answered 4xx or 5xx, or could not be fetched at all (network error, redirect loop, …)',
    subject: 'link',
  },
  LINK_REDIRECT: {
    severity: 'warning',
    summary: 'the link names a URL that redirects: link to the final URL (given, with the number of hops)',
    subject: 'link',
  },
  REDIRECT_CHAIN: {
    severity: 'warning',
    summary: 'the URL redirects more than once before it reaches a response: make the first hop point at the last',
    subject: 'url',
  },
  REDIRECT_LOOP: {
    severity: 'error',
    summary: 'the URL redirects in a loop: it never reaches a response',
    subject: 'url',
  },
  LINK_FRAGMENT_MISSING: {
    severity: 'warning',
    summary: 'the fragment names no id (nor <a name>) of the HTML page it points to, as that page was fetched',
    subject: 'link',
  },
  // How the link is written and resolved.
  REF_ABOVE_ROOT: {
    severity: 'warning',
    summary:
      'the href has more ".." segments than there are segments to climb: RFC 3986 §5.2.4 drops the extra ones, resolvers that keep them (RFC 2396) name another URL',
    subject: 'link',
  },
  LINK_BASE_MODES_DIFFER: {
    severity: 'warning',
    summary:
      'the href resolves to another resource with the RFC 3986 base chain than in browsers, which ignore Content-Location for the base (§5.1.2) and a data: or javascript: <base href>',
    subject: 'link',
  },
  LINK_NOT_CANONICAL: {
    severity: 'info',
    summary:
      'the href spells its target in a form that only a rung of the comparison ladder folds into the normal one (named: syntax §6.2.2, e.g. %7E, HOST, /./; scheme §6.2.3, e.g. :80)',
    subject: 'link',
  },
  LINK_MIXED_SCHEME: {
    severity: 'warning',
    summary: 'the link goes from http to https (or back) on the same host: mixed content, or a needless switch of scheme',
    subject: 'link',
  },
  LINK_COULD_BE_RELATIVE: {
    severity: 'info',
    summary: 'an absolute href to the page\'s own origin: a relative reference (given) names the same URL and survives a move of the site',
    subject: 'link',
  },
  // Hrefs written for browsers (src/html cleanHref): RFC 3986 and browsers read them differently.
  HREF_SURROUNDING_WHITESPACE: fromHtml(
    'HREF_SURROUNDING_WHITESPACE',
    'the href starts or ends with whitespace or a control character: browsers strip it, RFC 3986 allows none',
  ),
  HREF_TAB_OR_NEWLINE: fromHtml('HREF_TAB_OR_NEWLINE', 'the href holds a tab or a line break: browsers drop it, RFC 3986 allows none'),
  HREF_BACKSLASH: fromHtml(
    'HREF_BACKSLASH',
    'the href holds "\\" before its query: browsers read it as "/" (http, https, ftp, file, relative hrefs), RFC 3986 allows no backslash',
  ),
  HREF_UNENCODED_CHARACTER: fromHtml(
    'HREF_UNENCODED_CHARACTER',
    'the href holds a character RFC 3986 does not allow there (space, ", <, >, ^, `, {, |, }, …): browsers percent-encode it, stricter clients reject the href',
  ),
  HREF_NON_ASCII: fromHtml(
    'HREF_NON_ASCII',
    'the href holds raw non-ASCII characters: browsers send them as UTF-8 percent-encodings (RFC 3987 §3.1), a URI must spell them so',
  ),
  HREF_BAD_PERCENT: fromHtml(
    'HREF_BAD_PERCENT',
    'the href has a "%" not followed by two hex digits: browsers read a literal "%" (%25), RFC 3986 §2.1 forbids it',
  ),
  HREF_NOT_FETCHABLE: fromHtml(
    'HREF_NOT_FETCHABLE',
    'the href names nothing a crawler retrieves (javascript:, mailto:, data:, tel:, …): recorded, not followed',
  ),
  HREF_INVALID: fromHtml(
    'HREF_INVALID',
    'the href is not an RFC 3986 URI-reference even after browser-style clean-up: it leads nowhere (the URI error code is given)',
  ),
  // The page's markup (src/html link extractor).
  HTML_BASE_REPEATED: fromHtml('HTML_BASE_REPEATED'),
  HTML_BASE_IN_BODY: fromHtml('HTML_BASE_IN_BODY'),
  HTML_BASE_RELATIVE: fromHtml('HTML_BASE_RELATIVE'),
  HTML_CANONICAL_REPEATED: fromHtml('HTML_CANONICAL_REPEATED'),
  HTML_REFRESH_INVALID: fromHtml('HTML_REFRESH_INVALID'),
  // The page's base chain (src/base, RFC 3986 §5.1).
  BASE_HREF_INVALID: fromBase('BASE_HREF_INVALID', 'warning'),
  BASE_HREF_SCHEME_BLOCKED: fromBase('BASE_HREF_SCHEME_BLOCKED', 'warning'),
  BASE_FRAGMENT_IGNORED: fromBase('BASE_FRAGMENT_IGNORED', 'info'),
  BASE_CONTENT_LOCATION_INVALID: fromBase('BASE_CONTENT_LOCATION_INVALID', 'warning'),
  BASE_CONTENT_LOCATION_OTHER_DIRECTORY: fromBase('BASE_CONTENT_LOCATION_OTHER_DIRECTORY', 'warning'),
  BASE_CONTENT_LOCATION_OTHER_ORIGIN: fromBase('BASE_CONTENT_LOCATION_OTHER_ORIGIN', 'warning'),
  BASE_CONTENT_LOCATION_SHADOWED: fromBase('BASE_CONTENT_LOCATION_SHADOWED', 'info'),
  BASE_CONTENT_BASE_INVALID: fromBase('BASE_CONTENT_BASE_INVALID', 'warning'),
  BASE_CONTENT_BASE_USED: fromBase('BASE_CONTENT_BASE_USED', 'info'),
} as const satisfies Record<string, AuditCodeSpec>;

export type AuditCode = keyof typeof AUDIT_CODES;

export const AUDIT_CODE_LIST = Object.keys(AUDIT_CODES) as readonly AuditCode[];

export function isAuditCode(code: string): code is AuditCode {
  return Object.hasOwn(AUDIT_CODES, code);
}

/**
 * Page findings the crawl records that the audit leaves out, each with why. A test
 * checks that every code of `BASE_FINDINGS` and every `HTML_*` code is either an
 * audit code or listed here.
 */
export const PAGE_CODES_NOT_REPORTED = {
  BASE_HREF_RELATIVE: 'the same fact as HTML_BASE_RELATIVE, which is reported',
  BASE_HREF_UNRESOLVED: 'cannot happen in a crawl: every response has an absolute retrieval URL to resolve against',
  BASE_CONTENT_BASE_UNRESOLVED: 'cannot happen in a crawl: every response has an absolute retrieval URL to resolve against',
  BASE_CONTENT_LOCATION_UNRESOLVED: 'cannot happen in a crawl: every response has an absolute retrieval URL to resolve against',
  BASE_RETRIEVAL_INVALID: 'cannot happen in a crawl: the retrieval URL is the URL fetched',
  BASE_NONE: 'cannot happen in a crawl: the retrieval URL is always a base',
  BASE_CONTENT_LOCATION_IGNORED: 'browser mode working as meant; the links it changes are reported as LINK_BASE_MODES_DIFFER',
  BASE_CONTENT_BASE_IGNORED: 'browser mode working as meant; the links it changes are reported as LINK_BASE_MODES_DIFFER',
} as const satisfies Partial<Record<BaseFindingCode, string>>;

/** How severe each severity is: `error` highest. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 2, warning: 1, info: 0 };
