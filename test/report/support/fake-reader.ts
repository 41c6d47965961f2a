// An in-memory IndexReader for the report tests: rows given as arrays (or, for very
// large graphs, as functions that generate them lazily), with row builders that fill
// in the fields a test does not care about.

import { ALIAS_EVIDENCE } from '../../../src/ladder/index.js';
import {
  MATCH_RUNGS,
  URL_STATES,
  type AliasRow,
  type EdgeRow,
  type FetchRow,
  type FormRow,
  type Funnel,
  type IndexReader,
  type LinkRow,
  type StoreStats,
  type UrlRow,
} from '../../../src/store/index.js';

/** Rows as a list, or as a function that yields them anew on each call. */
export type Rows<T> = readonly T[] | (() => Iterable<T>);

export interface FakeIndex {
  readonly urls?: Rows<UrlRow>;
  readonly forms?: Rows<FormRow>;
  readonly links?: Rows<LinkRow>;
  readonly edges?: Rows<EdgeRow>;
  readonly fetches?: Rows<FetchRow>;
  readonly aliases?: Rows<AliasRow>;
  /** Default: derived from the links (see `deriveFunnel`). */
  readonly funnel?: Funnel;
  /** Default: derived from the URLs, links, aliases and fetches. */
  readonly stats?: StoreStats;
  /** Default: derived from the last fetch of each URL. */
  readonly errorsByCode?: Readonly<Record<string, number>>;
}

export class FakeReader implements IndexReader {
  readonly #index: FakeIndex;
  /** How many times each list was walked: what a test of streaming may check. */
  readonly passes: Record<'urls' | 'forms' | 'links' | 'edges' | 'fetches' | 'aliases', number> = {
    urls: 0,
    forms: 0,
    links: 0,
    edges: 0,
    fetches: 0,
    aliases: 0,
  };
  isClosed = false;

  constructor(index: FakeIndex = {}) {
    this.#index = index;
  }

  stats(): StoreStats {
    return this.#index.stats ?? deriveStats(this.#index);
  }

  funnel(): Funnel {
    return this.#index.funnel ?? deriveFunnel(this.#index);
  }

  errorsByCode(): Readonly<Record<string, number>> {
    return this.#index.errorsByCode ?? deriveErrors(this.#index);
  }

