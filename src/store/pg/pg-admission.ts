// Admission on PostgreSQL: the same Admitter as SQLite's and the memory
// store's, so the same rung attribution (RFC 3986 §6.2 climbed cheapest-first), run
// over a snapshot of what the batch can meet. Per batch: one query reads every URL
// and spelling the batch's texts name (with their alias chains, §6.2.4); the
// Admitter runs in memory; one statement writes what it decided. What no worker can
// undo (a key's URL, a spelling seen as written, a URL that is followed) is remembered
// between batches (known-urls.ts): a target met before is not read again, only whether
// its URL has become an alias since. Two workers that
// admit the same new URL, or the same new spelling of one, at once: one statement fails
// on the key's (or the spelling's) unique index and that batch is admitted again over a
// new snapshot, so there is one row and the second batch's links meet it at the rung
// SQLite would give had the two batches come one after the other.

import { StoreError } from '../../errors.js';
import { ladderForms, type LadderForms } from '../../ladder/index.js';
import { parseUriReference } from '../../uri/index.js';
import { Admitter, type FormHit, type IndexBackend, type NewLink, type NewUrl, type Standing } from '../admitter.js';
import { encodeLink, LINK_FORMAT, type EncodedLink } from '../link-codec.js';
import { roleRank, type AdmitEntry, type AdmitResult, type UrlRole, type UrlState } from '../types.js';
import type { Sql } from './pg-database.js';
import { noFacts, type KnownUrls, type LearnedFacts } from './known-urls.js';
import { siteOf } from './site-hash.js';
import { stateIn } from '../url-state-machine.js';

/** Runs a query: the pool, or the transaction a unit runs in. */
export type Executor = Sql;

/** How many times a batch is admitted again after another worker won a race for one of its keys (or a deadlock). */
const MAX_RACES = 8;

/** A URL the batch meets: read by the snapshot (its state), or remembered (state undefined: followed, and no alias now). */
interface BatchUrl {
  readonly id: number;
  readonly site: number;
  state: UrlState | undefined;
  role: UrlRole;
  readonly aliasOf: number | undefined;
}

interface PendingUrl {
  site: number;
  id: number;
  key: string;
  scheme: string;
  host: string | null;
  state: string;
  role: UrlRole;
  depth: number;
  firstSeen: number;
  firstFrom: number | null;
  firstHref: string;
}

/** A change to a URL that existed before the batch: followed (skipped → queued), or a higher role. */
interface UrlChange {
  site: number;
  isFollowed: boolean;
  depth: number;
  role: UrlRole;
}

// The tally pairs of link_tally, as SQLite's LinkWriter counts them.
function tallyName(rung: string | undefined): string {
  return rung ?? 'none';
}

/** What one batch decided, to be written in one statement. */
class BatchWrites {
  readonly urls: PendingUrl[] = [];
  readonly newForms = new Map<string, { site: number; text: string; urlId: number; rung: 'string' | 'syntax' }>();
  readonly seenForms: { site: number; text: string }[] = [];
  readonly changes = new Map<number, UrlChange>();
  readonly links = new Map<number, { site: number; links: EncodedLink[] }>();
  readonly tally = new Map<string, number>();
}

/** A URL row of the snapshot query (`text` is its key). */
interface SnapshotUrlRow {
  readonly id: number;
  readonly site: number;
  readonly text: string;
  readonly state: UrlState;
  readonly role: UrlRole | null;
  readonly alias_of: number | null;
}

/**
 * The Admitter's backend over a snapshot: lookups answer from the rows the batch's
 * query read, and writes are collected for the batch's one statement.
 */
class SnapshotBackend implements IndexBackend {
  readonly #keys = new Map<string, number>();
  readonly #forms = new Map<string, FormHit>();
  readonly #urls = new Map<number, BatchUrl>();
  readonly #known: KnownUrls;
  readonly #takeId: () => number;
  writes = new BatchWrites();
  /** What the batch read, to be remembered once its write is committed. */
  readonly #read = noFacts();

  constructor(known: KnownUrls, takeId: () => number) {
    this.#known = known;
    this.#takeId = takeId;
  }

  addUrl(row: SnapshotUrlRow): void {
    const role = row.role ?? 'page';
    this.#keys.set(row.text, row.id);
    this.#urls.set(row.id, { id: row.id, site: row.site, state: row.state, role, aliasOf: row.alias_of ?? undefined });
    this.#read.keys.push([row.text, row.id]);
    if (row.state !== 'skipped') this.#read.urls.push([row.id, { site: row.site, role }]);
  }

