/**
 * The findings catalog: every code a layer returns or records about an href, a page,
 * a URL or a link, and every code the audit reports, with its severity, a one-line
 * summary, where the crawl records it and what the audit does with it. The single
 * source for html/, base/, crawl/ and the audit, for docs/audit.md (a test checks
 * both agree) and SARIF rules. Findings are returned, never thrown: bad markup is data, not a failure.
 *
 * Codes are stable: a code is never reused; a retired code is read from older
 * indexes as the code that replaced it (`RETIRED_FINDINGS`).
 * This file is pure and may be imported from any layer, like src/errors.ts.
 */

/** How much a finding matters. */
export type Severity = 'error' | 'warning' | 'info';

/** Every severity, highest first. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** How severe each severity is: `error` highest. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 2, warning: 1, info: 0 };

/**
 * Where a finding is written down: in the `findings` of a **link** row (the href as
 * written), in the `findings` of a **fetch** row (the page and its base chain), or
 * nowhere: the audit derives it from the **index** (fetches, redirects, aliases).
 */
export type FindingRecord = 'link' | 'fetch' | 'index';

/** What an audit finding is about: a link of a page, a page, or a URL (its own redirects). */
export type FindingSubject = 'link' | 'page' | 'url';

export interface FindingSpec {
  readonly severity: Severity;
  /** One line for people: what is wrong and why it matters. */
  readonly summary: string;
  readonly recordedOn: FindingRecord;
  readonly subject: FindingSubject;
  /** Why the audit does not report the code as itself; absent when it does. */
  readonly notReported?: string;
}

const CANNOT_HAPPEN = 'cannot happen in a crawl: every response has an absolute retrieval URL to resolve against';
const BROWSER_MODE = 'browser mode working as meant; the links it changes are reported as LINK_BASE_MODES_DIFFER';

