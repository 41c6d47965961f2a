// Reading a crawl's index on PostgreSQL for reports: the rows, and the
// order, of the SQLite reader (sqlite-reader.ts). Every list is a server-side cursor
// read a page of rows at a time, so `graph` and `audit` stay in bounded memory on a
// large index; every single read is one query. Text is ordered as SQLite orders it,
// by bytes (COLLATE "C"), and NULLs first, whatever the database's own collation.

import { AliasEnds, type AliasEvidence } from '../../ladder/index.js';
import { DUPLICATE_ALIAS_EVIDENCE, RepresentationEnds, withContentEvidence, type DuplicateMember } from '../duplicate-bodies.js';
import { asCorruption, isArrayOfArrays, parseStoredJson } from '../index-corruption.js';
import { compareEdges } from '../edge-order.js';
import { decodeLink, type EncodedLink, type LinkFormat } from '../link-codec.js';
import {
  SITEMAP_COLUMNS,
  SITEMAP_ENTRIES_QUERY,
  URL_COLUMNS,
  toAliasRow,
  toFetchRow,
  toSitemapEntryRow,
  toSitemapRow,
  toUrlRow,
  type AliasColumns,
  type FetchColumns,
  type SitemapColumns,
  type SitemapEntryColumns,
  type UrlColumns,
} from '../row-codec.js';
import type {
  AliasRow,
  CrawlRunRow,
  DuplicateBodyRow,
  EdgeRow,
  FetchRow,
  FindingIdentity,
  FormRow,
  Funnel,
  IndexReader,
  LinkRow,
  SitemapEntryRow,
  SitemapRow,
  StoreStats,
  UrlRow,
  WorkerRow,
} from '../types.js';
import { checkUpToDate, connect, openFailure, redactUrl, type Sql } from './pg-database.js';
import { PG_ALIAS_COLUMNS, PG_FETCH_COLUMNS, readPgRunFindings, readPgRuns, readPgStats } from './pg-rows.js';
import { readWorkers } from './pg-workers.js';

/** Rows a cursor fetches per round trip: one page is read in one go, then handed out row by row. */
export const PG_CURSOR_ROWS = 500;

/**
 * Connections of a reader's pool. A pass holds one connection from its first row to
 * its last, and reports read a few passes at once (the graph's URLs with their forms).
 */
const READER_CONNECTIONS = 8;

/** The columns of a fetch row (row-codec.ts `FetchColumns`), as PG_FETCH_COLUMNS names them. */
const FETCH_COLUMN_NAMES = [
  'id',
  'url_id',
  'started_at',
  'duration_ms',
  'status',
  'content_type',
  'bytes',
  'error_code',
  'final_url',
  'attempts',
  'findings',
  'anchors',
  'represents_url_id',
  'etag',
  'last_modified',
  'not_modified',
  'method',
  'digest',
  'verdict',
  'protocol',
  'redirects',
] as const satisfies readonly (keyof FetchColumns)[];

/** A URL (alias `u`) and its last fetch, whose columns are named `lf_<column>` (all NULL for none): one URL's row in one query. */
const URL_ROW_QUERY = `SELECT ${URL_COLUMNS}, ${FETCH_COLUMN_NAMES.map((name) => `lf.${name} AS lf_${name}`).join(', ')}
  FROM url AS u
  LEFT JOIN LATERAL (SELECT ${PG_FETCH_COLUMNS} FROM "fetch" AS f WHERE f.site = u.site AND f.url_id = u.id ORDER BY f.id DESC LIMIT 1) AS lf ON true`;

type UrlRowColumns = UrlColumns & { readonly [K in (typeof FETCH_COLUMN_NAMES)[number] as `lf_${K}`]: FetchColumns[K] | null };

export class PgIndexReader implements IndexReader {
  readonly #sql: Sql;
  readonly #onClose: (() => void | Promise<void>) | undefined;
  /** The database as messages name it (no password). */
  readonly #label: string;
  /** Whether its statements are named and prepared once a connection: not through a pooler in transaction mode (the pool's `prepare`). */
  readonly #isPrepared: boolean;

