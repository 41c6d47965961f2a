// The audit (the report layer): what a crawl's index says is wrong with the
// site's links, read from the index alone — nothing is fetched again. Links stream
// from the reader page by page; only per-URL summaries (state, last fetch, anchors,
// page findings) and the page- and URL-level findings are held in memory.

import { LINK_HEADER_ELEMENT, verdictOfRow, type Verdict } from '../../crawl/index.js';
import { isBodyCut } from '../../fetch/index.js';
import { describeValue, OptionError } from '../../errors.js';
import { AliasEnds, resourceKey } from '../../ladder/index.js';
import type { FetchRow, IndexReader, LinkRow, UrlRole, UrlState } from '../../store/index.js';
import { parseUriReference, percentDecodeUtf8, type UriReference } from '../../uri/index.js';
import { AUDIT_CODE_LIST, AUDIT_CODES, SEVERITY_RANK, type AuditCode } from './codes.js';
import { SEVERITIES, finding, type AuditFinding, type Severity } from './finding.js';
import { redactPassword } from '../redact.js';
import { sitemapFindings } from './sitemap-findings.js';
import { duplicateFindings } from './duplicate-findings.js';

export interface AuditOptions {
  /**
   * Leave out findings below this severity.
   * @default 'info'
   */
  readonly minSeverity?: Severity;
}

export const AUDIT_DEFAULTS = { minSeverity: 'info' } as const satisfies AuditOptions;

/** The last fetch of a URL, as far as the audit needs it. */
interface FetchFacts {
  readonly status: number | undefined;
  readonly errorCode: string | undefined;
  readonly contentType: string | undefined;
  /** Where the response stands: its final URL, or the target of a redirect not followed (see `leadsTo`). */
  readonly finalUrl: string | undefined;
  readonly hops: number;
  /** The chain ended on a redirect that was not followed, with no error: its target was known already. */
  readonly isStoppedRedirect: boolean;
  /**
   * A request of its own; not a row marked fetched from another URL's response
   * (the end of a redirect chain, a Content-Location), which has no duration.
   */
  readonly isOwnRequest: boolean;
  /** The URL whose representation the fetch stands for, as the crawl recorded it (`undefined` before migration 003). */
  readonly representsUrlId: number | undefined;
  /** The crawl's verdict on the fetch, as recorded (derived for a row written before verdicts were). */
  readonly verdict: Verdict;
}

interface UrlInfo {
  readonly key: string;
  readonly state: UrlState;
  /** A page's body is read (its ids recorded); an external link's or a resource's never is. */
  readonly role: UrlRole;
  readonly aliasOf: number | undefined;
  readonly last: FetchFacts | undefined;
}

/** Where a URL's redirects lead, from the fetch whose chain it was part of. */
interface RedirectFacts {
  /** Hops from this URL to the end of the chain. */
  readonly hops: number;
  readonly finalUrl: string | undefined;
  readonly errorCode: string | undefined;
}

/** Pages whose anchors the crawl records: HTML, and Markdown (its heading slugs and raw-HTML ids). */
const HTML_TYPES: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml', 'text/markdown', 'text/x-markdown']);
const MARKDOWN_TYPES: ReadonlySet<string> = new Set(['text/markdown', 'text/x-markdown']);
const REDIRECT_LOOP = 'ERR_FETCH_REDIRECT_LOOP';
const HOST_UNREACHABLE = 'ERR_CRAWL_HOST_UNREACHABLE';
/** `scheme:` at the start of an href: an absolute URI (RFC 3986 §3.1, §4.3). */
const ABSOLUTE_HREF = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** Link codes whose finding is the code itself (src/html cleanHref), in catalog order. */
const HREF_CODES = AUDIT_CODE_LIST.filter((code) => code.startsWith('HREF_'));
/** Codes the crawl records on fetch rows (src/html, src/base) that the audit reports as they are, in catalog order. */
const PAGE_CODES = AUDIT_CODE_LIST.filter((code) => AUDIT_CODES[code].recordedOn === 'fetch');

/**
 * Audit the crawl behind `reader`: each finding has a stable code (docs/audit.md),
 * its severity, the page, the href as written, what it resolves to and one line
 * that says what is wrong. Findings come ordered by page (the index's URL order),
 * a page's own findings before those of its links, links in page order.
 *
 * Throws `OptionError` for a bad option, at once; reading the index happens as
 * the result is iterated.
 */
export function audit(reader: IndexReader, options?: AuditOptions): AsyncIterableIterator<AuditFinding> {
  const minSeverity = validateOptions(options);
  return run(reader, SEVERITY_RANK[minSeverity]);
}

