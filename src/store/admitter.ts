// Admitting a link: the RFC 3986 §6.2 ladder climbed cheapest-first. A target
// string seen before costs one cache or index lookup; only an unseen string pays
// for normalization, then one lookup per rung until one meets a known URL.
// Shared by every IndexStore: they differ only in the IndexBackend below.

import { StoreError } from '../errors.js';
import { normalizeScheme, normalizeSyntax } from '../ladder/index.js';
import { parseUriReference, serialize } from '../uri/index.js';
import { RecentCache } from './recent-cache.js';
import type { AdmitEntry, AdmitResult, MatchRung, UrlState } from './types.js';

/** What a form row says: the URL it belongs to, and whether it was seen as written. */
export interface FormHit {
  readonly urlId: number;
  readonly rung: 'string' | 'syntax';
}

export interface NewUrl {
  readonly key: string;
  readonly scheme: string;
  readonly host: string | undefined;
  readonly state: 'queued' | 'skipped';
  readonly depth: number;
  readonly firstSeen: number;
}

export interface NewLink {
  readonly fromUrlId: number;
  readonly toUrlId: number | undefined;
  readonly rawHref: string;
  readonly fragment: string | undefined;
  readonly element: string | undefined;
  readonly attribute: string | undefined;
  readonly baseLevel: string | undefined;
  readonly rung: MatchRung | undefined;
  readonly error: string | undefined;
}

/** The few synchronous primitives a store gives the admitter. */
export interface IndexBackend {
  findForm(text: string): FormHit | undefined;
  /** Insert a form, or mark an existing `syntax` form as seen `string`. */
  putForm(text: string, urlId: number, rung: 'string' | 'syntax'): void;
  findUrlByKey(key: string): { readonly id: number; readonly state: UrlState } | undefined;
  urlState(id: number): UrlState | undefined;
  insertUrl(url: NewUrl): number;
  /** skipped → queued; true when it changed. */
  followSkipped(id: number, depth: number): boolean;
  insertLink(link: NewLink): void;
  /** The alias target of `id` (redirect or content-location evidence), if it is an alias. */
  aliasTarget(id: number): number | undefined;
}

export interface AdmitterOptions {
  /**
   * How many target strings to remember in front of the index.
   * @default 200_000
   */
  readonly cacheSize?: number | undefined;
  /** The clock (Unix ms). */
  readonly now: () => number;
}

export const DEFAULT_CACHE_SIZE = 200_000;

interface Known {
  readonly urlId: number;
  /** Whether the URL is (or was) on the frontier, i.e. not merely recorded as skipped. */
  readonly isFollowed: boolean;
}

interface Match {
  readonly known: Known;
  readonly rung: MatchRung;
  readonly isQueued: boolean;
}

export class Admitter {
  readonly #backend: IndexBackend;
  readonly #cache: RecentCache<string, Known>;
  readonly #now: () => number;
  // Links come in runs from one page: the last page checked to exist.
  #lastFrom: number | undefined;

  constructor(backend: IndexBackend, options: AdmitterOptions) {
    this.#backend = backend;
    this.#cache = new RecentCache(options.cacheSize ?? DEFAULT_CACHE_SIZE);
    this.#now = options.now;
  }

  /** Forget the cache (after a rolled-back batch, or a change the cache cannot see). */
  forget(): void {
    this.#cache.clear();
    this.#lastFrom = undefined;
  }

