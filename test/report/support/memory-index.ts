// Report fixtures written through the IndexWriter of a real MemoryStore and read
// back through its IndexReader: the rows a report sees are what a crawl's writes
// make of them (ids, states, rungs, edges, the funnel), never hand-made.

import { MemoryStore, type AliasRecord, type FetchRecord, type IndexReader, type IndexWriter, type UrlRole, type UrlState } from '../../../src/store/index.js';

/** A URL, created (in id order, as a seed) with its fetches; its state follows from them. */
export interface UrlSpec {
  /** Checked: URLs are listed in the order the index numbers them. */
  readonly id: number;
  readonly key: string;
  /** `skipped`: recorded, not followed; `failed`: its fetches fail; `alias`: of `aliasOf`. Else done once fetched, queued before. */
  readonly state?: UrlState | undefined;
  readonly depth?: number | undefined;
  /** The page whose link (`a href`, the key as written) first named it; else it is a seed. */
  readonly from?: number | undefined;
  readonly aliasOf?: number | undefined;
  /** How it relates to the crawl (`external`: out of its scope). @default 'page' */
  readonly role?: UrlRole | undefined;
  /** The evidence of `aliasOf`. @default 'redirect' */
  readonly evidence?: AliasRecord['evidence'] | undefined;
  readonly detail?: string | undefined;
  /** Its fetches, in order (fields left out: a 200 text/html page of 100 bytes in 1 ms). */
  readonly fetches?: readonly Partial<Omit<FetchRecord, 'urlId'>>[] | undefined;
}

/** A link, admitted in list order (positions follow). */
export interface LinkSpec {
  readonly from: number;
  readonly rawHref: string;
  /** The URL the target meets; none for an href that did not resolve. */
  readonly to?: number | undefined;
  /** The target as written, when not `to`'s key (nor `spelling` of it). */
  readonly target?: string | undefined;
  /** How the target spells `to`'s key: as it is, or a spelling met at the `syntax` or `scheme` rung. @default 'string' */
  readonly spelling?: 'string' | 'syntax' | 'scheme' | undefined;
  /** Admitted once `to` is an alias, so that the link names its target (the protocol rung). */
  readonly isThroughAlias?: boolean | undefined;
  readonly fragment?: string | undefined;
  /** `null` for none. @default 'a' */
  readonly element?: string | null | undefined;
  /** `null` for none. @default 'href' */
  readonly attribute?: string | null | undefined;
  readonly baseLevel?: 'base-element' | 'content-location' | 'retrieval' | 'default' | undefined;
  readonly findings?: readonly string[] | undefined;
  readonly alternateTarget?: string | undefined;
  readonly error?: string | undefined;
}

export interface IndexSpec {
  readonly urls?: readonly UrlSpec[];
  readonly links?: readonly LinkSpec[];
  /** Spellings of URLs, admitted as seeds (no link) after the URLs: they become forms. */
  readonly spellings?: readonly string[] | undefined;
  /** Aliases besides those of `aliasOf` (a canonical claim, say), recorded after them. */
  readonly aliases?: readonly AliasRecord[];
}

/** The store, written as `spec` says. */
export async function writeIndex(spec: IndexSpec, store: IndexWriter = new MemoryStore({ now: () => 0 })): Promise<IndexWriter> {
  const urls = spec.urls ?? [];
  const keyOf = new Map<number, string>();
  for (const url of urls) {
    const [admitted] = await store.admit([
      { fromUrlId: url.from, rawHref: url.key, target: url.key, element: url.from === undefined ? undefined : 'a', attribute: url.from === undefined ? undefined : 'href', depth: url.depth ?? 0, follow: url.state !== 'skipped', role: url.role },
    ]);
    if (admitted?.urlId !== url.id || admitted.rung !== 'new') throw new Error(`${url.key} is URL ${admitted?.urlId} (${admitted?.rung}), not ${url.id}`);
    keyOf.set(url.id, url.key);
  }
  if (spec.spellings !== undefined) await store.admit(spec.spellings.map((text) => ({ rawHref: text, target: text })));
  for (const url of urls) {
    for (const fetch of url.fetches ?? []) {
      await store.recordFetch({
        outcome: url.state === 'failed' ? 'failed' : 'done',
        startedAt: 0,
        durationMs: 1,
        status: 200,
        contentType: 'text/html',
        bytes: 100,
        ...fetch,
        urlId: url.id,
      });
    }
  }
  let areAliasesRecorded = false;
  const recordAliases = async (): Promise<void> => {
    if (areAliasesRecorded) return;
    areAliasesRecorded = true;
    for (const url of urls) {
      if (url.aliasOf !== undefined) await store.addAlias({ fromId: url.id, toId: url.aliasOf, evidence: url.evidence ?? 'redirect', detail: url.detail });
    }
    for (const alias of spec.aliases ?? []) await store.addAlias(alias);
  };
  for (const link of spec.links ?? []) {
    if (link.isThroughAlias === true) await recordAliases();
    const key = link.to === undefined ? undefined : keyOf.get(link.to);
    if (link.to !== undefined && key === undefined) throw new Error(`no URL ${link.to}`);
    const target = link.target ?? (key === undefined ? undefined : spell(key, link.spelling ?? 'string') + (link.fragment === undefined ? '' : `#${link.fragment}`));
    const [admitted] = await store.admit([
      {
        fromUrlId: link.from,
        rawHref: link.rawHref,
        target,
        error: link.error,
        element: link.element === null ? undefined : (link.element ?? 'a'),
        attribute: link.attribute === null ? undefined : (link.attribute ?? 'href'),
        baseLevel: link.baseLevel ?? 'retrieval',
        findings: link.findings,
        alternateTarget: link.alternateTarget,
        follow: false,
        depth: 1,
      },
    ]);
    const expected = link.isThroughAlias === true ? 'protocol' : link.spelling ?? 'string';
    if (target !== undefined && link.target === undefined && admitted?.rung !== expected) throw new Error(`the link ${link.rawHref} met the index at ${admitted?.rung}, not ${expected}`);
  }
  await recordAliases();
  await store.flush();
  return store;
}

/** A reader over a MemoryStore written as `spec` says. */
export async function readerOf(spec: IndexSpec): Promise<IndexReader> {
  const store = (await writeIndex(spec)) as MemoryStore;
  return store.reader();
}

/** `key` as a link may spell it: itself, or a spelling the syntax (case) or scheme (empty port) rung folds into it. */
function spell(key: string, rung: 'string' | 'syntax' | 'scheme'): string {
  const colon = key.indexOf(':');
  if (rung === 'syntax') return key.slice(0, colon).toUpperCase() + key.slice(colon);
  if (rung === 'scheme') {
    const authorityEnd = key.indexOf('/', colon + 3);
    return authorityEnd < 0 ? `${key}:` : `${key.slice(0, authorityEnd)}:${key.slice(authorityEnd)}`;
  }
  return key;
}
