// What the audit knows of a crawl's index after one pass over its URLs, one over
// its fetches, its duplicates and its runs: per-URL summaries, where redirects lead,
// the anchors of each page and the alias classes (RFC 3986 §6.2.4). The findings
// made from them are in audit-rules.ts.

import { verdictOfRow, type Verdict } from '../../crawl/index.js';
import { isHtmlMediaType, isMarkdownMediaType, isRedirectionStatus } from '../../fetch/index.js';
import { AliasEnds, resourceKey } from '../../ladder/index.js';
import type { FetchRow, IndexReader, UrlRole, UrlState } from '../../store/index.js';
import { parseUriReference } from '../../uri/index.js';
import type { AuditFinding } from './finding.js';
import { duplicateFindings } from './duplicate-findings.js';

/** The last fetch of a URL, as far as the audit needs it. */
export interface FetchFacts {
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

export interface UrlInfo {
  readonly key: string;
  readonly state: UrlState;
  /** A page's body is read (its ids recorded); an external link's or a resource's never is. */
  readonly role: UrlRole;
  readonly aliasOf: number | undefined;
  readonly last: FetchFacts | undefined;
}

/** Where a URL's redirects lead, from the fetch whose chain it was part of. */
export interface RedirectFacts {
  /** Hops from this URL to the end of the chain. */
  readonly hops: number;
  readonly finalUrl: string | undefined;
  readonly errorCode: string | undefined;
}

/**
 * What the audit knows of the index after one pass over its URLs and fetches.
 * Its maps are filled once, by `read`; the rules (audit-rules.ts) only read them.
 */
export class IndexFacts {
  readonly urls = new Map<number, UrlInfo>();
  readonly #idByKey = new Map<string, number>();
  readonly redirects = new Map<number, RedirectFacts>();
  /** Page findings (`HTML_*`, `BASE_*`) by the URL whose representation they are about. */
  readonly pageCodes = new Map<number, Set<string>>();
  /** Ids and anchor names by the end of the alias/redirect class of the page that has them. */
  readonly anchors = new Map<number, Set<string>>();
  /** Ends of classes one of whose URLs was fetched as HTML with a 2xx status. */
  readonly htmlEnds = new Set<number>();
  /** Of those, the Markdown pages: their heading slugs match a fragment without regard to case. */
  readonly markdownEnds = new Set<number>();
  readonly #ends = new AliasEnds<number>((id) => this.#nextOf(id));
  /** DUPLICATE_REPRESENTATION findings, by the URL each is about (duplicate-findings.ts). */
  readonly duplicates = new Map<number, AuditFinding[]>();
  /** The URLs the crawl runs started from, in the order they were first given. */
  readonly seeds = new Set<number>();
  #hasAnchors = false;

  /** Whether any page of the index has anchors recorded: an index crawled before they were has none, and no fragment can be checked. */
  get hasAnchors(): boolean {
    return this.#hasAnchors;
  }

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
        if (id !== undefined) this.seeds.add(id);
      }
    }
  }

  async #readDuplicates(reader: IndexReader): Promise<void> {
    for await (const { urlId, finding } of duplicateFindings(reader)) {
      const list = this.duplicates.get(urlId);
      if (list === undefined) this.duplicates.set(urlId, [finding]);
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
              isStoppedRedirect: f.redirects.length > 0 && isRedirectionStatus(f.status) && f.errorCode === undefined,
              isOwnRequest: f.durationMs !== undefined,
              representsUrlId: f.representsUrlId,
              verdict: verdictOfRow(f, url.role),
            };
      this.urls.set(url.id, { key: url.key, state: url.state, role: url.role, aliasOf: url.aliasOf, last });
      this.#idByKey.set(url.key, url.id);
    }
  }

  async #readFetches(reader: IndexReader): Promise<void> {
    const anchorsByOwner = new Map<number, Set<string>>();
    for await (const row of reader.fetches()) {
      // The representation the fetch stands for, whose links and anchors these are.
      const owner = row.representsUrlId ?? this.#idOf(row.finalUrl) ?? row.urlId;
      if (row.anchors.length > 0) addAll(anchorsByOwner, owner, row.anchors);
      if (row.findings.length > 0) addAll(this.pageCodes, owner, row.findings);
      const n = row.redirects.length;
      // A request of its own that no longer redirects (a re-check): where it led before is history.
      if (n === 0 && row.durationMs !== undefined) this.redirects.delete(row.urlId);
      row.redirects.forEach((hop, i) => {
        const from = this.#idOf(hop.from);
        if (from !== undefined) this.redirects.set(from, { hops: n - i, finalUrl: leadsTo(row), errorCode: row.errorCode });
      });
    }
    // An index crawled before anchors were recorded has none at all: its fragments cannot be checked.
    this.#hasAnchors = anchorsByOwner.size > 0;
    for (const [owner, anchors] of anchorsByOwner) addAll(this.anchors, this.endOf(owner), anchors);
    for (const [id, url] of this.urls) {
      const f = url.last;
      // Only a page's body is read for its ids: an external link is asked with HEAD (or a GET
      // whose body is not read), so a fragment on it cannot be checked, and is not called missing.
      if (url.role === 'page' && f?.status !== undefined && f.status >= 200 && f.status < 300 && isHtml(f.contentType)) {
        this.htmlEnds.add(this.endOf(id));
        if (isMarkdownMediaType(f.contentType)) this.markdownEnds.add(this.endOf(id));
      }
    }
  }

  /**
   * What URL `id` did when fetched: its own request, else (no request of its own, or
   * a redirect to a URL fetched already, not followed again) that of the URL it
   * stands for, reached through its redirects.
   */
  targetFacts(id: number): FetchFacts | undefined {
    const url = this.urls.get(id);
    if (url === undefined) return undefined;
    const end = this.endOf(id);
    const redirect = this.redirects.get(id);
    const useEnd = url.last === undefined || (url.last.isStoppedRedirect && end !== id);
    const endFacts = useEnd ? this.urls.get(end)?.last : url.last;
    return useEnd && endFacts !== undefined && redirect !== undefined ? { ...endFacts, hops: redirect.hops, finalUrl: redirect.finalUrl } : endFacts;
  }

  /** Whether `uri` names a URL of the index that stands for the same representation as URL `id`. */
  isSameResource(uri: string, id: number): boolean {
    const other = this.#idOf(uri.split('#', 1)[0]);
    return other !== undefined && this.endOf(other) === this.endOf(id);
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
  endOf(id: number): number {
    return this.#ends.endOf(id);
  }

  #nextOf(id: number): number | undefined {
    const url = this.urls.get(id);
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

/**
 * The URL a fetch's response stands for: its final URL; but when the chain ended on
 * a redirect (not followed: its target was known, or could not be followed), where
 * that last redirect pointed.
 */
function leadsTo(row: FetchRow): string | undefined {
  const last = row.redirects.at(-1);
  return last?.to !== undefined && isRedirectionStatus(row.status) ? last.to : row.finalUrl;
}

/** Pages whose anchors the crawl records: HTML, and Markdown (its heading slugs and raw-HTML ids). */
function isHtml(contentType: string | undefined): boolean {
  return isHtmlMediaType(contentType) || isMarkdownMediaType(contentType);
}

function addAll<K, V>(map: Map<K, Set<V>>, key: K, values: Iterable<V>): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  for (const value of values) set.add(value);
}