  /**
   * A reader over the pool `sql`. `onClose` runs when the reader is closed (the pool
   * of a reader opened on its own is ended then; a store's reader leaves it open).
   */
  constructor(sql: Sql, onClose?: () => void | Promise<void>) {
    this.#sql = sql;
    this.#onClose = onClose;
    this.#label = labelOf(sql);
    this.#isPrepared = (sql.options as { prepare?: boolean } | undefined)?.prepare !== false;
  }

  // Stored values that do not parse become ERR_STORE_CORRUPT naming the database.
  async #read<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw asCorruption(error, this.#label);
    }
  }

  async *#iterate<T>(rows: () => AsyncIterable<T>): AsyncGenerator<T> {
    try {
      yield* rows();
    } catch (error) {
      throw asCorruption(error, this.#label);
    }
  }

  /** The rows of `query`, through a server-side cursor; ending the pass early closes it. */
  async *#cursor<T>(query: string, parameters: readonly unknown[] = []): AsyncGenerator<T> {
    const pending = this.#sql.unsafe(query, parameters as never[], { prepare: this.#isPrepared });
    for await (const rows of pending.cursor(PG_CURSOR_ROWS)) yield* rows as unknown as T[];
  }

  async #all<T>(query: string, parameters: readonly unknown[] = []): Promise<T[]> {
    return (await this.#sql.unsafe(query, parameters as never[], { prepare: this.#isPrepared })) as unknown as T[];
  }

  stats(): Promise<StoreStats> {
    return this.#read(() => readPgStats(this.#sql));
  }

  funnel(): Promise<Funnel> {
    return this.#read(() => this.#funnel());
  }

  async #funnel(): Promise<Funnel> {
    const [[tally], aliases] = await Promise.all([
      this.#all<Omit<Funnel, 'afterAliases'>>(
        `SELECT coalesce(sum(links) FILTER (WHERE rung <> 'none'), 0)::bigint AS "rawLinks",
                coalesce(sum(links) FILTER (WHERE ladder_rung IN ('new', 'syntax', 'scheme')), 0)::bigint AS "distinctStrings",
                coalesce(sum(links) FILTER (WHERE ladder_rung IN ('new', 'scheme')), 0)::bigint AS "distinctSyntax",
                coalesce(sum(links) FILTER (WHERE ladder_rung = 'new'), 0)::bigint AS "distinctScheme",
                coalesce(sum(links) FILTER (WHERE rung = 'none'), 0)::bigint AS unresolved
         FROM link_tally`,
      ),
      this.#aliasEnds(),
    ]);
    // §6.2.4: the distinct URLs that the links' own URLs stand for, each alias counted
    // as the end of its chain (a page answering as its negotiated variant is that variant).
    const [row] = await this.#all<{ n: number }>(
      `WITH ends AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS e (id, target))
       SELECT count(DISTINCT coalesce(e.target, u.id)) AS n
       FROM url AS u LEFT JOIN ends AS e ON e.id = u.id
       WHERE u.first_from IS NOT NULL`,
      aliases,
    );
    const { rawLinks, distinctStrings, distinctSyntax, distinctScheme, unresolved } = tally!;
    return { rawLinks, distinctStrings, distinctSyntax, distinctScheme, afterAliases: row!.n, unresolved };
  }

  urls(): AsyncGenerator<UrlRow> {
    return this.#iterate(() => this.#urls());
  }

  // Two passes in step, both in id order: the URLs, and each URL's last fetch (one
  // index scan each, where a join would probe the fetches once per URL).
  async *#urls(): AsyncGenerator<UrlRow> {
    const fetches = this.#cursor<FetchColumns>(
      `SELECT DISTINCT ON (f.url_id) ${PG_FETCH_COLUMNS} FROM "fetch" AS f ORDER BY f.url_id, f.id DESC`,
    )[Symbol.asyncIterator]();
    try {
      let fetch = await fetches.next();
      for await (const row of this.#cursor<UrlColumns>(`SELECT ${URL_COLUMNS} FROM url AS u ORDER BY u.id`)) {
        while (fetch.done !== true && fetch.value.url_id < row.id) fetch = await fetches.next();
        yield toUrlRow(row, fetch.done !== true && fetch.value.url_id === row.id ? fetch.value : undefined);
      }
    } finally {
      await fetches.return?.(undefined);
    }
  }

  url(id: number): Promise<UrlRow | undefined> {
    return this.#read(async () => {
      const [row] = await this.#all<UrlRowColumns>(`${URL_ROW_QUERY} WHERE u.id = $1`, [id]);
      return row === undefined ? undefined : toUrlRow(row, row.lf_id === null ? undefined : lastFetchOf(row));
    });
  }

  forms(): AsyncGenerator<FormRow> {
    return this.#iterate(() => this.#forms());
  }

  async *#forms(): AsyncGenerator<FormRow> {
    const rows = this.#cursor<{ url_id: number; text: string; rung: FormRow['rung'] }>('SELECT url_id, text, rung FROM form ORDER BY url_id, seq');
    for await (const { url_id: urlId, text, rung } of rows) yield { urlId, text, rung };
  }

  links(): AsyncGenerator<LinkRow> {
    return this.#iterate(() => this.#links());
  }

  async *#links(): AsyncGenerator<LinkRow> {
    const pages = this.#cursor<{ from_url: number; first_position: number; links: string; format: LinkFormat }>(
      'SELECT from_url, first_position, links, format FROM page_link ORDER BY from_url, first_position',
    );
    for await (const { from_url: fromUrlId, first_position: firstPosition, links: json, format } of pages) {
      const links = parseStoredJson(json, 'page_link.links', isArrayOfArrays) as EncodedLink[];
      for (let i = 0; i < links.length; i++) yield decodeLink(fromUrlId, firstPosition + i, links[i]!, format);
    }
  }

  edges(): AsyncGenerator<EdgeRow> {
    return this.#iterate(() => this.#edges());
  }

  // The links of one page are counted here as they stream by, in memory bounded by
  // that page's links: a GROUP BY over every link would sort them all on the server first.
  async *#edges(): AsyncGenerator<EdgeRow> {
    const pages = this.#cursor<{ from_url: number; links: string; format: LinkFormat }>('SELECT from_url, links, format FROM page_link ORDER BY from_url, first_position');
    let from: number | undefined;
    let edges = new Map<string, EdgeRow & { count: number }>();
    for await (const page of pages) {
      const pageFrom = page.from_url;
      if (pageFrom !== from) {
        yield* sortedEdges(edges);
        edges = new Map();
        from = pageFrom;
      }
      const links = parseStoredJson(page.links, 'page_link.links', isArrayOfArrays) as EncodedLink[];
      for (let i = 0; i < links.length; i++) {
        const link = decodeLink(page.from_url, i, links[i]!, page.format);
        if (link.metUrlId === undefined) continue;
        const toUrlId = link.metUrlId;
        // NUL is in no element or attribute name (the HTML parser replaces it).
        const key = `${toUrlId}\0${link.element === undefined ? '-' : `+${link.element}`}\0${link.attribute === undefined ? '-' : `+${link.attribute}`}`;
        const edge = edges.get(key);
        if (edge === undefined) edges.set(key, { fromUrlId: pageFrom, toUrlId, element: link.element, attribute: link.attribute, count: 1 });
        else edge.count++;
      }
    }
    yield* sortedEdges(edges);
  }

  fetches(): AsyncGenerator<FetchRow> {
    return this.#iterate(() => this.#fetches());
  }

  async *#fetches(): AsyncGenerator<FetchRow> {
    for await (const row of this.#cursor<FetchColumns>(`SELECT ${PG_FETCH_COLUMNS} FROM "fetch" AS f ORDER BY f.id`)) yield toFetchRow(row);
  }

  aliases(): AsyncGenerator<AliasRow> {
    return this.#iterate(() => this.#aliases());
  }

  async *#aliases(): AsyncGenerator<AliasRow> {
    const rows = this.#cursor<AliasColumns>(`SELECT ${PG_ALIAS_COLUMNS} FROM alias AS a ORDER BY a.created_at, a.from_id, a.evidence COLLATE "C"`);
    for await (const row of rows) yield toAliasRow(row);
  }

  errorsByCode(): Promise<Readonly<Record<string, number>>> {
    return this.#read(async () => {
      const rows = await this.#all<{ code: string; n: number }>(
        `SELECT code, count(*) AS n
         FROM (SELECT coalesce(error_code, 'HTTP_' || status) AS code
               FROM (SELECT DISTINCT ON (url_id) error_code, status FROM "fetch" ORDER BY url_id, id DESC) AS last
               WHERE error_code IS NOT NULL OR status >= 400) AS f
         GROUP BY code ORDER BY n DESC, code COLLATE "C"`,
      );
      return Object.fromEntries(rows.map((row) => [row.code, row.n]));
    });
  }

  runs(): Promise<readonly CrawlRunRow[]> {
    return this.#read(() => readPgRuns(this.#sql));
  }

  sitemaps(): AsyncGenerator<SitemapRow> {
    return this.#iterate(() => this.#sitemaps());
  }

  async *#sitemaps(): AsyncGenerator<SitemapRow> {
    for await (const row of this.#cursor<SitemapColumns>(`SELECT ${SITEMAP_COLUMNS} FROM sitemap ORDER BY id`)) yield toSitemapRow(row);
  }

  sitemapEntries(): AsyncGenerator<SitemapEntryRow> {
    return this.#iterate(() => this.#sitemapEntries());
  }

  async *#sitemapEntries(): AsyncGenerator<SitemapEntryRow> {
    for await (const row of this.#cursor<SitemapEntryColumns>(SITEMAP_ENTRIES_QUERY)) yield toSitemapEntryRow(row);
  }

  runFindings(runId: number): Promise<readonly FindingIdentity[] | undefined> {
    return this.#read(() => readPgRunFindings(this.#sql, runId));
  }

  workers(): Promise<readonly WorkerRow[]> {
    return this.#read(() => readWorkers(this.#sql, Date.now()));
  }

  duplicateBodies(): AsyncGenerator<DuplicateBodyRow> {
    return this.#iterate(() => this.#duplicateBodies());
  }

  // The query of the SQLite reader (sqlite-reader.ts), the ends passed as arrays.
  async *#duplicateBodies(): AsyncGenerator<DuplicateBodyRow> {
    // The digest index alone says whether any body was read twice; most sites' answer ends here.
    const shared = await this.#all(`SELECT 1 FROM "fetch" WHERE digest IS NOT NULL GROUP BY digest HAVING count(*) > 1 LIMIT 1`);
    if (shared.length === 0) return;
    const aliases = await this.#all<{ from_id: number; to_id: number; evidence: AliasEvidence }>(
      `SELECT from_id, to_id, evidence FROM alias WHERE evidence = ANY($1::text[]) ORDER BY from_id, evidence COLLATE "C"`,
      [DUPLICATE_ALIAS_EVIDENCE],
    );
    const ends = new RepresentationEnds(aliases.map((a) => ({ fromId: a.from_id, toId: a.to_id, evidence: a.evidence })));
    const rows = this.#cursor<{ digest: string; url_id: number; key: string; fetch_id: number; fetched_url_id: number; fetched_key: string }>(
      `WITH ends AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS e (id, target)),
       latest AS (
         SELECT coalesce(e.target, coalesce(f.represents_url_id, f.url_id)) AS url_id, max(f.id) AS fetch_id
         FROM "fetch" AS f LEFT JOIN ends AS e ON e.id = coalesce(f.represents_url_id, f.url_id)
         WHERE NOT f.not_modified AND (f.method IS NOT NULL OR f.status IS NOT NULL)
           AND (f.status IS NULL OR f.status NOT BETWEEN 300 AND 399)
         GROUP BY 1
       ), member AS (
         SELECT f.digest, l.url_id, u.key, f.id AS fetch_id, f.url_id AS fetched_url_id, fu.key AS fetched_key,
                count(*) OVER by_digest AS members, min(u.key COLLATE "C") OVER by_digest AS first_key
         FROM latest AS l JOIN "fetch" AS f ON f.id = l.fetch_id JOIN url AS u ON u.id = l.url_id JOIN url AS fu ON fu.id = f.url_id
         WHERE f.digest IS NOT NULL AND f.error_code IS NULL
         WINDOW by_digest AS (PARTITION BY f.digest)
       )
       SELECT digest, url_id, key, fetch_id, fetched_url_id, fetched_key FROM member WHERE members > 1
       ORDER BY first_key COLLATE "C", digest COLLATE "C", key COLLATE "C"`,
      ends.ends(),
    );
    async function* members(): AsyncGenerator<DuplicateMember> {
      for await (const row of rows) {
        yield { digest: row.digest, urlId: row.url_id, key: row.key, fetchId: row.fetch_id, fetchedUrlId: row.fetched_url_id, fetchedKey: row.fetched_key };
      }
    }
    yield* withContentEvidence(members(), ends);
  }

  async close(): Promise<void> {
    await this.#onClose?.();
  }

  /**
   * RFC 3986 §6.2.4: where each alias chain ends, by the one rule of walkAliases (a
   * cycle ends at its least id), as the admitter has it: the aliases' ids and their
   * ends, as two arrays for `unnest`. Walked here, not in a recursive SQL query, so
   * that there is one cycle rule to read.
   */
  async #aliasEnds(): Promise<[number[], number[]]> {
    const next = new Map<number, number>();
    for (const row of await this.#all<{ id: number; alias_of: number }>(`SELECT id, alias_of FROM url WHERE state = 'alias' AND alias_of IS NOT NULL`)) {
      next.set(row.id, row.alias_of);
    }
    const ends = new AliasEnds<number>((id) => next.get(id));
    const ids = [...next.keys()];
    return [ids, ids.map((id) => ends.endOf(id))];
  }
}