  admit(entry: AdmitEntry): AdmitResult {
    if (entry.fromUrlId !== undefined && entry.fromUrlId !== this.#lastFrom) {
      if (this.#backend.urlState(entry.fromUrlId) === undefined) {
        throw new StoreError('ERR_STORE_NOT_FOUND', `no page with URL id ${entry.fromUrlId} in the index`);
      }
      this.#lastFrom = entry.fromUrlId;
    }
    const follow = entry.follow !== false;
    let match: Match | undefined;
    let error = entry.target === undefined ? (entry.error ?? 'ERR_URI_NOT_ABSOLUTE') : undefined;
    let fragment: string | undefined;
    if (entry.target !== undefined) {
      const hash = entry.target.indexOf('#');
      const resource = hash === -1 ? entry.target : entry.target.slice(0, hash);
      fragment = hash === -1 ? undefined : entry.target.slice(hash + 1);
      const found = this.#climb(resource, follow, entry.depth ?? 0);
      if (typeof found === 'string') error = found;
      else match = this.#followAliases(found, follow, entry.depth ?? 0);
    }
    if (entry.fromUrlId !== undefined) {
      this.#backend.insertLink({
        fromUrlId: entry.fromUrlId,
        toUrlId: match?.known.urlId,
        rawHref: entry.rawHref,
        fragment,
        element: entry.element,
        attribute: entry.attribute,
        baseLevel: entry.baseLevel,
        rung: match?.rung,
        error,
      });
    }
    return { urlId: match?.known.urlId, rung: match?.rung, isQueued: match?.isQueued ?? false, error };
  }

  // RFC 3986 §6.2.1 → §6.2.2 → §6.2.3, cheapest first: a target meets a URL at the
  // lowest rung at which its form equals the URL's key or a spelling of it seen
  // before. Spellings are stored only where they differ from the key, so a site
  // that writes its links in normal form costs one row per URL. Returns an error
  // code for an invalid target.
  #climb(resource: string, follow: boolean, depth: number): Match | string {
    const cached = this.#cache.get(resource);
    if (cached !== undefined) {
      if (!follow || cached.isFollowed) return { known: cached, rung: 'string', isQueued: false };
      return this.#reuse(resource, cached, 'string', follow, depth);
    }
    const backend = this.#backend;
    const sameAsKey = backend.findUrlByKey(resource);
    if (sameAsKey !== undefined) return this.#reuse(resource, this.#fromRow(sameAsKey), 'string', follow, depth);
    const form = backend.findForm(resource);
    if (form !== undefined) {
      if (form.rung === 'syntax') backend.putForm(resource, form.urlId, 'string');
      return this.#reuse(resource, this.#known(form.urlId), form.rung, follow, depth);
    }
    const parsed = parseUriReference(resource);
    if (!parsed.ok) return parsed.error.code;
    if (parsed.value.scheme === undefined) return 'ERR_URI_NOT_ABSOLUTE';
    const syntax = normalizeSyntax(parsed.value);
    const syntaxKey = syntax === parsed.value ? resource : serialize(syntax);
    if (syntaxKey !== resource) {
      const known = this.#lookup(syntaxKey);
      if (known !== undefined) {
        backend.putForm(resource, known.urlId, 'string');
        return this.#reuse(resource, known, 'syntax', follow, depth);
      }
    }
    const scheme = normalizeScheme(syntax);
    const key = scheme === syntax ? syntaxKey : serialize(scheme);
    const existing = key === syntaxKey ? undefined : backend.findUrlByKey(key);
    let known: Known;
    let rung: MatchRung;
    let isQueued = false;
    if (existing !== undefined) {
      known = this.#fromRow(existing);
      rung = 'scheme';
    } else {
      const state = follow ? 'queued' : 'skipped';
      const id = backend.insertUrl({ key, scheme: scheme.scheme!, host: scheme.host, state, depth, firstSeen: this.#now() });
      known = { urlId: id, isFollowed: follow };
      rung = 'new';
      isQueued = follow;
    }
    if (resource !== key) backend.putForm(resource, known.urlId, 'string');
    // The syntax key is kept too, so a later spelling that meets only it says "syntax".
    if (syntaxKey !== key && syntaxKey !== resource) backend.putForm(syntaxKey, known.urlId, 'syntax');
    return this.#reuse(resource, known, rung, follow, depth, isQueued);
  }

  // A URL whose key, or a stored spelling, is exactly `text`.
  #lookup(text: string): Known | undefined {
    const row = this.#backend.findUrlByKey(text);
    if (row !== undefined) return this.#fromRow(row);
    const form = this.#backend.findForm(text);
    return form === undefined ? undefined : this.#known(form.urlId);
  }

  #fromRow(row: { readonly id: number; readonly state: UrlState }): Known {
    return { urlId: row.id, isFollowed: row.state !== 'skipped' };
  }

  #known(urlId: number): Known {
    return { urlId, isFollowed: this.#backend.urlState(urlId) !== 'skipped' };
  }

  // A known URL that was only recorded (skipped) goes on the frontier once a
  // followed link names it.
  #reuse(resource: string, known: Known, rung: MatchRung, follow: boolean, depth: number, isQueued = false): Match {
    let current = known;
    if (follow && !known.isFollowed) {
      isQueued = this.#backend.followSkipped(known.urlId, depth);
      current = { urlId: known.urlId, isFollowed: true };
    }
    this.#cache.set(resource, current);
    return { known: current, rung, isQueued };
  }

  // RFC 3986 §6.2.4: a URL the server proved to be another names that other one.
  // Chains are followed; a loop (A → B → A) names its least id (the first seen).
  #followAliases(match: Match, follow: boolean, depth: number): Match {
    let target = this.#backend.aliasTarget(match.known.urlId);
    if (target === undefined) return match;
    const seen = new Set<number>([match.known.urlId]);
    let current = match.known.urlId;
    while (target !== undefined && !seen.has(target)) {
      seen.add(target);
      current = target;
      target = this.#backend.aliasTarget(current);
    }
    if (target !== undefined) current = Math.min(...seen);
    const known = this.#known(current);
    let isQueued = false;
    if (follow && !known.isFollowed) isQueued = this.#backend.followSkipped(current, depth);
    return { known: { urlId: current, isFollowed: known.isFollowed || follow }, rung: 'protocol', isQueued };
  }
}