  addForm(text: string, urlId: number, rung: 'string' | 'syntax'): void {
    this.#forms.set(text, { urlId, rung });
    if (rung === 'string') this.#read.forms.push([text, urlId]);
  }

  findForm(text: string): FormHit | undefined {
    const form = this.#forms.get(text);
    if (form !== undefined) return form;
    const urlId = this.#known.urlBySpelling(text);
    return urlId === undefined ? undefined : { urlId, rung: 'string' };
  }

  putForm(text: string, urlId: number, rung: 'string' | 'syntax'): void {
    const existing = this.findForm(text);
    if (existing !== undefined) {
      if (rung === 'string' && existing.rung === 'syntax') {
        this.#forms.set(text, { urlId: existing.urlId, rung });
        const pending = this.writes.newForms.get(text);
        if (pending !== undefined) pending.rung = 'string';
        else this.writes.seenForms.push({ site: this.#siteOf(existing.urlId), text });
      }
      return;
    }
    this.#forms.set(text, { urlId, rung });
    this.writes.newForms.set(text, { site: this.#siteOf(urlId), text, urlId, rung });
  }

  findUrlByKey(key: string): number | undefined {
    return this.#keys.get(key) ?? this.#known.urlByKey(key);
  }

  standing(id: number): Standing | undefined {
    const url = this.#url(id);
    return url === undefined ? undefined : { isSkipped: url.state === 'skipped', role: url.role };
  }

  insertUrl(url: NewUrl): number {
    const id = this.#takeId();
    const site = siteOf(url.host);
    this.#keys.set(url.key, id);
    this.#urls.set(id, { id, site, state: url.state, role: url.role, aliasOf: undefined });
    this.writes.urls.push({
      site,
      id,
      key: url.key,
      scheme: url.scheme,
      host: url.host ?? null,
      state: url.state,
      role: url.role,
      depth: url.depth,
      firstSeen: url.firstSeen,
      firstFrom: url.firstFrom ?? null,
      firstHref: url.firstHref,
    });
    return id;
  }

  followSkipped(id: number, depth: number, role: UrlRole): boolean {
    const url = this.#url(id);
    if (url === undefined || url.state !== 'skipped') return false;
    url.state = 'queued';
    url.role = role;
    const pending = this.#pendingUrl(id);
    if (pending !== undefined) {
      pending.state = 'queued';
      pending.depth = Math.min(pending.depth, depth);
      pending.role = role;
    } else {
      const change = this.writes.changes.get(id);
      this.writes.changes.set(id, { site: url.site, isFollowed: true, depth: Math.min(depth, change?.depth ?? depth), role });
    }
    return true;
  }

  // A remembered URL's state is not read: the write raises it only if it is still queued then.
  raiseRole(id: number, role: UrlRole): void {
    const url = this.#url(id);
    if (url === undefined || (url.state !== 'queued' && url.state !== undefined) || roleRank(role) <= roleRank(url.role)) return;
    url.role = role;
    const pending = this.#pendingUrl(id);
    if (pending !== undefined) pending.role = role;
    else {
      const change = this.writes.changes.get(id);
      this.writes.changes.set(id, { site: url.site, isFollowed: change?.isFollowed ?? false, depth: change?.depth ?? 0, role });
    }
  }

  insertLink(link: NewLink): void {
    let page = this.writes.links.get(link.fromUrlId);
    if (page === undefined) this.writes.links.set(link.fromUrlId, (page = { site: this.#siteOf(link.fromUrlId), links: [] }));
    page.links.push(encodeLink(link));
    const pair = `${tallyName(link.rung)}\t${tallyName(link.ladderRung)}`;
    this.writes.tally.set(pair, (this.writes.tally.get(pair) ?? 0) + 1);
  }

  aliasTarget(id: number): number | undefined {
    const url = this.#urls.get(id);
    return url?.state === 'alias' ? url.aliasOf : undefined;
  }

  /** What the batch read and wrote that no worker can undo (known-urls.ts), once its write is committed. */
  learned(written: readonly string[]): LearnedFacts {
    const facts = this.#read;
    const changed = new Set(this.writes.changes.keys());
    // A URL this batch followed or raised is read again next time: the change may have met another worker's.
    const urls = facts.urls.filter(([id]) => !changed.has(id));
    for (const url of this.writes.urls) {
      facts.keys.push([url.key, url.id]);
      if (url.state !== 'skipped') urls.push([url.id, { site: url.site, role: url.role }]);
    }
    // Spellings: those this batch inserted at the `string` rung (`written`) and those it raised to it.
    const isWritten = new Set(written);
    for (const form of this.writes.newForms.values()) if (form.rung === 'string' && isWritten.has(form.text)) facts.forms.push([form.text, form.urlId]);
    for (const form of this.writes.seenForms) {
      const urlId = this.#forms.get(form.text)?.urlId;
      if (urlId !== undefined) facts.forms.push([form.text, urlId]);
    }
    return { keys: facts.keys, forms: facts.forms, urls, forget: [...changed] };
  }

  // Read by this batch, or remembered (followed, and not an alias: the snapshot reads every remembered URL that is one).
  #url(id: number): BatchUrl | undefined {
    const url = this.#urls.get(id);
    if (url !== undefined) return url;
    const known = this.#known.url(id);
    if (known === undefined) return undefined;
    const batchUrl: BatchUrl = { id, site: known.site, state: undefined, role: known.role, aliasOf: undefined };
    this.#urls.set(id, batchUrl);
    return batchUrl;
  }

  #siteOf(urlId: number): number {
    const url = this.#url(urlId);
    if (url === undefined) throw new StoreError('ERR_STORE_NOT_FOUND', `no URL with id ${urlId} in the index`);
    return url.site;
  }

  // A URL this batch inserts (a handful a batch: a linear search is cheaper than a map).
  #pendingUrl(id: number): PendingUrl | undefined {
    for (let i = this.writes.urls.length - 1; i >= 0; i--) if (this.writes.urls[i]!.id === id) return this.writes.urls[i];
    return undefined;
  }
}

/** A target's forms, or an error code (an entry without target has none). */
function formsOf(entry: AdmitEntry): LadderForms | string | undefined {
  if (entry.target === undefined) return undefined;
  const hash = entry.target.indexOf('#');
  const resource = hash === -1 ? entry.target : entry.target.slice(0, hash);
  if (entry.forms !== undefined && entry.forms.string === resource) return entry.forms;
  const parsed = parseUriReference(resource);
  if (!parsed.ok) return parsed.error.code;
  if (parsed.value.scheme === undefined) return 'ERR_URI_NOT_ABSOLUTE';
  return ladderForms(parsed.value as Parameters<typeof ladderForms>[0], resource);
}

/** Fresh url ids, reserved from the sequence in blocks; each batch takes its own. */
export class UrlIdPool {
  #ids: number[] = [];

  /** `count` ids for one batch alone (concurrent batches never share one). */
  async take(db: Executor, count: number): Promise<number[]> {
    // Counted again after each wait: another batch may have taken ids from the pool meanwhile.
    while (this.#ids.length < count) {
      const want = Math.max(count - this.#ids.length, 256);
      const rows = await db`SELECT nextval('url_id_seq') AS id FROM generate_series(1, ${want})`;
      for (const row of rows) this.#ids.push(row.id as number);
    }
    return this.#ids.splice(0, count);
  }

  /** Give back the ids a batch did not write, to be taken first (ids stay in order for one writer). */
  giveBack(ids: readonly number[]): void {
    if (ids.length > 0) this.#ids = [...ids, ...this.#ids].sort((a, b) => a - b);
  }
}

/**
 * A check that rides in the batch's write (its first WITH part, and its first column), so
 * that it costs no statement of its own: a unit's claim held (PgStore.holdClaim). `isDone`
 * once a statement that carried it succeeded: a write rolled back to its savepoint (a lost
 * race) took its locks with it, and the next one carries it again.
 */
export interface RidingCheck {
  /** The WITH part, named as `check` reads it. */
  readonly part: (db: Executor) => Fragment;
  /** The column that fails the statement when the check does not hold. */
  readonly check: (db: Executor) => Fragment;
  isDone: boolean;
}

export interface PgAdmissionOptions {
  readonly now: () => number;
  /** A check the batch's write carries (see RidingCheck). */
  readonly riding?: RidingCheck | undefined;
  /** This writer's rows of link_tally. */
  readonly shard: number;
  readonly ids: UrlIdPool;
  /** What this worker remembers of the index (known-urls.ts). */
  readonly known: KnownUrls;
  /** Called with what a batch learned once its write succeeded (remembered when that is committed). */
  readonly learn: (facts: LearnedFacts) => void;
  /** The site of a URL this worker claimed (the pages whose links are admitted), if it knows it. */
  readonly claimedSite?: (id: number) => number | undefined;
  /** The large tables are partitioned by site (`db migrate --partitions`): the write names the sites it reads (sitesNamed). */
  readonly isPartitioned?: boolean;
}

/** What a batch asks of the index: texts it has not met before, and URLs it remembers. */
interface BatchQuestions {
  readonly sites: number[];
  readonly texts: string[];
  /** Keys of the targets met for the first time: a new URL each, at most. */
  readonly keys: string[];
  /** Remembered URLs the batch meets: which of them is an alias now; and their sites. */
  readonly remembered: number[];
  readonly rememberedSites: number[];
  /** URLs named by id that are not remembered (pages the links are on): read whole; their sites (null: not known). */
  readonly ids: number[];
  readonly idSites: (number | null)[];
  /** Of `texts`, those not remembered: a guess takes them to be new. */
  readonly unknown: { readonly sites: number[]; readonly texts: string[] };
  /** Whether the batch may be admitted on what is remembered alone (every URL it names by a remembered text or id is). */
  readonly canGuess: boolean;
}

/** Admit `batch` as one unit on `db` (the pool, or a transaction: then inside a savepoint). */
export async function admitBatch(db: Executor, batch: readonly AdmitEntry[], options: PgAdmissionOptions): Promise<AdmitResult[]> {
  if (batch.length === 0) return [];
  const known = options.known;
  // Each new target's forms once, for the snapshot's texts and for the Admitter (which then parses nothing).
  // A target met before (its text is a key or a spelling remembered) needs neither.
  const entries: AdmitEntry[] = [];
  const textSites = new Map<string, number>();
  const keys = new Set<string>();
  const remembered = new Set<number>();
  const ids = new Set<number>();
  for (const entry of batch) {
    if (entry.fromUrlId !== undefined && known.url(entry.fromUrlId) === undefined) ids.add(entry.fromUrlId);
    const forms = formsOfNew(entry, known, remembered, ids);
    if (forms === undefined || typeof forms === 'string') {
      entries.push(entry);
      continue;
    }
    entries.push(forms === entry.forms ? entry : { ...entry, forms });
    const site = siteOf(forms.host);
    textSites.set(forms.string, site).set(forms.syntax, site).set(forms.key, site);
    keys.add(forms.key);
  }
  const unknown = { sites: [] as number[], texts: [] as string[] };
  let canGuess = ids.size === 0;
  for (const [text, site] of textSites) {
    const id = known.urlByKey(text) ?? known.urlBySpelling(text);
    if (id === undefined) {
      unknown.sites.push(site);
      unknown.texts.push(text);
    } else if (known.url(id) === undefined) canGuess = false;
    else remembered.add(id);
  }
  const rememberedIds = [...remembered];
  const pageIds = [...ids];
  const questions: BatchQuestions = {
    sites: [...textSites.values()],
    texts: [...textSites.keys()],
    keys: [...keys],
    remembered: rememberedIds,
    rememberedSites: rememberedIds.map((id) => known.url(id)!.site),
    ids: pageIds,
    idSites: pageIds.map((id) => options.claimedSite?.(id) ?? null),
    unknown,
    canGuess,
  };
  for (let race = 0; ; race++) {
    // A batch whose pages are remembered is first admitted on what is remembered alone,
    // the texts it does not know taken to be new; its write checks that (`guess`), and
    // writes nothing when one is not: then it is admitted again over a snapshot.
    const guess = race === 0 && questions.canGuess && known.shouldGuess() ? questions : undefined;
    const { backend, ids } = guess === undefined ? await snapshot(db, questions, options) : await blank(db, questions, options);
    let isWritten = false;
    try {
      const admitter = new Admitter(backend, { now: options.now });
      const results = entries.map((entry) => admitter.admit(entry));
      // In a transaction a failed statement aborts it: the write takes a savepoint, so that a lost race is retried.
      const savepoint = (db as unknown as { savepoint?: (work: (sp: Executor) => Promise<string[] | undefined>) => Promise<string[] | undefined> }).savepoint;
      const written =
        savepoint === undefined
          ? await writeBatch(db, backend.writes, options, guess)
          : await savepoint.call(db, (sp: Executor) => writeBatch(sp, backend.writes, options, guess));
      if (guess !== undefined) known.guessed(written !== undefined);
      if (written === undefined) continue;
      isWritten = true;
      options.learn(backend.learned(written));
      return results;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === undefined || !LOST_RACE.has(code) || race >= MAX_RACES) throw error;
    } finally {
      options.ids.giveBack(isWritten ? ids.slice(backend.writes.urls.length) : ids);
    }
  }
}

// The forms of a target met for the first time; for one met before (its text a key or a
// spelling remembered), its URL goes to `remembered` (or, when the URL itself is not, to `ids`).
function formsOfNew(entry: AdmitEntry, known: KnownUrls, remembered: Set<number>, ids: Set<number>): LadderForms | string | undefined {
  if (entry.target === undefined) return undefined;
  const hash = entry.target.indexOf('#');
  const resource = hash === -1 ? entry.target : entry.target.slice(0, hash);
  const urlId = known.urlByKey(resource) ?? known.urlBySpelling(resource);
  if (urlId !== undefined) {
    if (known.url(urlId) === undefined) ids.add(urlId);
    else remembered.add(urlId);
    return undefined;
  }
  return formsOf(entry);
}

// Each text is looked up on its own (LATERAL … LIMIT 1): a join of the batch's few
// hundred texts with the table made the planner scan the whole table once it had some
// ten thousand rows (measured: 12 ms a batch at 22k URLs, against under 2 ms of probes).
// Remembered URLs are looked up in the small index of aliases only: whether one has
// become an alias is all a batch must read of them.
async function snapshot(db: Executor, questions: BatchQuestions, options: PgAdmissionOptions): Promise<{ backend: SnapshotBackend; ids: number[] }> {
  const rows = await db`
    WITH RECURSIVE t AS (
      SELECT * FROM unnest(${questions.sites}::integer[], ${questions.texts}::text[]) AS t (site, text)
    ), hit_form AS (
      SELECT f.site, f.text, f.url_id, f.rung FROM t
      CROSS JOIN LATERAL (SELECT site, text, url_id, rung FROM form WHERE form.site = t.site AND form.text = t.text LIMIT 1) AS f
    ), hit (site, id) AS (
      SELECT u.site, u.id FROM t CROSS JOIN LATERAL (SELECT site, id FROM url WHERE url.site = t.site AND url.key = t.text LIMIT 1) AS u
      UNION SELECT site, url_id FROM hit_form
      UNION SELECT * FROM unnest(${questions.idSites as number[]}::integer[], ${questions.ids}::bigint[])
      UNION SELECT a.site, a.id FROM unnest(${questions.rememberedSites}::integer[], ${questions.remembered}::bigint[]) AS r (site, id)
      CROSS JOIN LATERAL (SELECT site, id FROM url WHERE url.site = r.site AND url.id = r.id AND url.state = 'alias' AND url.alias_of IS NOT NULL LIMIT 1) AS a
    ), chain (site, id) AS (
      -- By (site, id) where the site is known; an alias's target (its site not stored with it) by id.
      SELECT site, id FROM hit
      UNION SELECT NULL::integer, a.alias_of FROM chain AS c
      CROSS JOIN LATERAL (
        (SELECT alias_of FROM url WHERE c.site IS NOT NULL AND url.site = c.site AND url.id = c.id AND url.state = 'alias' AND url.alias_of IS NOT NULL LIMIT 1)
        UNION ALL
        (SELECT alias_of FROM url WHERE c.site IS NULL AND url.id = c.id AND url.state = 'alias' AND url.alias_of IS NOT NULL LIMIT 1)
      ) AS a
    )
    SELECT 'u' AS kind, u.id, u.site, u.key AS text, u.state, u.role, u.alias_of FROM chain AS c
    CROSS JOIN LATERAL (
      (SELECT id, site, key, state, role, alias_of FROM url WHERE c.site IS NOT NULL AND url.site = c.site AND url.id = c.id LIMIT 1)
      UNION ALL
      (SELECT id, site, key, state, role, alias_of FROM url WHERE c.site IS NULL AND url.id = c.id LIMIT 1)
    ) AS u
    UNION ALL
    SELECT 'f', f.url_id, NULL, f.text, f.rung, NULL, NULL FROM hit_form AS f`;
  const ids: number[] = [];
  let used = 0;
  const backend = new SnapshotBackend(options.known, () => {
    const id = ids[used++];
    if (id === undefined) throw new Error('a batch made more URLs than its keys (a bug)');
    return id;
  });
  for (const row of rows) {
    if (row.kind === 'u') backend.addUrl(row as unknown as SnapshotUrlRow);
    else backend.addForm(row.text as string, row.id as number, row.state as 'string' | 'syntax');
  }
  // A new URL for each key the snapshot does not hold, at most.
  let unknownKeys = 0;
  for (const key of questions.keys) if (backend.findUrlByKey(key) === undefined) unknownKeys++;
  ids.push(...(await options.ids.take(db, unknownKeys)));
  return { backend, ids };
}

// A backend that knows only what is remembered, with an id for each key of a target not met before.
async function blank(db: Executor, questions: BatchQuestions, options: PgAdmissionOptions): Promise<{ backend: SnapshotBackend; ids: number[] }> {
  const ids = await options.ids.take(db, questions.keys.length);
  let used = 0;
  const backend = new SnapshotBackend(options.known, () => {
    const id = ids[used++];
    if (id === undefined) throw new Error('a batch made more URLs than its keys (a bug)');
    return id;
  });
  return { backend, ids };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type Fragment = ReturnType<Executor>;

/**
 * One statement for the batch, of the parts it needs (each set of parts is a statement
 * of its own, prepared once a connection). Returns the spellings it inserted at the
 * `string` rung. A key or spelling another worker wrote since the snapshot fails it
 * (LOST_RACE): the link's rung was decided on that text being new.
 * With `guess` (the batch was admitted on what is remembered alone), it writes only if
 * none of the texts it took to be new is in the index and none of the remembered URLs
 * is an alias, and returns undefined when it wrote nothing.
 */
async function writeBatch(db: Executor, writes: BatchWrites, options: PgAdmissionOptions, guess: BatchQuestions | undefined): Promise<string[] | undefined> {
  const { shard, riding } = options;
  // Rows in one order (by key) in every worker: concurrent batches then lock them in the same
  // order. New spellings keep the order they were met in (form.seq records it; a deadlock
  // between two batches inserting one spelling is retried).
  const urls = [...writes.urls].sort((a, b) => a.site - b.site || compareText(a.key, b.key));
  const forms = [...writes.newForms.values()];
  const seenForms = [...writes.seenForms].sort((a, b) => a.site - b.site || compareText(a.text, b.text));
  const changes = [...writes.changes].sort((a, b) => a[0] - b[0]);
  const pages = [...writes.links];
  const tally = [...writes.tally].map(([pair, links]) => [...pair.split('\t'), links] as [string, string, number]);
  // Partitioned, what a page's admission most often reads by one site (whether its new
  // texts are new, where its links go) goes through functions of a branch a partition
  // (migration 016): a statement that reads the partitioned table is planned with every
  // partition, and locks each at every execution. The rarer writes that read (a URL
  // followed anew, a spelling raised) name their sites.
  const isPartitioned = options.isPartitioned === true;
  const named = isPartitioned ? sitesNamed(db, [...seenForms.map((f) => f.site), ...changes.map(([, c]) => c.site)]) : undefined;
  const within = (column: string): Fragment => (named === undefined ? db`` : db` AND ${db.unsafe(column)} = ANY (${named})`);
  const parts: Fragment[] = [];
  const unless = guess === undefined ? db`` : db` WHERE NOT EXISTS (SELECT 1 FROM wrong)`;
  if (guess !== undefined) {
    // Probes (LATERAL … LIMIT 1), as the snapshot's: an EXISTS here was planned as a scan of the table.
    // The texts are sent once and read twice (as keys, as spellings).
    parts.push(db`unknown_text AS (SELECT * FROM unnest(${guess.unknown.sites}::integer[], ${guess.unknown.texts}::text[]) AS t (site, text)),
    wrong AS (
      ${
        isPartitioned
          ? db`SELECT 1 FROM (SELECT site, array_agg(text) AS texts FROM unknown_text GROUP BY site) AS t WHERE url_keys_taken(t.site, t.texts)
      UNION ALL
      SELECT 1 FROM (SELECT site, array_agg(text) AS texts FROM unknown_text GROUP BY site) AS t WHERE form_texts_taken(t.site, t.texts)
      UNION ALL
      SELECT 1 FROM (SELECT site, array_agg(id) AS ids FROM unnest(${guess.rememberedSites}::integer[], ${guess.remembered}::bigint[]) AS r (site, id) GROUP BY site) AS r
      WHERE urls_became_alias(r.site, r.ids)`
          : db`SELECT 1 FROM unknown_text AS t
      CROSS JOIN LATERAL (SELECT 1 FROM url WHERE url.site = t.site AND url.key = t.text LIMIT 1) AS u
      UNION ALL
      SELECT 1 FROM unknown_text AS t
      CROSS JOIN LATERAL (SELECT 1 FROM form WHERE form.site = t.site AND form.text = t.text LIMIT 1) AS f
      UNION ALL
      SELECT 1 FROM unnest(${guess.rememberedSites}::integer[], ${guess.remembered}::bigint[]) AS r (site, id)
      CROSS JOIN LATERAL (SELECT 1 FROM url WHERE url.site = r.site AND url.id = r.id AND url.state = 'alias' AND url.alias_of IS NOT NULL LIMIT 1) AS a`
      }
      LIMIT 1)`);
  }
  if (urls.length > 0) {
    parts.push(db`new_url AS (
      INSERT INTO url (site, id, key, scheme, host, state, role, depth, first_seen, first_from, first_href)
      SELECT * FROM unnest(${urls.map((u) => u.site)}::integer[], ${urls.map((u) => u.id)}::bigint[], ${urls.map((u) => u.key)}::text[],
        ${urls.map((u) => u.scheme)}::text[], ${urls.map((u) => u.host) as string[]}::text[], ${urls.map((u) => u.state)}::text[],
        ${urls.map((u) => u.role)}::text[], ${urls.map((u) => u.depth)}::integer[], ${urls.map((u) => u.firstSeen)}::bigint[],
        ${urls.map((u) => u.firstFrom) as number[]}::bigint[], ${urls.map((u) => u.firstHref)}::text[])${unless})`);
  }
  if (forms.length > 0) {
    parts.push(db`new_form AS (
      INSERT INTO form (site, text, url_id, rung)
      SELECT * FROM unnest(${forms.map((f) => f.site)}::integer[], ${forms.map((f) => f.text)}::text[],
        ${forms.map((f) => f.urlId)}::bigint[], ${forms.map((f) => f.rung)}::text[])${unless}
      RETURNING text, rung)`);
  }
  if (seenForms.length > 0) {
    parts.push(db`seen_form AS (
      UPDATE form SET rung = 'string'
      FROM unnest(${seenForms.map((f) => f.site)}::integer[], ${seenForms.map((f) => f.text)}::text[]) AS x (site, text)
      WHERE form.site = x.site AND form.text = x.text AND form.rung = 'syntax'${within('form.site')}${guess === undefined ? db`` : db` AND NOT EXISTS (SELECT 1 FROM wrong)`}
      RETURNING 1)`);
  }
  if (changes.length > 0) {
    // A role is raised only on a URL still queued, and only upwards (roleRank): the batch may not have read its state.
    parts.push(db`changed AS (
      UPDATE url SET
        state = CASE WHEN x.followed = 1 AND ${db.unsafe(FOLLOW_FROM)} THEN 'queued' ELSE url.state END,
        depth = CASE WHEN x.followed = 1 AND ${db.unsafe(FOLLOW_FROM)} THEN least(url.depth, x.depth) ELSE url.depth END,
        role = CASE WHEN x.followed = 1 AND ${db.unsafe(FOLLOW_FROM)} THEN x.role
          WHEN url.state = 'queued' AND array_position(${ROLE_RANKS}::text[], x.role) > array_position(${ROLE_RANKS}::text[], coalesce(url.role, 'page')) THEN x.role
          ELSE url.role END
      FROM unnest(${changes.map(([, c]) => c.site)}::integer[], ${changes.map(([id]) => id)}::bigint[], ${changes.map(([, c]) => (c.isFollowed ? 1 : 0))}::integer[],
        ${changes.map(([, c]) => c.depth)}::integer[], ${changes.map(([, c]) => c.role)}::text[]) AS x (site, id, followed, depth, role)
      WHERE url.site = x.site AND url.id = x.id${within('url.site')}${guess === undefined ? db`` : db` AND NOT EXISTS (SELECT 1 FROM wrong)`})`);
  }
  if (pages.length > 0) {
    parts.push(db`new_links AS (
      INSERT INTO page_link (site, from_url, first_position, count, links, format)
      SELECT x.site, x.from_url,
        ${isPartitioned ? db`page_link_end(x.site, x.from_url)` : db`coalesce((SELECT max(p.first_position + p.count) FROM page_link AS p WHERE p.site = x.site AND p.from_url = x.from_url), 0)`},
        x.count, x.links, ${LINK_FORMAT}
      FROM unnest(${pages.map(([, p]) => p.site)}::integer[], ${pages.map(([id]) => id)}::bigint[],
        ${pages.map(([, p]) => p.links.length)}::integer[], ${pages.map(([, p]) => JSON.stringify(p.links))}::text[]) AS x (site, from_url, count, links)${unless})`);
  }
  if (tally.length > 0) {
    parts.push(db`tallied AS (
      INSERT INTO link_tally (shard, rung, ladder_rung, links)
      SELECT ${shard}, * FROM unnest(${tally.map((t) => t[0])}::text[], ${tally.map((t) => t[1])}::text[], ${tally.map((t) => t[2])}::bigint[])${unless}
      ON CONFLICT (shard, rung, ladder_rung) DO UPDATE SET links = link_tally.links + excluded.links)`);
  }
  if (parts.length === (guess === undefined ? 0 : 1)) return [];
  // The check first, read by the first column: its row locked before the batch's rows are.
  const carried = riding === undefined || riding.isDone ? undefined : riding;
  if (carried !== undefined) parts.unshift(carried.part(db));
  const list = parts.reduce((all, part) => db`${all}, ${part}`);
  // Every part runs whether or not the last SELECT reads it (PostgreSQL runs each data-modifying WITH once).
  const [row] = await db`WITH ${list} SELECT ${carried === undefined ? db`` : db`${carried.check(db)} AS checked, `}${guess === undefined ? db`true` : db`NOT EXISTS (SELECT 1 FROM wrong)`} AS written,
    ${forms.length > 0 ? db`(SELECT array_agg(text) FROM new_form WHERE rung = 'string')` : db`NULL::text[]`} AS forms,
    ${seenForms.length > 0 ? lostRaise(db, seenForms.length, guess !== undefined) : db`1`} AS raised`;
  if (carried !== undefined) carried.isDone = true;
  if (row?.written !== true) return undefined;
  return (row.forms as string[] | null) ?? [];
}

/**
 * The lengths a write's list of sites is padded to: a plan covering 64 partitions takes
 * some 15 ms to make, once a connection for each statement shape, and each length is a
 * shape. Past the last, a write names no list: it would read most partitions anyway.
 */
const SITES_NAMED_SLOTS = [8, 64];

// On a partitioned index a statement that finds rows by sites read from its own arrays
// (a LATERAL probe, an UPDATE … FROM unnest) is planned once with every partition, and
// PostgreSQL sets up a scan of each partition at every execution: it can prune only by
// what it knows as the execution starts. The sites as a list of parameters
// (`site = ANY (ARRAY[$1, $2])`, not an array parameter, which it does not prune by) is
// that: only the partitions of the sites named are set up. The list is padded with its
// last site to one of SITES_NAMED_SLOTS, so that a connection prepares two statements of
// each shape, not one for every number of sites.
function sitesNamed(db: Executor, sites: readonly number[]): Fragment | undefined {
  const distinct = [...new Set(sites)];
  const slots = SITES_NAMED_SLOTS.find((length) => length >= distinct.length);
  if (distinct.length === 0 || slots === undefined) return undefined;
  const last = distinct.at(-1)!;
  const padded = [...distinct, ...Array.from({ length: slots - distinct.length }, () => last)];
  return db`ARRAY[${padded.map((site) => db`${site}::integer`).reduce((all, site) => db`${all}, ${site}`)}]`;
}

// A spelling this batch met at the `syntax` rung that another worker raised to `string`
// since the snapshot was read: that worker met it first, so this batch's link would say
// `string` after it (one writer's order). The statement then fails with 22012 (its only
// division), rolling back all it wrote, and the batch is admitted again (LOST_RACE). An
// error is the one way a single statement undoes its own writes outside a transaction.
function lostRaise(db: Executor, raised: number, isGuess: boolean): Fragment {
  const isAll = isGuess ? db`count(*) = ${raised} OR EXISTS (SELECT 1 FROM wrong)` : db`count(*) = ${raised}`;
  return db`(SELECT 1 / (${isAll})::integer FROM seen_form)`;
}

/**
 * What a batch that lost a race to another worker's meets: 23505, a key or a spelling it
 * took to be new was written since its snapshot (a spelling first met by both at once is
 * `new`/`syntax`/`scheme` for the first writer only); 22012, a spelling it raised to
 * `string` was raised since (lostRaise); 40P01, two batches waited on each other's rows
 * and the server chose this one. Each is admitted again over a new snapshot.
 */
const LOST_RACE = new Set(['23505', '22012', '40P01']);

/** The states a followed link moves to `queued` (url-state-machine.ts, `admit`). */
const FOLLOW_FROM = stateIn('admit', { to: 'queued', column: 'url.state' });

/** Roles from lowest to highest (roleRank). */
const ROLE_RANKS = ['external', 'resource', 'page'];