/**
 * Open the index at `url` to read it: it must be an up-to-date index (nothing is
 * written or migrated). Closing the reader ends its pool.
 */
export async function openPgIndexReader(url: string, options: { readonly transactionPooling?: boolean } = {}): Promise<IndexReader> {
  const sql = connect(url, { max: READER_CONNECTIONS, isTransactionPooling: options.transactionPooling === true });
  try {
    await checkUpToDate(sql, url);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw isStoreError(error) ? error : openFailure(error, url);
  }
  return new PgIndexReader(sql, () => sql.end({ timeout: 5 }));
}



/** One page's edges, ordered by target, element, attribute: absent first, text by code points (SQLite's BINARY order of UTF-8). */
function sortedEdges(edges: ReadonlyMap<string, EdgeRow>): EdgeRow[] {
  return [...edges.values()].sort(compareEdges);
}

function lastFetchOf(row: UrlRowColumns): FetchColumns {
  const columns: Record<string, unknown> = {};
  for (const name of FETCH_COLUMN_NAMES) columns[name] = row[`lf_${name}`];
  return columns as unknown as FetchColumns;
}

/** The database a pool reads, as messages name it: postgres://user@host:port/database, never the password. */
function labelOf(sql: Sql): string {
  const options = sql.options as { user?: string; host?: readonly string[]; port?: readonly number[]; database?: string };
  const host = options.host?.[0] ?? 'localhost';
  const port = options.port?.[0];
  const user = options.user === undefined || options.user === '' ? '' : `${options.user}@`;
  return redactUrl(`postgres://${user}${host}${port === undefined ? '' : `:${port}`}/${options.database ?? ''}`);
}

function isStoreError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_STORE_');
}
