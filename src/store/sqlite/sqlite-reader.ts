// Reading a crawl's index for reports: every list is an async iterable over a SQL
// cursor, read a page of rows at a time, so a million-link index is read in
// bounded memory.

import type { Database as Db, Statement } from 'better-sqlite3';
import { ALIAS_EVIDENCE, AliasEnds, type AliasEvidence } from '../../ladder/index.js';
import { ALIAS_COLUMNS, URL_COLUMNS, toAliasRow, toFetchRow, toUrlRow, type AliasColumns, type FetchColumns, type UrlColumns } from '../row-codec.js';
import { FETCH_COLUMNS, readRuns, readRunFindings, readSitemapEntries, readSitemaps } from './sqlite-rows.js';
import { isArrayOfArrays, iteratingIndex, parseStoredJson, readingIndex } from '../index-corruption.js';
import { decodeLink, type EncodedLink, type LinkFormat } from '../link-codec.js';
import { DUPLICATE_ALIAS_EVIDENCE, RepresentationEnds, withContentEvidence, type DuplicateMember } from '../duplicate-bodies.js';
import {
  MATCH_RUNGS,
  URL_STATES,
  zeroCounts,
  type AliasRow,
  type CrawlRunRow,
  type DuplicateBodyRow,
  type EdgeRow,
  type FetchRow,
  type FindingIdentity,
  type FormRow,
  type SitemapEntryRow,
  type SitemapRow,
  type Funnel,
  type IndexReader,
  type LinkRow,
  type MatchRung,
  type StoreStats,
  type UrlRow,
  type UrlState,
} from '../types.js';
import { settled } from '../write-units.js';
import { fileOf } from './sqlite-database.js';

export class SqliteIndexReader implements IndexReader {
  readonly #db: Db;
  readonly #onClose: () => void | Promise<void>;

  constructor(db: Db, onClose: () => void | Promise<void>) {
    this.#db = db;
    this.#onClose = onClose;
  }

