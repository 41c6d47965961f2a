// The audit's rules: the findings about pages and URLs themselves and about each
// link, made from what the audit knows of the index (index-facts.ts).

import { LINK_HEADER_ELEMENT, type Verdict } from '../../crawl/index.js';
import { isBodyCut } from '../../fetch/index.js';
import type { LinkRow } from '../../store/index.js';
import { parseUriReference, percentDecodeUtf8, type UriReference } from '../../uri/index.js';
import { AUDIT_CODE_LIST, AUDIT_CODES, type AuditCode } from './codes.js';
import { finding, type AuditFinding } from './finding.js';
import type { FetchFacts, IndexFacts } from './index-facts.js';
import { redactPassword } from '../redact.js';

const REDIRECT_LOOP = 'ERR_FETCH_REDIRECT_LOOP';
const HOST_UNREACHABLE = 'ERR_CRAWL_HOST_UNREACHABLE';
/** `scheme:` at the start of an href: an absolute URI (RFC 3986 §3.1, §4.3). */
const ABSOLUTE_HREF = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Link codes whose finding is the code itself (src/html cleanHref), in catalog order. */
const HREF_CODES = AUDIT_CODE_LIST.filter((code) => code.startsWith('HREF_'));
/** Codes the crawl records on fetch rows (src/html, src/base) that the audit reports as they are, in catalog order. */
const PAGE_CODES = AUDIT_CODE_LIST.filter((code) => AUDIT_CODES[code].recordedOn === 'fetch');

/** The page a run of links is on. */
export interface PageContext {
  readonly id: number;
  readonly key: string;
  readonly uri: UriReference | undefined;
}

/** The findings of one index, made from its facts: the page-level ones, then each link's as the links stream by. */
export class AuditRules {
  readonly #facts: IndexFacts;
  /** Links whose fragment would have been checked had any page anchors, and the first of their targets. */
  #uncheckedFragments = 0;
  #uncheckedExample: string | undefined;

  constructor(facts: IndexFacts) {
    this.#facts = facts;
  }

