// Admitting a link: the RFC 3986 §6.2 ladder climbed cheapest-first. A target
// string seen before costs one in-memory lookup; only an unseen string pays
// for normalization, then one lookup per rung until one meets a known URL.
// Shared by every store: they differ only in the IndexBackend below.

import { StoreError } from '../errors.js';
import { ladderForms, walkAliases, type LadderForms } from '../ladder/index.js';
import { parseUriReference } from '../uri/index.js';
import { roleRank, type AdmitEntry, type AdmitResult, type MatchRung, type UrlRole } from './types.js';

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
  readonly role: UrlRole;
  readonly depth: number;
  readonly firstSeen: number;
  /** The link that first named it: its page (`undefined` for a seed) and the href as written. */
  readonly firstFrom: number | undefined;
  readonly firstHref: string;
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
  /** Where the target met the index before aliases were followed; differs from `rung` only for `protocol`. */
  readonly ladderRung: LadderRung | undefined;
  /** The URL the target met before aliases were followed, when it is not `toUrlId`. */
  readonly metUrlId: number | undefined;
  readonly error: string | undefined;
  readonly findings: readonly string[] | undefined;
  readonly alternateTarget: string | undefined;
  /** Where the href's value is written in the page: 1-based line, and column in UTF-16 code units. */
  readonly line?: number | undefined;
  readonly column?: number | undefined;
}

/** The rungs the ladder climbs by itself (RFC 3986 §6.2.1–§6.2.3): `protocol` comes from aliases. */
export type LadderRung = Exclude<MatchRung, 'protocol'>;

/** The few synchronous primitives a store gives the admitter. */
export interface IndexBackend {
  findForm(text: string): FormHit | undefined;
  /** Insert a form, or mark an existing `syntax` form as seen `string`. */
  putForm(text: string, urlId: number, rung: 'string' | 'syntax'): void;
  /** The id of the URL whose key is exactly `key`. */
  findUrlByKey(key: string): number | undefined;
  /** Whether URL `id` was only recorded (`skipped`), and its role; `undefined` when there is no such URL. */
  standing(id: number): Standing | undefined;
  insertUrl(url: NewUrl): number;
  /** skipped → queued, with the role it is queued as; true when it changed. */
  followSkipped(id: number, depth: number, role: UrlRole): boolean;
  /** A queued URL (only) takes a higher `role` (`roleRank`) before it is claimed. */
  raiseRole(id: number, role: UrlRole): void;
  insertLink(link: NewLink): void;
  /** The alias target of `id` (redirect or content-location evidence), if it is an alias. */
  aliasTarget(id: number): number | undefined;
}

export interface AdmitterOptions {
  /** The clock (Unix ms). */
  readonly now: () => number;
}

/** What admission asks of a known URL. */
export interface Standing {
  readonly isSkipped: boolean;
  readonly role: UrlRole;
}

interface Known {
  readonly urlId: number;
  /** Whether the URL is (or was) on the frontier, i.e. not merely recorded as skipped. */
  readonly isFollowed: boolean;
  readonly role: UrlRole;
}

interface Match {
  readonly known: Known;
  readonly rung: MatchRung;
  readonly isQueued: boolean;
}

/** The link a new URL is first named by: its page, and the href as written. */
interface Origin {
  readonly fromUrlId?: number | undefined;
  readonly rawHref: string;
}

export class Admitter {
  readonly #backend: IndexBackend;
  readonly #now: () => number;
  // Links come in runs from one page: the last page checked to exist.
  #lastFrom: number | undefined;

  constructor(backend: IndexBackend, options: AdmitterOptions) {
    this.#backend = backend;
    this.#now = options.now;
  }

  /** Forget what it remembers of the last batch (after a rollback, or another writer's commit). */
  forget(): void {
    this.#lastFrom = undefined;
  }

