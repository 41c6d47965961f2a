// The IndexReader over the memory store's Maps: the same rows, in the same order,
// as the SQLite reader gives for the same writes (test/store/reader-contract.test.ts).

import { currentFindingCodes } from '../../findings.js';
import { AliasEnds } from '../../ladder/index.js';
import { compareEdges } from '../edge-order.js';
import { decodeLink, type EncodedLink } from '../link-codec.js';
import { isRepresentationFetch, RepresentationEnds, withContentEvidence, type DuplicateMember } from '../duplicate-bodies.js';
import type {
  AliasRow,
  CrawlRunRow,
  DuplicateBodyRow,
  EdgeRow,
  FetchRow,
  FindingIdentity,
  FormRow,
  SitemapEntryRow,
  SitemapRow,
  Funnel,
  IndexReader,
  LinkRow,
  StoreStats,
  UrlRecord,
  UrlRow,
} from '../types.js';

/** A URL as the memory store keeps it. */
export interface MemoryUrlView extends UrlRecord {
  readonly firstFrom: number | undefined;
  readonly firstHref: string;
}

/** What the reader sees of the memory store: its live tables. */
export interface MemoryIndexView {
  /** By id - 1. */
  readonly urls: readonly MemoryUrlView[];
  /** Spellings by text, in the order first recorded. */
  readonly forms: ReadonlyMap<string, { readonly urlId: number; readonly rung: FormRow['rung'] }>;
  /** Each page's links, encoded as SQLite keeps them (link-codec.ts), in position order. */
  readonly pages: ReadonlyMap<number, readonly EncodedLink[]>;
  readonly aliases: Iterable<AliasRow>;
  /** By id - 1. */
  readonly fetches: readonly FetchRow[];
  stats(): StoreStats;
  runs(): CrawlRunRow[];
  readonly sitemaps?: readonly SitemapRow[];
  readonly sitemapEntries?: readonly SitemapEntryRow[];
  runFindings?(runId: number): readonly FindingIdentity[] | undefined;
}

export class MemoryIndexReader implements IndexReader {
  readonly #view: MemoryIndexView;

  constructor(view: MemoryIndexView) {
    this.#view = view;
  }