  /** Findings about pages and URLs themselves, by page id. */
  pageLevelFindings(): Map<number, AuditFinding[]> {
    const byPage = new Map<number, AuditFinding[]>();
    const add = (id: number, finding: AuditFinding): void => {
      const list = byPage.get(id);
      if (list === undefined) byPage.set(id, [finding]);
      else list.push(finding);
    };
    for (const [id, url] of this.#facts.urls) {
      const page = redactPassword(url.key);
      const codes = this.#facts.pageCodes.get(id);
      if (codes !== undefined) {
        for (const code of PAGE_CODES) if (codes.has(code)) add(id, finding(code, page, undefined, undefined, AUDIT_CODES[code].summary));
      }
      for (const duplicate of this.#facts.duplicates.get(id) ?? []) add(id, duplicate);
      // A seed no link names: a broken one would go unreported as a link's target.
      if (this.#facts.seeds.has(id)) {
        const facts = this.#facts.targetFacts(id);
        const judged = facts === undefined ? undefined : judgement(facts);
        if (judged !== undefined) {
          const code = judged.verdict === 'broken' ? 'SEED_BROKEN' : 'SEED_UNVERIFIED';
          const message = `${judged.message.replace(/^the target/, 'the seed').replace(/^not checked/, 'the seed was not checked')}: the crawl could not start there`;
          add(id, { ...finding(code, page, undefined, undefined, message, judged.detail), verdict: judged.verdict });
        }
      }
      const f = url.last;
      // A response whose body was cut short, as the crawl last fetched it.
      if (f?.status !== undefined && f.isOwnRequest && isBodyCut(f.errorCode)) {
        const detail = { status: f.status, errorCode: f.errorCode! };
        add(id, finding('BODY_TRUNCATED', page, undefined, undefined, `the body ended before it was complete (${f.errorCode}): status ${f.status}, the page is incomplete`, detail));
      }
      if (f === undefined || f.hops === 0) continue;
      if (f.errorCode === REDIRECT_LOOP) {
        add(id, finding('REDIRECT_LOOP', page, undefined, undefined, `redirects in a loop: after ${plural(f.hops, 'hop')} it is back at a URL of the chain`, { hops: f.hops }));
      } else if (f.hops >= 2) {
        const final = f.finalUrl === undefined ? undefined : redactPassword(f.finalUrl);
        const message = `redirects ${f.hops} times before it reaches ${final ?? 'a response'}: point the first hop at the last`;
        add(id, finding('REDIRECT_CHAIN', page, undefined, final, message, final === undefined ? { hops: f.hops } : { hops: f.hops, finalUrl: final }));
      }
    }
    return byPage;
  }

  /**
   * Said once, after the links: fragments that would have been checked were not,
   * because no page of the index has an anchor recorded (see IndexFacts).
   */
  fragmentsNotChecked(): AuditFinding | undefined {
    const n = this.#uncheckedFragments;
    if (n === 0) return undefined;
    const example = this.#uncheckedExample;
    const message =
      `fragments not checked: no fetched HTML page has an id or <a name> (an index crawled before they were recorded?); ` +
      `${plural(n, 'link')} with a fragment${example === undefined ? '' : `, e.g. ${example}`}`;
    return finding('LINK_FRAGMENTS_NOT_CHECKED', undefined, undefined, undefined, message, example === undefined ? { links: n } : { links: n, example });
  }

  pageContext(id: number): PageContext {
    const key = this.#facts.urls.get(id)?.key ?? '';
    const parsed = parseUriReference(key);
    return { id, key, uri: parsed.ok ? parsed.value : undefined };
  }

  *linkFindings(link: LinkRow, page: PageContext): Generator<AuditFinding> {
    const codes = new Set(link.findings);
    const met = link.metUrlId === undefined ? undefined : this.#facts.urls.get(link.metUrlId);
    const pageText = redactPassword(page.key);
    const rawHref = redactPassword(link.rawHref);
    const target = met === undefined ? undefined : redactPassword(link.fragment === undefined ? met.key : `${met.key}#${link.fragment}`);
    const position = link.line === undefined ? undefined : { line: link.line, column: link.column };
    const make = (code: AuditCode, message: string, detail?: Readonly<Record<string, string | number>>, verdict?: Verdict): AuditFinding => {
      const made = finding(code, pageText, rawHref, target, message, detail);
      const placed = position === undefined ? made : { ...made, ...position };
      return verdict === undefined ? placed : { ...placed, verdict };
    };

    for (const code of HREF_CODES) {
      if (!codes.has(code)) continue;
      yield make(code, AUDIT_CODES[code].summary, code === 'HREF_INVALID' && link.error !== undefined ? { error: link.error } : undefined);
    }
    if (codes.has('REF_ABOVE_ROOT')) {
      yield make('REF_ABOVE_ROOT', 'the href climbs above the root with ".." (RFC 3986 §5.2.4 drops the extra segments): it works by accident');
    }
    if (met === undefined || link.metUrlId === undefined) return;
    const metUri = parseUriReference(met.key);

    const redirect = this.#facts.redirects.get(link.metUrlId);
    const facts = this.#facts.targetFacts(link.metUrlId);
    const judged = facts === undefined ? undefined : judgement(facts);
    if (judged !== undefined) {
      yield make(judged.verdict === 'broken' ? 'LINK_BROKEN' : 'LINK_UNVERIFIED', judged.message, judged.detail, judged.verdict);
    } else if (redirect !== undefined) {
      const final = redirect.finalUrl === undefined ? undefined : redactPassword(redirect.finalUrl);
      const message = `the target redirects to ${final ?? 'another URL'} (${plural(redirect.hops, 'hop')}): link to the final URL`;
      yield make('LINK_REDIRECT', message, final === undefined ? { hops: redirect.hops } : { finalUrl: final, hops: redirect.hops }, facts?.verdict);
    }

    const fragment = link.fragment;
    if (fragment !== undefined && judged === undefined && isElementFragment(fragment)) {
      const end = this.#facts.endOf(link.metUrlId);
      if (this.#facts.htmlEnds.has(end) && !this.#facts.hasAnchors) {
        this.#uncheckedFragments++;
        this.#uncheckedExample ??= target;
      } else if (this.#facts.htmlEnds.has(end)) {
        const anchors = this.#facts.anchors.get(end);
        const decoded = percentDecodeUtf8(fragment);
        // A Markdown page's slugs are lower case and `#Install` reaches `## Install` on GitHub
        // (remark-validate-links lower-cases the fragment likewise); an HTML id is case-sensitive.
        const isCaseless = this.#facts.markdownEnds.has(end);
        const has = (name: string | undefined): boolean =>
          name !== undefined && anchors !== undefined && (anchors.has(name) || (isCaseless && anchors.has(name.toLowerCase())));
        if (!(has(fragment) || has(decoded))) {
          yield make('LINK_FRAGMENT_MISSING', `no element with id or name ${JSON.stringify(decoded ?? fragment)} in the target page`, { fragment }, 'broken');
        }
      }
    }

    // Two URLs that the protocol rung proved to be one resource (RFC 3986 §6.2.4, Content-Location) are no difference.
    if (link.alternateTarget !== undefined && !this.#facts.isSameResource(link.alternateTarget, link.metUrlId)) {
      const other = redactPassword(link.alternateTarget);
      yield make(
        'LINK_BASE_MODES_DIFFER',
        `the other base mode resolves it to ${other}: RFC 3986 §5.1 and browsers give this page different bases`,
        { alternateTarget: other },
      );
    }

    const rung = foldingRung(link, codes);
    if (rung !== undefined) {
      const section = rung === 'syntax' ? '§6.2.2' : '§6.2.3';
      const normal = redactPassword(met.key);
      yield make('LINK_NOT_CANONICAL', `not the normal form of ${normal}: only the ${rung} rung (RFC 3986 ${section}) folds this spelling`, {
        rung,
        normalForm: normal,
      });
    }

    const pageUri = page.uri;
    if (pageUri === undefined || !metUri.ok || codes.has('HREF_NOT_FETCHABLE')) return;
    const to = metUri.value;
    const schemes = `${pageUri.scheme ?? ''}>${to.scheme ?? ''}`;
    if ((schemes === 'https>http' || schemes === 'http>https') && pageUri.host === to.host && pageUri.host !== undefined) {
      const message =
        schemes === 'https>http'
          ? 'an https page links to http on its own host: mixed content, or a round trip through a redirect'
          : 'an http page links to https on its own host: the site answers on both schemes';
      yield make('LINK_MIXED_SCHEME', message, { from: pageUri.scheme ?? '', to: to.scheme ?? '' });
    }
    if (
      link.baseLevel === 'retrieval' &&
      link.element !== 'link' &&
      link.element !== LINK_HEADER_ELEMENT &&
      isAbsoluteHref(link.rawHref) &&
      pageUri.scheme === to.scheme &&
      pageUri.userinfo === to.userinfo &&
      pageUri.host === to.host &&
      pageUri.port === to.port
    ) {
      const relative = `${to.path}${to.query === undefined ? '' : `?${to.query}`}${link.fragment === undefined ? '' : `#${link.fragment}`}`;
      yield make('LINK_COULD_BE_RELATIVE', `an absolute href to the page's own origin: "${relative}" names the same URL`, { relative });
    }
  }
}

/** What the crawl's codes of a request not made, or not answered, say in a few words. */
const WHY: Readonly<Record<string, string>> = {
  ERR_CRAWL_ROBOTS_DISALLOWED: 'not checked: robots.txt disallows it',
  ERR_CRAWL_ROBOTS_UNREACHABLE: "not checked: its host's robots.txt answered 5xx or 429",
  ERR_CRAWL_PRIVATE_ADDRESS: 'not checked: it leads to a private address',
  [HOST_UNREACHABLE]: `not checked: its host did not answer earlier requests and was paused for the run (${HOST_UNREACHABLE})`,
  ERR_CRAWL_FETCHER_THREW: 'not checked: the fetcher failed',
  // Certificates and proxies: what to do about each.
  ERR_FETCH_TLS_CERT_EXPIRED: "the target's TLS certificate has expired (ERR_FETCH_TLS_CERT_EXPIRED): renew it; --insecure skips the check",
  ERR_FETCH_TLS_SELF_SIGNED:
    "the target's TLS certificate is self-signed (ERR_FETCH_TLS_SELF_SIGNED): trust the certificate or its CA with --ca-file FILE, or skip the check with --insecure",
  ERR_FETCH_TLS_HOSTNAME:
    "the target's TLS certificate is for another host name (ERR_FETCH_TLS_HOSTNAME): link to a name it covers, or fix the certificate; --insecure skips the check",
  ERR_FETCH_TLS_UNTRUSTED:
    "the target's TLS certificate chain is not trusted (ERR_FETCH_TLS_UNTRUSTED): trust its CA with --ca-file FILE (or send the missing intermediate), or skip the check with --insecure",
  ERR_FETCH_PROXY: 'not checked: the proxy could not be reached or refused the request (ERR_FETCH_PROXY): check --proxy or HTTPS_PROXY/HTTP_PROXY and its credentials',
};

/** Statuses that external hosts answer crawlers with rather than browsers. */
const BOT_WALL: ReadonlySet<number> = new Set([401, 403, 999]);

/**
 * Why a fetch makes its target's link a finding — its recorded verdict, `broken` or
 * `unverified`, with a message that says why — or `undefined` for an `ok` target.
 */
function judgement(f: FetchFacts): { verdict: Exclude<Verdict, 'ok'>; message: string; detail: Record<string, string | number> } | undefined {
  if (f.verdict === 'ok') return undefined;
  const via = f.hops > 0 && f.finalUrl !== undefined ? ` after ${plural(f.hops, 'redirect')} to ${redactPassword(f.finalUrl)}` : '';
  const detail: Record<string, string | number> = {};
  if (f.status !== undefined) detail['status'] = f.status;
  if (f.errorCode !== undefined) detail['errorCode'] = f.errorCode;
  if (f.hops > 0) {
    detail['hops'] = f.hops;
    if (f.finalUrl !== undefined) detail['finalUrl'] = redactPassword(f.finalUrl);
  }
  const why = f.errorCode === undefined ? undefined : WHY[f.errorCode];
  const message =
    why !== undefined
      ? why
      : f.errorCode === REDIRECT_LOOP
        ? 'the target redirects in a loop'
        : f.status !== undefined && (f.status >= 400 || f.errorCode === undefined)
          ? `the target answered ${f.status}${statusWords(f.status, f.verdict)}${via}`
          : `the target could not be fetched (${f.errorCode})${via}`;
  return { verdict: f.verdict, message, detail };
}

/** What an unverified status is, in a few words: why it proves nothing. */
function statusWords(status: number, verdict: Verdict): string {
  if (verdict !== 'unverified') return '';
  if (status === 429) return ' (too many requests: rate-limited)';
  if (BOT_WALL.has(status)) return ' (a bot wall: the host refuses crawlers)';
  if (status >= 500 && status < 600) return ' (a server error: try again later)';
  return '';
}

/**
 * The rung that folds the link's spelling: from the crawl's `REF_FOLDED_*` finding,
 * else (an index crawled before those were recorded) the ladder rung at which the
 * link met a known URL.
 */
function foldingRung(link: LinkRow, codes: ReadonlySet<string>): 'syntax' | 'scheme' | undefined {
  if (codes.has('REF_FOLDED_SYNTAX')) return 'syntax';
  if (codes.has('REF_FOLDED_SCHEME')) return 'scheme';
  return link.ladderRung === 'syntax' || link.ladderRung === 'scheme' ? link.ladderRung : undefined;
}

/**
 * HTML "scroll to the fragment": an empty fragment and `top` mean the top of the
 * document, and a text directive (`:~:`) names no element.
 */
function isElementFragment(fragment: string): boolean {
  return fragment !== '' && fragment.toLowerCase() !== 'top' && !fragment.startsWith(':~:');
}

function isAbsoluteHref(rawHref: string): boolean {
  const href = rawHref.trim();
  return ABSOLUTE_HREF.test(href) || href.startsWith('//');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
