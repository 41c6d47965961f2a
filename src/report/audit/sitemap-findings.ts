// What the audit says about the sitemaps a crawl read (sitemaps.org protocol 0.9):
// what was wrong with each file (SITEMAP_* of its XML, a named sitemap that could
// not be fetched) and with each entry — broken, redirected, not in its canonical
// form, or an orphan that no crawled page links to. A sitemap entry is reported as
// a link of its sitemap: `page` is the sitemap's URL, `rawHref` the `<loc>` as
// written, `target` the key of the URL it was admitted as.

import { verdictOfRow } from '../../crawl/index.js';
import { AliasEnds, resourceKeyOf } from '../../ladder/index.js';
import type { AliasRow, IndexReader, SitemapEntryRow, UrlRow } from '../../store/index.js';
import { AUDIT_CODES, isAuditCode, type AuditCode } from './codes.js';
import { finding, type AuditFinding } from './finding.js';
import { redactPassword } from '../redact.js';

/** The findings of the sitemaps behind `reader`, in the order their sitemaps were read; none when it read none. */
export async function* sitemapFindings(reader: IndexReader): AsyncGenerator<AuditFinding> {
  if (reader.sitemaps === undefined || reader.sitemapEntries === undefined) return;
  const sitemaps = [];
  for await (const sitemap of reader.sitemaps()) sitemaps.push(sitemap);
  if (sitemaps.length === 0) return;
  for (const sitemap of sitemaps) {
    const page = redactPassword(sitemap.url);
    // /sitemap.xml is only tried: its absence is no finding. A sitemap someone named is.
    const isUnreachable = sitemap.status === undefined ? sitemap.errorCode?.startsWith('ERR_FETCH_') === true : sitemap.status >= 400;
    if (sitemap.source !== 'origin' && isUnreachable) {
      const detail: Record<string, string | number> = {};
      if (sitemap.status !== undefined) detail['status'] = sitemap.status;
      if (sitemap.errorCode !== undefined) detail['errorCode'] = sitemap.errorCode;
      const how = sitemap.status === undefined ? `could not be fetched (${sitemap.errorCode})` : `answered ${sitemap.status}`;
      yield finding('SITEMAP_UNREACHABLE', page, undefined, undefined, `the sitemap ${how}, named by ${sitemap.source === 'robots' ? 'robots.txt' : 'a sitemap index'}`, detail);
    }
    for (const f of sitemap.findings) {
      if (!isAuditCode(f.code)) continue;
      const detail: Record<string, string | number> = {};
      if (f.line !== undefined) detail['line'] = f.line;
      if (f.column !== undefined) detail['column'] = f.column;
      if (f.detail !== undefined) detail['detail'] = f.detail;
      const where = f.line === undefined ? '' : ` (line ${f.line}${f.column === undefined ? '' : `, column ${f.column}`})`;
      yield finding(f.code, page, undefined, undefined, `${AUDIT_CODES[f.code].summary}${where}${f.detail === undefined ? '' : `: ${f.detail}`}`, detail);
    }
  }
  // The entries are judged against every URL and link of the index: a second pass over
  // them, paid only when a sitemap listed something (a /sitemap.xml that answered 404 lists nothing).
  const entries = [];
  for await (const entry of reader.sitemapEntries()) entries.push(entry);
  if (entries.length === 0) return;
  const facts = await EntryFacts.read(reader);
  for (const entry of entries) yield* facts.entryFindings(entry);
}

/** What the entries are judged by: each URL, the aliases proved, and which URLs crawled pages link to. */
class EntryFacts {
  readonly #urls = new Map<number, UrlRow>();
  readonly #aliases = new Map<number, AliasRow[]>();
  readonly #linked = new Set<number>();
  /** RFC 3986 §6.2.4: each URL's alias class, named by the URL its chain ends at (one walk, cycles included). */
  readonly #ends = new AliasEnds<number>((id) => this.#urls.get(id)?.aliasOf);
  /** The ends of the linked URLs' classes, once the links are read. */
  #linkedEnds: Set<number> | undefined;
  /** The keys of the runs' seeds: a seed is where the crawl starts, not an orphan. */
  readonly #seedKeys = new Set<string>();