/** Every finding code, in the order the audit documents and reports them. */
export const FINDINGS = {
  // Links and what their targets did when fetched (the audit, from the index).
  LINK_BROKEN: {
    severity: 'error',
    summary: 'the link names a URL whose verdict is broken: it answered 404 or 410 (another 4xx on the crawl\'s own hosts), its host name does not exist, its certificate is refused on the crawl\'s own hosts, or its redirects lead nowhere',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_UNVERIFIED: {
    severity: 'warning',
    summary: 'the link names a URL whose verdict is unverified: a timeout, a refused connection, a TLS failure, 5xx, 429, a bot wall of an external host (401, 403, 999 …) or a robots.txt refusal; not proved broken',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_REDIRECT: {
    severity: 'warning',
    summary: 'the link names a URL that redirects: link to the final URL (given, with the number of hops)',
    recordedOn: 'index',
    subject: 'link',
  },
  REDIRECT_CHAIN: {
    severity: 'warning',
    summary: 'the URL redirects more than once before it reaches a response: make the first hop point at the last',
    recordedOn: 'index',
    subject: 'url',
  },
  REDIRECT_LOOP: {
    severity: 'error',
    summary: 'the URL redirects in a loop: it never reaches a response',
    recordedOn: 'index',
    subject: 'url',
  },
  BODY_TRUNCATED: {
    severity: 'error',
    summary:
      'the response came but its body ended before it was complete (connection reset or closed mid-body, fewer bytes than Content-Length, a deadline or a too slow transfer), on every try: the page is recorded as failed',
    recordedOn: 'index',
    subject: 'url',
  },
  SEED_BROKEN: {
    severity: 'error',
    summary:
      'a seed of the crawl is broken (404, 410, another 4xx, a host name that does not exist, redirects that lead nowhere): the crawl could not start there, and no link names it to say so',
    recordedOn: 'index',
    subject: 'url',
  },
  SEED_UNVERIFIED: {
    severity: 'warning',
    summary: 'a seed of the crawl is unverified (a timeout, 5xx, 429, a refusal): the crawl could not start there, though the seed is not proved broken',
    recordedOn: 'index',
    subject: 'url',
  },
  LINK_FRAGMENT_MISSING: {
    severity: 'warning',
    summary: 'the fragment names no id (nor <a name>) of the HTML page it points to, as that page was fetched',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_FRAGMENTS_NOT_CHECKED: {
    severity: 'warning',
    summary:
      'fragments were not checked: no fetched HTML page of the index has an id or <a name> (an index crawled before they were recorded, or a site without any), so a missing one cannot be told from an unrecorded one',
    recordedOn: 'index',
    subject: 'link',
  },
  // How the link is written and resolved (src/base referenceFindings, and the audit).
  REF_ABOVE_ROOT: {
    severity: 'warning',
    summary:
      'the href has more ".." segments than there are segments to climb: RFC 3986 §5.2.4 drops the extra ones, resolvers that keep them (RFC 2396) name another URL',
    recordedOn: 'link',
    subject: 'link',
  },
  LINK_BASE_MODES_DIFFER: {
    severity: 'warning',
    summary:
      'the href resolves to another resource with the RFC 3986 base chain than in browsers, which ignore Content-Location for the base (§5.1.2) and a data: or javascript: <base href>',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_NOT_CANONICAL: {
    severity: 'info',
    summary:
      'the href spells its target in a form that only a rung of the comparison ladder folds into the normal one (named: syntax §6.2.2, e.g. %7E, HOST, /./; scheme §6.2.3, e.g. :80)',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_MIXED_SCHEME: {
    severity: 'warning',
    summary: 'the link goes from http to https (or back) on the same host: mixed content, or a needless switch of scheme',
    recordedOn: 'index',
    subject: 'link',
  },
  LINK_COULD_BE_RELATIVE: {
    severity: 'info',
    summary: "an absolute href to the page's own origin: a relative reference (given) names the same URL and survives a move of the site",
    recordedOn: 'index',
    subject: 'link',
  },
  // Hrefs written for browsers (src/html cleanHref): RFC 3986 and browsers read them differently.
  HREF_SURROUNDING_WHITESPACE: {
    severity: 'warning',
    summary: 'the href starts or ends with whitespace or a control character: browsers strip it, RFC 3986 allows none',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_TAB_OR_NEWLINE: {
    severity: 'warning',
    summary: 'the href holds a tab or a line break: browsers drop it, RFC 3986 allows none',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_BACKSLASH: {
    severity: 'warning',
    summary: 'the href holds "\\" before its query: browsers read it as "/" (http, https, ftp, file, relative hrefs), RFC 3986 allows no backslash',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_UNENCODED_CHARACTER: {
    severity: 'warning',
    summary:
      'the href holds a character RFC 3986 does not allow there (space, ", <, >, ^, `, {, |, }, …): browsers percent-encode it, stricter clients reject the href',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_NON_ASCII: {
    severity: 'warning',
    summary: 'the href holds raw non-ASCII characters: browsers send them as UTF-8 percent-encodings (RFC 3987 §3.1), a URI must spell them so',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_BAD_PERCENT: {
    severity: 'warning',
    summary: 'the href has a "%" not followed by two hex digits: browsers read a literal "%" (%25), RFC 3986 §2.1 forbids it',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_NOT_FETCHABLE: {
    severity: 'info',
    summary: 'the href names nothing a crawler retrieves (javascript:, mailto:, data:, tel:, …): recorded, not followed',
    recordedOn: 'link',
    subject: 'link',
  },
  HREF_INVALID: {
    severity: 'error',
    summary: 'the href is not an RFC 3986 URI-reference even after browser-style clean-up: it leads nowhere (the URI error code is given)',
    recordedOn: 'link',
    subject: 'link',
  },
  // The page's markup (src/html link extractor).
  HTML_BASE_REPEATED: {
    severity: 'warning',
    summary: 'a <base href> after the first one: browsers ignore it (HTML: the first base element with href wins)',
    recordedOn: 'fetch',
    subject: 'page',
  },
  HTML_BASE_IN_BODY: {
    severity: 'warning',
    summary: '<base> after the body content started: it still sets the base of every link, earlier ones included',
    recordedOn: 'fetch',
    subject: 'page',
  },
  HTML_CANONICAL_REPEATED: {
    severity: 'warning',
    summary: 'a second <link rel=canonical href>: only the first one is recorded',
    recordedOn: 'fetch',
    subject: 'page',
  },
  HTML_REFRESH_INVALID: {
    severity: 'warning',
    summary: '<meta http-equiv=refresh> whose content does not start with a delay: browsers ignore it',
    recordedOn: 'fetch',
    subject: 'page',
  },
  HTML_MARKDOWN_CAPPED: {
    severity: 'warning',
    summary: 'the Markdown page is longer than the extractor reads (1 MiB): the links past it were not recorded nor followed',
    recordedOn: 'fetch',
    subject: 'page',
  },
  // What the crawler left out of a page (src/crawl, its per-page caps against link floods).
  PAGE_LINKS_CAPPED: {
    severity: 'warning',
    summary: 'the page holds more links than maxLinksPerPage: the links past the cap were not recorded nor followed',
    recordedOn: 'fetch',
    subject: 'page',
  },
  PAGE_QUEUE_CAPPED: {
    severity: 'warning',
    summary: 'the page links to more new URLs than maxQueuedPerPage: the others were recorded but not followed from it',
    recordedOn: 'fetch',
    subject: 'page',
  },
  PAGE_BODY_CAPPED: {
    severity: 'warning',
    summary: 'the body is longer than maxBodyBytes: it was read up to the cap, the links past it were not recorded nor followed',
    recordedOn: 'fetch',
    subject: 'page',
  },
  // The page's base chain (src/base, RFC 3986 §5.1).
  BASE_HREF_INVALID: {
    severity: 'warning',
    summary: '<base href> is not a URI-reference (RFC 3986 §4.1) once trimmed of ASCII whitespace: the level is skipped',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_HREF_RELATIVE: {
    severity: 'warning',
    summary: '<base href> is a relative reference: resolved against the next level of the base chain (RFC 3986 §5.1.1)',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_HREF_SCHEME_BLOCKED: {
    severity: 'warning',
    summary: 'browser mode: <base href> names a data: or javascript: URL, which HTML never uses as a base: the level is skipped',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_FRAGMENT_IGNORED: {
    severity: 'info',
    summary: 'a level names a URI with a fragment; a base never has one (RFC 3986 §5.1): the fragment is dropped',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_LOCATION_INVALID: {
    severity: 'warning',
    summary: 'Content-Location is not a URI-reference (RFC 3986 §4.1) once trimmed of whitespace: it is skipped',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_LOCATION_OTHER_DIRECTORY: {
    severity: 'warning',
    summary: 'the content-location level names another directory than the retrieval URL: relative links resolve differently in browser mode',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_LOCATION_OTHER_ORIGIN: {
    severity: 'warning',
    summary: 'the content-location level names another scheme, host or port than the retrieval URL: evidence to scope to its origin',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_LOCATION_SHADOWED: {
    severity: 'info',
    summary: 'Content-Location is present but Content-Base takes precedence for the base (RFC 2068 §14.11)',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_BASE_INVALID: {
    severity: 'warning',
    summary: 'Content-Base is not a URI-reference (RFC 3986 §4.1) once trimmed of whitespace: it is skipped',
    recordedOn: 'fetch',
    subject: 'page',
  },
  BASE_CONTENT_BASE_USED: {
    severity: 'info',
    summary: 'the legacy Content-Base header (RFC 2068 §14.11) gave the content-location level',
    recordedOn: 'fetch',
    subject: 'page',
  },
  // Stylesheets: a <style> element, a style attribute, a stylesheet fetched on its own (src/html css-references).
  CSS_URL_INVALID: {
    severity: 'warning',
    summary: 'url( ) unquoted with a space, quote, "(" or bad escape inside (CSS Syntax 3 §4.3.6 bad-url token): browsers drop the declaration, nothing is loaded',
    recordedOn: 'fetch',
    subject: 'page',
  },
  CSS_REFERENCES_CAPPED: {
    severity: 'info',
    summary: 'the stylesheet names more URLs than the per-sheet cap: the rest are not checked',
    recordedOn: 'fetch',
    subject: 'page',
  },
  CSS_IMPORTS_CAPPED: {
    severity: 'warning',
    summary: 'the stylesheet is @imported as deep as the crawl follows a chain of @import: its own @import rules were recorded, not checked',
    recordedOn: 'fetch',
    subject: 'page',
  },
  // Recorded, and not reported as themselves (each says why).
  REF_FOLDED_SYNTAX: {
    severity: 'info',
    summary: 'the reference names its target in a spelling that only syntax-based normalization (RFC 3986 §6.2.2) turns into the normal form',
    recordedOn: 'link',
    subject: 'link',
    notReported: 'reported as LINK_NOT_CANONICAL, with the rung',
  },
  REF_FOLDED_SCHEME: {
    severity: 'info',
    summary: 'the reference names its target in a spelling that only scheme-based normalization (RFC 3986 §6.2.3) turns into the normal form',
    recordedOn: 'link',
    subject: 'link',
    notReported: 'reported as LINK_NOT_CANONICAL, with the rung',
  },
  BASE_HREF_UNRESOLVED: {
    severity: 'warning',
    summary: '<base href> is relative and no outer level gives a base to resolve it against: the level is skipped',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: CANNOT_HAPPEN,
  },
  BASE_CONTENT_BASE_UNRESOLVED: {
    severity: 'warning',
    summary: 'Content-Base is relative and there is no retrieval URL (or default) to resolve it against: it is skipped',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: CANNOT_HAPPEN,
  },
  BASE_CONTENT_LOCATION_UNRESOLVED: {
    severity: 'warning',
    summary: 'Content-Location is relative and there is no retrieval URL (or default) to resolve it against: it is skipped',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: CANNOT_HAPPEN,
  },
  BASE_RETRIEVAL_INVALID: {
    severity: 'error',
    summary: 'the retrieval URL is not an absolute URI (RFC 3986 §4.3): the level is skipped, and the default is not used in its place',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: 'cannot happen in a crawl: the retrieval URL is the URL fetched',
  },
  BASE_NONE: {
    severity: 'error',
    summary: 'no level gives a base: relative references on the page cannot be resolved (RFC 3986 §5.1.4)',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: 'cannot happen in a crawl: the retrieval URL is always a base',
  },
  BASE_CONTENT_LOCATION_IGNORED: {
    severity: 'info',
    summary: 'browser mode: Content-Location is ignored for the base (RFC 7231 and RFC 9110 dropped that role), as browsers do',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: BROWSER_MODE,
  },
  BASE_CONTENT_BASE_IGNORED: {
    severity: 'info',
    summary: 'browser mode: Content-Base is ignored for the base, as browsers do',
    recordedOn: 'fetch',
    subject: 'page',
    notReported: BROWSER_MODE,
  },
  // Sitemaps and robots.txt Sitemap: lines (src/fetch sitemap, sitemaps.org protocol 0.9).
  SITEMAP_XML_INVALID: {
    severity: 'error',
    summary: 'the sitemap is not well-formed XML (line and column given): the entries before the error are kept',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_ROOT_INVALID: {
    severity: 'error',
    summary: 'the root element is not <urlset> or <sitemapindex> in the namespace http://www.sitemaps.org/schemas/sitemap/0.9: nothing is read',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_GZIP_INVALID: {
    severity: 'error',
    summary: 'the sitemap starts as gzip but does not decompress: nothing is read',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_TOO_LARGE: {
    severity: 'warning',
    summary: 'the sitemap is over 50 MiB uncompressed, the protocol\'s limit: it is read up to the limit',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_TOO_DEEP: {
    severity: 'warning',
    summary: 'the sitemap nests more than 32 elements deep (the protocol needs 3): it is read up to there',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_TOO_MANY_URLS: {
    severity: 'warning',
    summary: 'the sitemap lists more than 50,000 entries, the protocol\'s limit: the rest are ignored',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_LOC_MISSING: {
    severity: 'warning',
    summary: 'a <url> or <sitemap> entry has no <loc>, or an empty one: it is skipped',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_LOC_NOT_ABSOLUTE: {
    severity: 'warning',
    summary: 'a sitemap <loc>, or a robots.txt Sitemap: line, is not an absolute URI (RFC 3986 §4.3) as the protocol requires: it is skipped',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_UNREACHABLE: {
    severity: 'error',
    summary: 'a sitemap named by robots.txt or by a sitemap index answered 4xx or 5xx, or could not be fetched: its URLs are unknown',
    recordedOn: 'index',
    subject: 'page',
  },
  SITEMAP_ENTRY_BROKEN: {
    severity: 'error',
    summary: 'a sitemap lists a URL that answered 4xx or 5xx, or could not be fetched: crawlers are sent to a missing page',
    recordedOn: 'index',
    subject: 'link',
  },
  SITEMAP_ENTRY_REDIRECT: {
    severity: 'warning',
    summary: 'a sitemap lists a URL that redirects: list the final URL (given, with the number of hops)',
    recordedOn: 'index',
    subject: 'link',
  },
  SITEMAP_ENTRY_NOT_CANONICAL: {
    severity: 'warning',
    summary: 'a sitemap lists a URL not in its canonical form: not its normal form (RFC 3986 §6.2), or a URL that names another as its rel=canonical or Content-Location',
    recordedOn: 'index',
    subject: 'link',
  },
  SITEMAP_ORPHAN: {
    severity: 'warning',
    summary: 'a sitemap lists a URL that no crawled page links to: an orphan, reachable only through the sitemap',
    recordedOn: 'index',
    subject: 'link',
  },
  // Content evidence: beyond RFC 3986, heuristic; always reported, it changes no crawl decision.
  DUPLICATE_REPRESENTATION: {
    severity: 'info',
    summary:
      'the URL\'s body is byte-identical to that of another URL (given) that the comparison ladder did not join: the same document served twice, e.g. a language fallback (the prefixes they differ in are given)',
    recordedOn: 'index',
    subject: 'url',
  },
} as const satisfies Record<string, FindingSpec>;

export type FindingCode = keyof typeof FINDINGS;

/** Every code, in catalog order. */
export const FINDING_CODES = Object.keys(FINDINGS) as readonly FindingCode[];

export function isFindingCode(code: string): code is FindingCode {
  return Object.hasOwn(FINDINGS, code);
}

/** The codes of the catalog that start with `prefix`, in catalog order. */
export function findingCodesWith<P extends string>(prefix: P): readonly Extract<FindingCode, `${P}${string}`>[] {
  return FINDING_CODES.filter((code): code is Extract<FindingCode, `${P}${string}`> => code.startsWith(prefix));
}

/**
 * Codes no longer recorded, each with the code that records its fact now. Older
 * indexes hold them; readers map them (`currentFindingCodes`).
 */
export const RETIRED_FINDINGS: Readonly<Record<string, FindingCode>> = {
  // Recorded by the link extractor beside BASE_HREF_RELATIVE from the base chain: one fact twice.
  HTML_BASE_RELATIVE: 'BASE_HREF_RELATIVE',
};

/** `codes` with each retired code replaced by its successor, each code once, in first-seen order. */
export function currentFindingCodes(codes: readonly string[]): readonly string[] {
  if (!codes.some((code) => Object.hasOwn(RETIRED_FINDINGS, code))) return codes;
  return [...new Set(codes.map((code) => (Object.hasOwn(RETIRED_FINDINGS, code) ? RETIRED_FINDINGS[code]! : code)))];
}