  admit(entry: AdmitEntry): AdmitResult {
    if (entry.fromUrlId !== undefined && entry.fromUrlId !== this.#lastFrom) {
      if (this.#backend.standing(entry.fromUrlId) === undefined) {
        throw new StoreError('ERR_STORE_NOT_FOUND', `no page with URL id ${entry.fromUrlId} in the index`);
      }
      this.#lastFrom = entry.fromUrlId;
    }
    const follow = entry.follow !== false;
    const role = entry.role ?? 'page';
    let match: Match | undefined;
    let ladder: Match | undefined;
    let error = entry.target === undefined ? (entry.error ?? 'ERR_URI_NOT_ABSOLUTE') : undefined;
    let fragment: string | undefined;
    if (entry.target !== undefined) {
      const hash = entry.target.indexOf('#');
      const resource = hash === -1 ? entry.target : entry.target.slice(0, hash);
      fragment = hash === -1 ? undefined : entry.target.slice(hash + 1);
      const depth = entry.depth ?? 0;
      const forms = entry.forms !== undefined && entry.forms.string === resource ? entry.forms : undefined;
      const found = this.#climb(resource, entry, follow, depth, role, forms);
      if (typeof found === 'string') error = found;
      else {
        ladder = found;
        match = this.#followAliases(found, follow, depth, role);
      }
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
        ladderRung: ladder?.rung as LadderRung | undefined,
        metUrlId: ladder !== undefined && ladder.known.urlId !== match?.known.urlId ? ladder.known.urlId : undefined,
        error,
        findings: entry.findings !== undefined && entry.findings.length > 0 ? entry.findings : undefined,
        alternateTarget: entry.alternateTarget,
        line: entry.line,
        column: entry.column,
      });
    }
    return { urlId: match?.known.urlId, rung: match?.rung, ladderRung: ladder?.rung as LadderRung | undefined, isQueued: match?.isQueued ?? false, error };
  }

  // RFC 3986 §6.2.1 → §6.2.2 → §6.2.3, cheapest first: a target meets a URL at the
  // lowest rung at which its form equals the URL's key or a spelling of it seen
  // before. Spellings are stored only where they differ from the key, so a site
  // that writes its links in normal form costs one row per URL. Returns an error
  // code for an invalid target. With the target's `forms` (a resolved link), nothing
  // is parsed or normalized here.
  #climb(resource: string, origin: Origin, follow: boolean, depth: number, role: UrlRole, forms?: LadderForms): Match | string {
    const backend = this.#backend;
    const sameAsKey = backend.findUrlByKey(resource);
    if (sameAsKey !== undefined) return this.#reuse(this.#known(sameAsKey), 'string', follow, depth, role);
    const form = backend.findForm(resource);
    if (form !== undefined) {
      if (form.rung === 'syntax') backend.putForm(resource, form.urlId, 'string');
      return this.#reuse(this.#known(form.urlId), form.rung, follow, depth, role);
    }
    const ladder = forms ?? ladderFormsOf(resource);
    if (typeof ladder === 'string') return ladder;
    const syntaxKey = ladder.syntax;
    if (syntaxKey !== resource) {
      const known = this.#lookup(syntaxKey);
      if (known !== undefined) {
        backend.putForm(resource, known.urlId, 'string');
        return this.#reuse(known, 'syntax', follow, depth, role);
      }
    }
    const key = ladder.key;
    const existing = key === syntaxKey ? undefined : backend.findUrlByKey(key);
    let known: Known;
    let rung: MatchRung;
    let isQueued = false;
    if (existing !== undefined) {
      known = this.#known(existing);
      rung = 'scheme';
    } else {
      const state = follow ? 'queued' : 'skipped';
      const id = backend.insertUrl({
        key,
        scheme: ladder.scheme,
        host: ladder.host,
        state,
        role,
        depth,
        firstSeen: this.#now(),
        firstFrom: origin.fromUrlId,
        firstHref: origin.rawHref,
      });
      known = { urlId: id, isFollowed: follow, role };
      rung = 'new';
      isQueued = follow;
    }
    if (resource !== key) backend.putForm(resource, known.urlId, 'string');
    // The syntax key is kept too, so a later spelling that meets only it says "syntax".
    if (syntaxKey !== key && syntaxKey !== resource) backend.putForm(syntaxKey, known.urlId, 'syntax');
    return this.#reuse(known, rung, follow, depth, role, isQueued);
  }

  // A URL whose key, or a stored spelling, is exactly `text`.
  #lookup(text: string): Known | undefined {
    const id = this.#backend.findUrlByKey(text);
    if (id !== undefined) return this.#known(id);
    const form = this.#backend.findForm(text);
    return form === undefined ? undefined : this.#known(form.urlId);
  }

  #known(urlId: number): Known {
    const standing = this.#backend.standing(urlId);
    return { urlId, isFollowed: standing?.isSkipped !== true, role: standing?.role ?? 'page' };
  }

  // A known URL that was only recorded (skipped) goes on the frontier once a
  // followed link names it, as what that link makes it; one still queued takes the
  // higher role of the two (a page linked as an image too is read as a page).
  #reuse(known: Known, rung: MatchRung, follow: boolean, depth: number, role: UrlRole, isQueued = false): Match {
    let current = known;
    if (follow && !known.isFollowed) {
      isQueued = this.#backend.followSkipped(known.urlId, depth, role);
      current = { urlId: known.urlId, isFollowed: true, role };
    } else if (follow && roleRank(role) > roleRank(known.role)) {
      this.#backend.raiseRole(known.urlId, role);
    }
    return { known: current, rung, isQueued };
  }

  // RFC 3986 §6.2.4: a URL the server proved to be another names that other one.
  // Chains are followed; a cycle names its least id (the one rule of walkAliases).
  #followAliases(match: Match, follow: boolean, depth: number, role: UrlRole): Match {
    // Most URLs are no alias: their walk would be the URL alone.
    if (this.#backend.aliasTarget(match.known.urlId) === undefined) return match;
    const walk = walkAliases(match.known.urlId, (id) => this.#backend.aliasTarget(id));
    if (walk.path.length === 1) return match;
    const current = walk.end;
    const known = this.#known(current);
    let isQueued = false;
    if (follow && !known.isFollowed) isQueued = this.#backend.followSkipped(current, depth, role);
    else if (follow && roleRank(role) > roleRank(known.role)) this.#backend.raiseRole(current, role);
    return { known: { urlId: current, isFollowed: known.isFollowed || follow, role: known.role }, rung: 'protocol', isQueued };
  }
}

// The ladder forms of a target given as text, or the error code of a bad one.
function ladderFormsOf(resource: string): LadderForms | string {
  const parsed = parseUriReference(resource);
  if (!parsed.ok) return parsed.error.code;
  if (parsed.value.scheme === undefined) return 'ERR_URI_NOT_ABSOLUTE';
  return ladderForms(parsed.value as LadderTarget, resource);
}

type LadderTarget = Parameters<typeof ladderForms>[0];