  stats(): Promise<StoreStats> {
    return Promise.resolve(this.#view.stats());
  }

  async funnel(): Promise<Funnel> {
    let [rawLinks, distinctStrings, distinctSyntax, distinctScheme, unresolved] = [0, 0, 0, 0, 0];
    for (const link of this.#allLinks()) {
      if (link.rung === undefined) {
        unresolved++;
        continue;
      }
      rawLinks++;
      // Met at `new`: a new key; at `scheme`: a new syntax form; at `syntax`: only a new string; at `string`: nothing new.
      if (link.ladderRung === 'new' || link.ladderRung === 'syntax' || link.ladderRung === 'scheme') distinctStrings++;
      if (link.ladderRung === 'new' || link.ladderRung === 'scheme') distinctSyntax++;
      if (link.ladderRung === 'new') distinctScheme++;
    }
    // §6.2.4: the distinct URLs that the links' own URLs stand for (an alias counts as the end of its chain).
    const next = new Map<number, number>();
    for (const url of this.#view.urls) if (url.state === 'alias' && url.aliasOf !== undefined) next.set(url.id, url.aliasOf);
    const ends = new AliasEnds<number>((id) => next.get(id));
    const distinct = new Set<number>();
    for (const url of this.#view.urls) if (url.firstFrom !== undefined) distinct.add(next.has(url.id) ? ends.endOf(url.id) : url.id);
    const afterAliases = distinct.size;
    return { rawLinks, distinctStrings, distinctSyntax, distinctScheme, afterAliases, unresolved };
  }

  async *urls(): AsyncGenerator<UrlRow> {
    const lastFetch = this.#lastFetches();
    const urls = this.#view.urls;
    for (let i = 0; i < urls.length; i++) yield this.#urlRow(urls[i]!, lastFetch.get(urls[i]!.id));
  }

  async url(id: number): Promise<UrlRow | undefined> {
    const url = this.#view.urls[id - 1];
    if (url === undefined) return undefined;
    return this.#urlRow(url, this.#view.fetches.findLast((f) => f.urlId === id));
  }

  async *forms(): AsyncGenerator<FormRow> {
    const rows = [...this.#view.forms].map(([text, form]): FormRow => ({ urlId: form.urlId, text, rung: form.rung }));
    yield* rows.sort((a, b) => a.urlId - b.urlId);
  }

  async *links(): AsyncGenerator<LinkRow> {
    yield* this.#allLinks();
  }

  async *edges(): AsyncGenerator<EdgeRow> {
    for (const from of [...this.#view.pages.keys()].sort((a, b) => a - b)) {
      const edges = new Map<string, { toUrlId: number; element: string | undefined; attribute: string | undefined; count: number }>();
      for (const link of this.#linksOf(from)) {
        if (link.metUrlId === undefined) continue;
        const toUrlId = link.metUrlId;
        const key = JSON.stringify([toUrlId, link.element ?? null, link.attribute ?? null]);
        const edge = edges.get(key);
        if (edge === undefined) edges.set(key, { toUrlId, element: link.element, attribute: link.attribute, count: 1 });
        else edge.count++;
      }
      const rows = [...edges.values()].map((edge): EdgeRow => ({ fromUrlId: from, ...edge }));
      yield* rows.sort(compareEdges);
    }
  }

  async *fetches(): AsyncGenerator<FetchRow> {
    const fetches = this.#view.fetches;
    for (let i = 0; i < fetches.length; i++) yield fetchRow(fetches[i]!);
  }

  async *aliases(): AsyncGenerator<AliasRow> {
    const rows = [...this.#view.aliases].map((alias): AliasRow => ({ ...alias }));
    yield* rows.sort((a, b) => a.createdAt - b.createdAt || a.fromId - b.fromId || compareText(a.evidence, b.evidence));
  }

  async runs(): Promise<readonly CrawlRunRow[]> {
    return this.#view.runs();
  }

  async *sitemaps(): AsyncGenerator<SitemapRow> {
    for (const row of [...(this.#view.sitemaps ?? [])]) yield { ...row, findings: row.findings.map((f) => ({ ...f })) };
  }

  async *sitemapEntries(): AsyncGenerator<SitemapEntryRow> {
    for (const row of [...(this.#view.sitemapEntries ?? [])]) yield { ...row };
  }

  async runFindings(runId: number): Promise<readonly FindingIdentity[] | undefined> {
    const rows = this.#view.runFindings?.(runId);
    return rows === undefined ? undefined : [...rows].sort(compareIdentity);
  }

  async errorsByCode(): Promise<Readonly<Record<string, number>>> {
    const counts = new Map<string, number>();
    for (const f of this.#lastFetches().values()) {
      const code = f.errorCode ?? (f.status !== undefined && f.status >= 400 ? `HTTP_${f.status}` : undefined);
      if (code !== undefined) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    return Object.fromEntries([...counts].sort(([a, m], [b, n]) => n - m || compareText(a, b)));
  }

  async *duplicateBodies(): AsyncGenerator<DuplicateBodyRow> {
    const ends = new RepresentationEnds(this.#view.aliases);
    // Each URL's current representation: its latest fetch that counts (fetches are in id order).
    const current = new Map<number, FetchRow>();
    for (const f of this.#view.fetches) if (isRepresentationFetch(f)) current.set(ends.endOf(f.representsUrlId ?? f.urlId), f);
    const byDigest = new Map<string, DuplicateMember[]>();
    for (const [urlId, f] of current) {
      if (f.digest === undefined || f.errorCode !== undefined) continue;
      const member: DuplicateMember = {
        digest: f.digest,
        urlId,
        key: this.#view.urls[urlId - 1]!.key,
        fetchId: f.id,
        fetchedUrlId: f.urlId,
        fetchedKey: this.#view.urls[f.urlId - 1]!.key,
      };
      const group = byDigest.get(f.digest);
      if (group === undefined) byDigest.set(f.digest, [member]);
      else group.push(member);
    }
    const groups = [...byDigest.values()].filter((group) => group.length > 1);
    for (const group of groups) group.sort((a, b) => compareText(a.key, b.key));
    groups.sort((a, b) => compareText(a[0]!.key, b[0]!.key) || compareText(a[0]!.digest, b[0]!.digest));
    yield* withContentEvidence(
      (async function* () {
        for (const group of groups) yield* group;
      })(),
      ends,
    );
  }

  async close(): Promise<void> {}

  *#allLinks(): Generator<LinkRow> {
    for (const page of [...this.#view.pages.keys()].sort((a, b) => a - b)) yield* this.#linksOf(page);
  }

  *#linksOf(page: number): Generator<LinkRow> {
    const links = this.#view.pages.get(page) ?? [];
    for (let i = 0; i < links.length; i++) yield decodeLink(page, i, links[i]!);
  }

  /** The last fetch of each URL that has one. */
  #lastFetches(): Map<number, FetchRow> {
    const last = new Map<number, FetchRow>();
    for (const f of this.#view.fetches) last.set(f.urlId, f);
    return last;
  }

  #urlRow(url: MemoryUrlView, lastFetch: FetchRow | undefined): UrlRow {
    const from = url.firstFrom === undefined ? undefined : this.#view.urls[url.firstFrom - 1];
    return {
      id: url.id,
      key: url.key,
      state: url.state,
      depth: url.depth,
      aliasOf: url.aliasOf,
      role: url.role,
      firstLink: { fromUrlId: url.firstFrom, fromKey: from?.key, rawHref: url.firstHref },
      lastFetch: lastFetch === undefined ? undefined : fetchRow(lastFetch),
    };
  }
}

/** A fetch as the SQLite reader gives it back (fresh arrays, retired codes read as their replacement). */
function fetchRow(f: FetchRow): FetchRow {
  return {
    ...f,
    redirects: f.redirects.map((hop) => ({ from: hop.from, to: hop.to, status: hop.status })),
    findings: [...currentFindingCodes(f.findings)],
    anchors: [...f.anchors],
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentity(a: FindingIdentity, b: FindingIdentity): number {
  return compareText(a.code, b.code) || compareText(a.page, b.page) || compareText(a.target, b.target) || compareText(a.href, b.href);
}