  // Every read names the file when it meets a damaged index (ERR_STORE_CORRUPT).
  #read<T>(read: () => T): Promise<T> {
    return settled(() => readingIndex(fileOf(this.#db), read));
  }

  #iterate<T>(rows: () => AsyncIterable<T>): AsyncGenerator<T> {
    return iteratingIndex(fileOf(this.#db), rows);
  }

  stats(): Promise<StoreStats> {
    return this.#read(() => readStats(this.#db));
  }

  funnel(): Promise<Funnel> {
    return this.#read(() => this.#funnel());
  }

  #funnel(): Funnel {
    // One pass over link_tally, which holds a row per (rung, ladder rung) pair.
    const tally = this.#db
      .prepare(
        `SELECT coalesce(sum(links) FILTER (WHERE rung <> 'none'), 0) AS rawLinks,
                coalesce(sum(links) FILTER (WHERE ladder_rung IN ('new', 'syntax', 'scheme')), 0) AS distinctStrings,
                coalesce(sum(links) FILTER (WHERE ladder_rung IN ('new', 'scheme')), 0) AS distinctSyntax,
                coalesce(sum(links) FILTER (WHERE ladder_rung = 'new'), 0) AS distinctScheme,
                coalesce(sum(links) FILTER (WHERE rung = 'none'), 0) AS unresolved
         FROM link_tally`,
      )
      .get() as Omit<Funnel, 'afterAliases'>;
    // §6.2.4: the distinct URLs that the links' own URLs stand for, each alias counted
    // as the end of its chain (a page answering as its negotiated variant is that variant).
    const next = new Map<number, number>();
    for (const [id, to] of this.#db.prepare(`SELECT id, alias_of FROM url WHERE state = 'alias'`).raw(true).iterate() as Iterable<[number, number]>) {
      next.set(id, to);
    }
    const ends = new AliasEnds<number>((id) => next.get(id));
    const distinct = new Set<number>();
    for (const id of this.#db.prepare('SELECT id FROM url WHERE first_from IS NOT NULL').pluck().iterate() as Iterable<number>) {
      distinct.add(next.has(id) ? ends.endOf(id) : id);
    }
    const afterAliases = distinct.size;
    const { rawLinks, distinctStrings, distinctSyntax, distinctScheme, unresolved } = tally;
    return { rawLinks, distinctStrings, distinctSyntax, distinctScheme, afterAliases, unresolved };
  }

  urls(): AsyncGenerator<UrlRow> {
    return this.#iterate(() => this.#urls());
  }

  async *#urls(): AsyncGenerator<UrlRow> {
    const lastFetch = this.#lastFetchStatement();
    const rows = this.#db.prepare(`SELECT ${URL_COLUMNS} FROM url AS u ORDER BY u.id`).iterate() as Iterator<UrlColumns>;
    for await (const row of cursor(rows)) yield this.#urlRow(row, lastFetch);
  }

  url(id: number): Promise<UrlRow | undefined> {
    return this.#read(() => {
      const row = this.#db.prepare(`SELECT ${URL_COLUMNS} FROM url AS u WHERE u.id = ?`).get(id) as UrlColumns | undefined;
      return row === undefined ? undefined : this.#urlRow(row, this.#lastFetchStatement());
    });
  }

  forms(): AsyncGenerator<FormRow> {
    return this.#iterate(() => this.#forms());
  }

  async *#forms(): AsyncGenerator<FormRow> {
    const rows = this.#db.prepare('SELECT url_id, text, rung FROM form ORDER BY url_id, id').raw(true).iterate() as Iterator<
      [number, string, FormRow['rung']]
    >;
    for await (const [urlId, text, rung] of cursor(rows)) yield { urlId, text, rung };
  }

  links(): AsyncGenerator<LinkRow> {
    return this.#iterate(() => this.#links());
  }

  async *#links(): AsyncGenerator<LinkRow> {
    const pages = this.#db.prepare('SELECT from_url, first_position, links, format FROM page_link ORDER BY from_url, first_position').raw(true);
    for await (const [fromUrlId, firstPosition, json, format] of cursor(pages.iterate() as Iterator<[number, number, string, LinkFormat]>)) {
      const links = parseStoredJson(json, 'page_link.links', isArrayOfArrays) as EncodedLink[];
      for (let i = 0; i < links.length; i++) yield decodeLink(fromUrlId, firstPosition + i, links[i]!, format);
    }
  }

  edges(): AsyncGenerator<EdgeRow> {
    return this.#iterate(() => this.#edges());
  }

  async *#edges(): AsyncGenerator<EdgeRow> {
    const rows = this.#db
      .prepare(
        `SELECT l.from_url, l.met_url AS to_url, l.element, l.attribute, count(*) AS n
         FROM link AS l WHERE l.met_url IS NOT NULL
         GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      )
      .raw(true)
      .iterate() as Iterator<[number, number, string | null, string | null, number]>;
    for await (const [fromUrlId, toUrlId, element, attribute, count] of cursor(rows)) {
      yield { fromUrlId, toUrlId, element: element ?? undefined, attribute: attribute ?? undefined, count };
    }
  }

  fetches(): AsyncGenerator<FetchRow> {
    return this.#iterate(() => this.#fetches());
  }

  async *#fetches(): AsyncGenerator<FetchRow> {
    const rows = this.#db.prepare(`SELECT ${FETCH_COLUMNS} FROM fetch AS f ORDER BY f.id`).iterate() as Iterator<FetchColumns>;
    for await (const row of cursor(rows)) yield toFetchRow(row);
  }

  aliases(): AsyncGenerator<AliasRow> {
    return this.#iterate(() => this.#aliases());
  }

  async *#aliases(): AsyncGenerator<AliasRow> {
    const rows = this.#db.prepare(`SELECT ${ALIAS_COLUMNS} FROM alias AS a ORDER BY a.created_at, a.from_id, a.evidence`).iterate();
    for await (const row of cursor(rows as Iterator<AliasColumns>)) yield toAliasRow(row);
  }

  errorsByCode(): Promise<Readonly<Record<string, number>>> {
    return this.#read(() => this.#errorsByCode());
  }

  #errorsByCode(): Readonly<Record<string, number>> {
    const rows = this.#db
      .prepare(
        `SELECT coalesce(f.error_code, 'HTTP_' || f.status) AS code, count(*) AS n
         FROM fetch AS f
         WHERE f.id IN (SELECT max(id) FROM fetch GROUP BY url_id) AND (f.error_code IS NOT NULL OR f.status >= 400)
         GROUP BY code ORDER BY n DESC, code`,
      )
      .all() as { code: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.code, row.n]));
  }

  runs(): Promise<readonly CrawlRunRow[]> {
    return settled(() => readRuns(this.#db));
  }

  sitemaps(): AsyncGenerator<SitemapRow> {
    return this.#iterate(() => cursor(readSitemaps(this.#db)));
  }

  sitemapEntries(): AsyncGenerator<SitemapEntryRow> {
    return this.#iterate(() => cursor(readSitemapEntries(this.#db)));
  }

  runFindings(runId: number): Promise<readonly FindingIdentity[] | undefined> {
    return this.#read(() => readRunFindings(this.#db, runId));
  }

  duplicateBodies(): AsyncGenerator<DuplicateBodyRow> {
    return this.#iterate(() => this.#duplicateBodies());
  }

  async *#duplicateBodies(): AsyncGenerator<DuplicateBodyRow> {
    // The digest index alone says whether any body was read twice; most sites' answer ends here.
    const isShared = this.#db.prepare('SELECT 1 FROM fetch WHERE digest IS NOT NULL GROUP BY digest HAVING count(*) > 1 LIMIT 1').get() !== undefined;
    if (!isShared) return;
    const ends = this.#representationEnds();
    const rows = this.#db
      .prepare(
        `WITH latest AS (
           SELECT coalesce(e.target, coalesce(f.represents_url_id, f.url_id)) AS url_id, max(f.id) AS fetch_id
           FROM fetch AS f LEFT JOIN temp.linkladder_representation_end AS e ON e.id = coalesce(f.represents_url_id, f.url_id)
           WHERE f.not_modified = 0 AND (f.method IS NOT NULL OR f.status IS NOT NULL)
             AND (f.status IS NULL OR f.status NOT BETWEEN 300 AND 399)
           GROUP BY 1
         ), member AS (
           SELECT f.digest, l.url_id, u.key, f.id AS fetch_id, f.url_id AS fetched_url_id, fu.key AS fetched_key,
                  count(*) OVER byDigest AS members, min(u.key) OVER byDigest AS first_key
           FROM latest AS l JOIN fetch AS f ON f.id = l.fetch_id JOIN url AS u ON u.id = l.url_id JOIN url AS fu ON fu.id = f.url_id
           WHERE f.digest IS NOT NULL AND f.error_code IS NULL
           WINDOW byDigest AS (PARTITION BY f.digest)
         )
         SELECT digest, url_id, key, fetch_id, fetched_url_id, fetched_key FROM member WHERE members > 1
         ORDER BY first_key, digest, key`,
      )
      .raw(true)
      .iterate() as Iterator<[string, number, string, number, number, string]>;
    async function* members(): AsyncGenerator<DuplicateMember> {
      for await (const [digest, urlId, key, fetchId, fetchedUrlId, fetchedKey] of cursor(rows)) yield { digest, urlId, key, fetchId, fetchedUrlId, fetchedKey };
    }
    yield* withContentEvidence(members(), ends);
  }

  // RFC 3986 §6.2.4: the URL each alias of a redirect or Content-Location stands for
  // (duplicate-bodies.ts), in a temporary table the query joins.
  #representationEnds(): RepresentationEnds {
    const evidence = DUPLICATE_ALIAS_EVIDENCE.map((e) => `'${e}'`).join(', ');
    const aliases = this.#db.prepare(`SELECT from_id, to_id, evidence FROM alias WHERE evidence IN (${evidence}) ORDER BY from_id, evidence`).raw(true);
    const ends = new RepresentationEnds(
      (function* () {
        for (const [fromId, toId, evidence] of aliases.iterate() as Iterable<[number, number, AliasEvidence]>) yield { fromId, toId, evidence };
      })(),
    );
    this.#db.exec('CREATE TEMP TABLE IF NOT EXISTS linkladder_representation_end (id INTEGER PRIMARY KEY, target INTEGER NOT NULL)');
    this.#db.exec('DELETE FROM temp.linkladder_representation_end');
    const insert = this.#db.prepare('INSERT INTO temp.linkladder_representation_end (id, target) VALUES (?, ?)');
    const [ids, targets] = ends.ends();
    ids.forEach((id, i) => insert.run(id, targets[i]!));
    return ends;
  }

  async close(): Promise<void> {
    await this.#onClose();
  }

  #lastFetchStatement(): Statement {
    return this.#db.prepare(`SELECT ${FETCH_COLUMNS} FROM fetch AS f WHERE f.url_id = ? ORDER BY f.id DESC LIMIT 1`);
  }

  #urlRow(row: UrlColumns, lastFetch: Statement): UrlRow {
    return toUrlRow(row, lastFetch.get(row.id) as FetchColumns | undefined);
  }
}

/** Rows taken from a cursor this many at a time: a page is read in one go, then handed out. */
const READ_PAGE_ROWS = 256;

/**
 * A SQL cursor as an async iterable: `READ_PAGE_ROWS` rows are read at once, then
 * yielded one by one. Ending the pass early closes the cursor.
 */
async function* cursor<T>(rows: Iterator<T>): AsyncGenerator<T> {
  try {
    for (;;) {
      const page: T[] = [];
      let step = rows.next();
      while (step.done !== true) {
        page.push(step.value);
        if (page.length === READ_PAGE_ROWS) break;
        step = rows.next();
      }
      yield* page;
      if (step.done === true) return;
    }
  } finally {
    rows.return?.();
  }
}

/** Counts of the whole index, from small tables only (`link_tally`, not the links). */
export function readStats(db: Db): StoreStats {
  const urlsByState = zeroCounts(URL_STATES);
  for (const row of db.prepare('SELECT state, count(*) AS n FROM url GROUP BY state').all() as { state: UrlState; n: number }[]) {
    urlsByState[row.state] = row.n;
  }
  const linksByRung = zeroCounts(MATCH_RUNGS);
  let links = 0;
  let linksWithoutTarget = 0;
  for (const row of db.prepare('SELECT rung, sum(links) AS n FROM link_tally GROUP BY rung').all() as { rung: string; n: number }[]) {
    links += row.n;
    if (row.rung === 'none') linksWithoutTarget += row.n;
    else linksByRung[row.rung as MatchRung] = row.n;
  }
  const aliasesByEvidence = zeroCounts(ALIAS_EVIDENCE);
  for (const row of db.prepare('SELECT evidence, count(*) AS n FROM alias GROUP BY evidence').all() as { evidence: AliasEvidence; n: number }[]) {
    aliasesByEvidence[row.evidence] = row.n;
  }
  const fetches = db.prepare('SELECT count(*) FROM fetch').pluck().get() as number;
  return { urlsByState, links, linksByRung, linksWithoutTarget, aliasesByEvidence, fetches };
}