  urls(): IterableIterator<UrlRow> {
    this.passes.urls += 1;
    return iterate(this.#index.urls);
  }

  url(id: number): UrlRow | undefined {
    for (const row of iterate(this.#index.urls)) if (row.id === id) return row;
    return undefined;
  }

  forms(): IterableIterator<FormRow> {
    this.passes.forms += 1;
    return iterate(this.#index.forms);
  }

  links(): IterableIterator<LinkRow> {
    this.passes.links += 1;
    return iterate(this.#index.links);
  }

  edges(): IterableIterator<EdgeRow> {
    this.passes.edges += 1;
    return iterate(this.#index.edges);
  }

  fetches(): IterableIterator<FetchRow> {
    this.passes.fetches += 1;
    return iterate(this.#index.fetches);
  }

  aliases(): IterableIterator<AliasRow> {
    this.passes.aliases += 1;
    return iterate(this.#index.aliases);
  }

  close(): void {
    this.isClosed = true;
  }
}

function* iterate<T>(rows: Rows<T> | undefined): IterableIterator<T> {
  if (rows === undefined) return;
  yield* typeof rows === 'function' ? rows() : rows;
}

function list<T>(rows: Rows<T> | undefined): T[] {
  return [...iterate(rows)];
}

// ---------------------------------------------------------------------------
// Row builders: the identifying fields, and defaults for the rest.

export function urlRow(row: Pick<UrlRow, 'id' | 'key'> & Partial<UrlRow>): UrlRow {
  return { state: 'done', depth: 0, aliasOf: undefined, firstLink: undefined, lastFetch: undefined, ...row };
}

export function formRow(urlId: number, text: string, rung: FormRow['rung'] = 'string'): FormRow {
  return { urlId, text, rung };
}

export function edgeRow(row: Pick<EdgeRow, 'fromUrlId' | 'toUrlId'> & Partial<EdgeRow>): EdgeRow {
  return { element: 'a', attribute: 'href', count: 1, ...row };
}

export function linkRow(row: Pick<LinkRow, 'fromUrlId' | 'position' | 'rawHref'> & Partial<LinkRow>): LinkRow {
  return {
    toUrlId: undefined,
    fragment: undefined,
    element: 'a',
    attribute: 'href',
    baseLevel: 'retrieval',
    rung: 'new',
    ladderRung: 'new',
    error: undefined,
    findings: [],
    alternateTarget: undefined,
    metUrlId: row.toUrlId,
    ...row,
  };
}

export function fetchRow(row: Pick<FetchRow, 'id' | 'urlId'> & Partial<FetchRow>): FetchRow {
  return {
    startedAt: 0,
    durationMs: 1,
    status: 200,
    contentType: 'text/html',
    bytes: 100,
    errorCode: undefined,
    finalUrl: undefined,
    attempts: 1,
    redirects: [],
    findings: [],
    anchors: [],
    representsUrlId: undefined,
    ...row,
  };
}

export function aliasRow(row: Pick<AliasRow, 'fromId' | 'fromKey' | 'toId' | 'toKey'> & Partial<AliasRow>): AliasRow {
  return { evidence: 'redirect', detail: undefined, createdAt: 0, ...row };
}

// ---------------------------------------------------------------------------
// What a real index would say about the same rows, for tests that give only rows.

function zero<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

export function deriveStats(index: FakeIndex): StoreStats {
  const urlsByState = zero(URL_STATES);
  for (const url of iterate(index.urls)) urlsByState[url.state] += 1;
  const linksByRung = zero(MATCH_RUNGS);
  let links = 0;
  let linksWithoutTarget = 0;
  for (const link of iterate(index.links)) {
    links += 1;
    if (link.rung === undefined) linksWithoutTarget += 1;
    else linksByRung[link.rung] += 1;
  }
  const aliasesByEvidence = zero(ALIAS_EVIDENCE);
  for (const alias of iterate(index.aliases)) aliasesByEvidence[alias.evidence] += 1;
  return { urlsByState, links, linksByRung, linksWithoutTarget, aliasesByEvidence, fetches: list(index.fetches).length };
}

/**
 * The funnel of the links: a link at ladder rung `new` brings a new scheme-rung key;
 * `scheme` a new syntax form; `syntax` a new string; `string` nothing new.
 */
export function deriveFunnel(index: FakeIndex): Funnel {
  const counts = zero(MATCH_RUNGS);
  let rawLinks = 0;
  let unresolved = 0;
  for (const link of iterate(index.links)) {
    if (link.ladderRung === undefined) {
      unresolved += 1;
      continue;
    }
    rawLinks += 1;
    counts[link.ladderRung] += 1;
  }
  const distinctScheme = counts.new;
  const distinctSyntax = distinctScheme + counts.scheme;
  const distinctStrings = distinctSyntax + counts.syntax;
  const linked = new Set<number>();
  for (const link of iterate(index.links)) if (link.toUrlId !== undefined) linked.add(link.toUrlId);
  const afterAliases = list(index.urls).filter((url) => linked.has(url.id) && url.state !== 'alias').length;
  return { rawLinks, distinctStrings, distinctSyntax, distinctScheme, afterAliases, unresolved };
}

export function deriveErrors(index: FakeIndex): Record<string, number> {
  const errors: Record<string, number> = {};
  for (const url of iterate(index.urls)) {
    const fetch = url.lastFetch;
    if (fetch === undefined) continue;
    const code = fetch.errorCode ?? (fetch.status !== undefined && fetch.status >= 400 ? `HTTP_${fetch.status}` : undefined);
    if (code !== undefined) errors[code] = (errors[code] ?? 0) + 1;
  }
  return errors;
}