  static async read(reader: IndexReader): Promise<EntryFacts> {
    const facts = new EntryFacts();
    for (const run of await reader.runs()) {
      for (const seed of run.seeds) {
        const key = resourceKeyOf(seed);
        if (key !== undefined) facts.#seedKeys.add(key);
      }
    }
    for await (const url of reader.urls()) facts.#urls.set(url.id, url);
    for await (const alias of reader.aliases()) {
      const list = facts.#aliases.get(alias.fromId);
      if (list === undefined) facts.#aliases.set(alias.fromId, [alias]);
      else list.push(alias);
    }
    for await (const link of reader.links()) {
      if (link.fromUrlId === link.toUrlId) continue;
      if (link.toUrlId !== undefined) facts.#linked.add(link.toUrlId);
      if (link.metUrlId !== undefined) facts.#linked.add(link.metUrlId);
    }
    return facts;
  }

  private constructor() {}

  *entryFindings(entry: SitemapEntryRow): Generator<AuditFinding> {
    if (entry.urlId === undefined) return;
    const url = this.#urls.get(entry.urlId);
    // Out of scope: recorded, not crawled; nothing is known of it.
    if (url === undefined || url.state === 'skipped') return;
    const page = redactPassword(entry.sitemapUrl);
    const href = redactPassword(entry.loc);
    const target = redactPassword(url.key);
    const make = (code: AuditCode, message: string, detail?: Readonly<Record<string, string | number>>): AuditFinding =>
      finding(code, page, href, target, message, { ...(entry.line === undefined ? {} : { line: entry.line }), ...detail });

    const aliases = this.#aliases.get(url.id) ?? [];
    const redirect = aliases.find((alias) => alias.evidence === 'redirect');
    const last = url.lastFetch;
    const hops = last?.redirects.length ?? 0;
    const status = last?.status;
    // The crawl's verdict on it: an answer the status policy calls ok is no broken entry.
    const verdict = last === undefined ? undefined : verdictOfRow(last, url.role);
    const isFailed = (status !== undefined && status >= 400) || (status === undefined && last?.errorCode?.startsWith('ERR_FETCH_') === true);
    if (last !== undefined && hops === 0 && verdict !== 'ok' && isFailed) {
      const detail: Record<string, string | number> = status === undefined ? { errorCode: last.errorCode! } : { status };
      const made = make('SITEMAP_ENTRY_BROKEN', status === undefined ? `the listed URL could not be fetched (${last.errorCode})` : `the listed URL answered ${status}`, detail);
      yield { ...made, verdict };
    } else if (redirect !== undefined || hops > 0) {
      const final = redirect?.toKey ?? last?.finalUrl;
      const finalText = final === undefined ? 'another URL' : redactPassword(final);
      yield make('SITEMAP_ENTRY_REDIRECT', `the listed URL redirects to ${finalText}: list the final URL`, {
        ...(final === undefined ? {} : { finalUrl: finalText }),
        hops: Math.max(hops, 1),
      });
    }

    // RFC 3986 §6.2: the <loc> as written is not the URL's normal form (its key).
    const other = aliases.find((alias) => alias.evidence === 'canonical' || alias.evidence === 'content-location');
    if (entry.loc !== url.key) {
      yield make('SITEMAP_ENTRY_NOT_CANONICAL', `not the normal form of ${target} (RFC 3986 §6.2)`, { normalForm: target });
    } else if (other !== undefined && other.toId !== url.id) {
      const named = redactPassword(other.toKey);
      const by = other.evidence === 'canonical' ? 'rel=canonical' : 'Content-Location';
      yield make('SITEMAP_ENTRY_NOT_CANONICAL', `the page names ${named} as itself (${by}): list that URL`, { canonical: named, evidence: other.evidence });
    }

    if (!this.#isLinked(url.id) && !this.#seedKeys.has(url.key)) {
      yield make('SITEMAP_ORPHAN', 'no crawled page links to it: reachable only through the sitemap');
    }
  }

  /** Linked, itself or as any other URL of its alias class (a link to a URL that redirects here, in as many hops as it takes). */
  #isLinked(id: number): boolean {
    this.#linkedEnds ??= new Set([...this.#linked].map((linked) => this.#ends.endOf(linked)));
    return this.#linkedEnds.has(this.#ends.endOf(id));
  }
}