function validateOptions(options: AuditOptions | undefined): Severity {
  if (options === undefined) return AUDIT_DEFAULTS.minSeverity;
  if (typeof options !== 'object' || options === null) {
    throw new OptionError(`Expected \`options\` to be an object, got ${describeValue(options)}`);
  }
  const value: unknown = options.minSeverity ?? AUDIT_DEFAULTS.minSeverity;
  if (!(SEVERITIES as readonly unknown[]).includes(value)) {
    throw new OptionError(`Expected \`minSeverity\` to be one of ${SEVERITIES.join(', ')}, got ${describeValue(value)}`);
  }
  return value as Severity;
}

async function* run(reader: IndexReader, minRank: number): AsyncGenerator<AuditFinding> {
  const index = await IndexFacts.read(reader);
  const pageLevel = index.pageLevelFindings();
  const pages = [...pageLevel.keys()].sort((a, b) => a - b);
  let next = 0;
  let currentPage: number | undefined;
  let context: PageContext | undefined;
  const keep = (finding: AuditFinding): boolean => SEVERITY_RANK[finding.severity] >= minRank;
  for await (const link of reader.links()) {
    if (link.fromUrlId !== currentPage) {
      currentPage = link.fromUrlId;
      // Pages before this one that have no links, then this page's own findings.
      while (next < pages.length && pages[next]! <= currentPage) {
        for (const finding of pageLevel.get(pages[next]!)!) if (keep(finding)) yield finding;
        next++;
      }
      context = index.pageContext(currentPage);
    }
    for (const finding of index.linkFindings(link, context!)) if (keep(finding)) yield finding;
  }
  for (; next < pages.length; next++) {
    for (const finding of pageLevel.get(pages[next]!)!) if (keep(finding)) yield finding;
  }
  const unchecked = index.fragmentsNotChecked();
  if (unchecked !== undefined && keep(unchecked)) yield unchecked;
  // The sitemaps the crawl read, after the pages (sitemap-findings.ts).
  for await (const finding of sitemapFindings(reader)) if (keep(finding)) yield finding;
}

/** The page a run of links is on. */
interface PageContext {
  readonly id: number;
  readonly key: string;
  readonly uri: UriReference | undefined;
}

/** What the audit knows of the index after one pass over its URLs and fetches. */
class IndexFacts {
  readonly #urls = new Map<number, UrlInfo>();
  readonly #idByKey = new Map<string, number>();
  readonly #redirects = new Map<number, RedirectFacts>();
  /** Page findings (`HTML_*`, `BASE_*`) by the URL whose representation they are about. */
  readonly #pageCodes = new Map<number, Set<string>>();
  /** Ids and anchor names by the end of the alias/redirect class of the page that has them. */
  readonly #anchors = new Map<number, Set<string>>();
  /** Ends of classes one of whose URLs was fetched as HTML with a 2xx status. */
  readonly #htmlEnds = new Set<number>();
  /** Of those, the Markdown pages: their heading slugs match a fragment without regard to case. */
  readonly #markdownEnds = new Set<number>();
  readonly #ends = new AliasEnds<number>((id) => this.#nextOf(id));
  /** DUPLICATE_REPRESENTATION findings, by the URL each is about (duplicate-findings.ts). */
  readonly #duplicates = new Map<number, AuditFinding[]>();
  /** The URLs the crawl runs started from, in the order they were first given. */
  readonly #seeds = new Set<number>();
  #hasAnchors = false;
  /** Links whose fragment would have been checked had any page anchors, and the first of their targets. */
  #uncheckedFragments = 0;
  #uncheckedExample: string | undefined;

  /** The facts of the index behind `reader`: one pass over its URLs, one over its fetches. */
  static async read(reader: IndexReader): Promise<IndexFacts> {
    const facts = new IndexFacts();
    await facts.#readUrls(reader);
    await facts.#readFetches(reader);
    await facts.#readDuplicates(reader);
    await facts.#readSeeds(reader);
    return facts;
  }

  async #readSeeds(reader: IndexReader): Promise<void> {
    for (const run of await reader.runs()) {
      for (const seed of run.seeds) {
        const id = this.#idOf(seed);
        if (id !== undefined) this.#seeds.add(id);
      }
    }
  }

  async #readDuplicates(reader: IndexReader): Promise<void> {
    for await (const { urlId, finding } of duplicateFindings(reader)) {
      const list = this.#duplicates.get(urlId);
      if (list === undefined) this.#duplicates.set(urlId, [finding]);
      else list.push(finding);
    }
  }

  private constructor() {}

  async #readUrls(reader: IndexReader): Promise<void> {
    for await (const url of reader.urls()) {
      const f = url.lastFetch;
      const last: FetchFacts | undefined =
        f === undefined
          ? undefined
          : {
              status: f.status,
              errorCode: f.errorCode,
              contentType: f.contentType,
              finalUrl: leadsTo(f),
              hops: f.redirects.length,
              isStoppedRedirect: f.redirects.length > 0 && isRedirectStatus(f.status) && f.errorCode === undefined,
              isOwnRequest: f.durationMs !== undefined,
              representsUrlId: f.representsUrlId,
              verdict: verdictOfRow(f, url.role),
            };
      this.#urls.set(url.id, { key: url.key, state: url.state, role: url.role, aliasOf: url.aliasOf, last });
      this.#idByKey.set(url.key, url.id);
    }
  }

  async #readFetches(reader: IndexReader): Promise<void> {
    const anchorsByOwner = new Map<number, Set<string>>();
    for await (const row of reader.fetches()) {
      // The representation the fetch stands for, whose links and anchors these are.
      const owner = row.representsUrlId ?? this.#idOf(row.finalUrl) ?? row.urlId;
      if (row.anchors.length > 0) addAll(anchorsByOwner, owner, row.anchors);
      if (row.findings.length > 0) addAll(this.#pageCodes, owner, row.findings);
      const n = row.redirects.length;
      // A request of its own that no longer redirects (a re-check): where it led before is history.
      if (n === 0 && row.durationMs !== undefined) this.#redirects.delete(row.urlId);
      row.redirects.forEach((hop, i) => {
        const from = this.#idOf(hop.from);
        if (from !== undefined) this.#redirects.set(from, { hops: n - i, finalUrl: leadsTo(row), errorCode: row.errorCode });
      });
    }
    // An index crawled before anchors were recorded has none at all: its fragments cannot be checked.
    this.#hasAnchors = anchorsByOwner.size > 0;
    for (const [owner, anchors] of anchorsByOwner) addAll(this.#anchors, this.#endOf(owner), anchors);
    for (const [id, url] of this.#urls) {
      const f = url.last;
      // Only a page's body is read for its ids: an external link is asked with HEAD (or a GET
      // whose body is not read), so a fragment on it cannot be checked, and is not called missing.
      if (url.role === 'page' && f?.status !== undefined && f.status >= 200 && f.status < 300 && isHtml(f.contentType)) {
        this.#htmlEnds.add(this.#endOf(id));
        if (MARKDOWN_TYPES.has(f.contentType!)) this.#markdownEnds.add(this.#endOf(id));
      }
    }
  }

  /** Findings about pages and URLs themselves, by page id. */
  pageLevelFindings(): Map<number, AuditFinding[]> {
    const byPage = new Map<number, AuditFinding[]>();
    const add = (id: number, finding: AuditFinding): void => {
      const list = byPage.get(id);
      if (list === undefined) byPage.set(id, [finding]);
      else list.push(finding);
    };
    for (const [id, url] of this.#urls) {
      const page = redactPassword(url.key);
      const codes = this.#pageCodes.get(id);
      if (codes !== undefined) {
        for (const code of PAGE_CODES) if (codes.has(code)) add(id, finding(code, page, undefined, undefined, AUDIT_CODES[code].summary));
      }
      for (const duplicate of this.#duplicates.get(id) ?? []) add(id, duplicate);
      // A seed no link names: a broken one would go unreported as a link's target.
      if (this.#seeds.has(id)) {
        const facts = this.#targetFacts(id);
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
   * because no page of the index has an anchor recorded (see #readFetches).
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
    const key = this.#urls.get(id)?.key ?? '';
    const parsed = parseUriReference(key);
    return { id, key, uri: parsed.ok ? parsed.value : undefined };
  }

  *linkFindings(link: LinkRow, page: PageContext): Generator<AuditFinding> {
    const codes = new Set(link.findings);
    const met = link.metUrlId === undefined ? undefined : this.#urls.get(link.metUrlId);
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

    const redirect = this.#redirects.get(link.metUrlId);
    const facts = this.#targetFacts(link.metUrlId);
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
      const end = this.#endOf(link.metUrlId);
      if (this.#htmlEnds.has(end) && !this.#hasAnchors) {
        this.#uncheckedFragments++;
        this.#uncheckedExample ??= target;
      } else if (this.#htmlEnds.has(end)) {
        const anchors = this.#anchors.get(end);
        const decoded = percentDecodeUtf8(fragment);
        // A Markdown page's slugs are lower case and `#Install` reaches `## Install` on GitHub
        // (remark-validate-links lower-cases the fragment likewise); an HTML id is case-sensitive.
        const isCaseless = this.#markdownEnds.has(end);
        const has = (name: string | undefined): boolean =>
          name !== undefined && anchors !== undefined && (anchors.has(name) || (isCaseless && anchors.has(name.toLowerCase())));
        if (!(has(fragment) || has(decoded))) {
          yield make('LINK_FRAGMENT_MISSING', `no element with id or name ${JSON.stringify(decoded ?? fragment)} in the target page`, { fragment }, 'broken');
        }
      }
    }

    // Two URLs that the protocol rung proved to be one resource (RFC 3986 §6.2.4, Content-Location) are no difference.
    if (link.alternateTarget !== undefined && !this.#isSameResource(link.alternateTarget, link.metUrlId)) {
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

  /**
   * What URL `id` did when fetched: its own request, else (no request of its own, or
   * a redirect to a URL fetched already, not followed again) that of the URL it
   * stands for, reached through its redirects.
   */
  #targetFacts(id: number): FetchFacts | undefined {
    const url = this.#urls.get(id);
    if (url === undefined) return undefined;
    const end = this.#endOf(id);
    const redirect = this.#redirects.get(id);
    const useEnd = url.last === undefined || (url.last.isStoppedRedirect && end !== id);
    const endFacts = useEnd ? this.#urls.get(end)?.last : url.last;
    return useEnd && endFacts !== undefined && redirect !== undefined ? { ...endFacts, hops: redirect.hops, finalUrl: redirect.finalUrl } : endFacts;
  }

  /** Whether `uri` names a URL of the index that stands for the same representation as URL `id`. */
  #isSameResource(uri: string, id: number): boolean {
    const other = this.#idOf(uri.split('#', 1)[0]);
    return other !== undefined && this.#endOf(other) === this.#endOf(id);
  }

  /** The id of the URL whose key is that of `uri`, if the index has one. */
  #idOf(uri: string | undefined): number | undefined {
    if (uri === undefined) return undefined;
    const direct = this.#idByKey.get(uri);
    if (direct !== undefined) return direct;
    const parsed = parseUriReference(uri);
    return parsed.ok && parsed.value.scheme !== undefined ? this.#idByKey.get(resourceKey(parsed.value)) : undefined;
  }

  /**
   * RFC 3986 §6.2.4: the URL whose representation `id` stands for — its alias chain
   * followed (redirect, Content-Location), then the URL its own last request stood
   * for (a redirect to another origin makes no alias). A cycle ends at its least id
   * (the one rule of `walkAliases`), so every URL of one class has the same end.
   */
  #endOf(id: number): number {
    return this.#ends.endOf(id);
  }

  #nextOf(id: number): number | undefined {
    const url = this.#urls.get(id);
    const next = url?.aliasOf ?? (url?.last === undefined ? undefined : this.#representedBy(url.last));
    return next === id ? undefined : next;
  }

  /**
   * The URL a fetch stands for, as the crawl recorded it; for an index crawled before
   * it was recorded (migration 003), derived as the crawl would have: a request of
   * its own stands for where it led, a row made from another response for itself.
   */
  #representedBy(last: FetchFacts): number | undefined {
    if (last.representsUrlId !== undefined) return last.representsUrlId;
    return last.isOwnRequest ? this.#idOf(last.finalUrl) : undefined;
  }
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 305, 307, 308]);

function isRedirectStatus(status: number | undefined): boolean {
  return status !== undefined && REDIRECT_STATUSES.has(status);
}

/**
 * The URL a fetch's response stands for: its final URL; but when the chain ended on
 * a redirect (not followed: its target was known, or could not be followed), where
 * that last redirect pointed.
 */
function leadsTo(row: FetchRow): string | undefined {
  const last = row.redirects.at(-1);
  return last?.to !== undefined && isRedirectStatus(row.status) ? last.to : row.finalUrl;
}


/** What the crawl's codes of a request not made, or not answered, say in a few words. */
const WHY: Readonly<Record<string, string>> = {
  ERR_CRAWL_ROBOTS_DISALLOWED: 'not checked: robots.txt disallows it',
  ERR_CRAWL_ROBOTS_UNREACHABLE: "not checked: its host's robots.txt answered 5xx or 429",
  ERR_CRAWL_PRIVATE_ADDRESS: 'not checked: it leads to a private address',
  [HOST_UNREACHABLE]: `not checked: its host did not answer earlier requests and was paused for the run (${HOST_UNREACHABLE})`,
  ERR_CRAWL_FETCHER_THREW: 'not checked: the fetcher failed',
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

function isHtml(contentType: string | undefined): boolean {
  return contentType !== undefined && HTML_TYPES.has(contentType);
}

function addAll<K, V>(map: Map<K, Set<V>>, key: K, values: Iterable<V>): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  for (const value of values) set.add(value);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
