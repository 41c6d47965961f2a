// An index written by the SQLite store, copied row by row into a PostgreSQL index
// (migrations/postgresql/001), so that the PostgreSQL reader can be held to what the
// SQLite reader reads from the same rows. Every table the reader reads is copied; each
// row's `site` is the host hash of the URL it belongs to, as the PostgreSQL store writes it.

import Database from 'better-sqlite3';
import type { Sql } from '../../../src/store/pg/pg-database.js';
import { siteOf } from '../../../src/store/pg/site-hash.js';

/** Tables the copy fills, emptied before it (in an order that needs no cascade). */
export const COPIED_TABLES = ['url', 'form', 'page_link', 'link_tally', '"fetch"', 'redirect', 'alias', 'crawl_run', 'sitemap', 'sitemap_entry', 'run_finding'];

type Row = Record<string, unknown>;

/** Copy the index file `file` into the migrated PostgreSQL database behind `sql`, replacing what it held. */
export async function copySqliteIndex(file: string, sql: Sql): Promise<void> {
  const db = new Database(file, { readonly: true });
  try {
    const all = (query: string): Row[] => db.prepare(query).all() as Row[];
    const urls = all('SELECT id, key, scheme, host, state, role, depth, alias_of, first_seen, first_from, first_href FROM url ORDER BY id');
    const siteOfUrl = new Map(urls.map((u) => [u['id'] as number, siteOf((u['host'] as string | null) ?? undefined)]));
    const site = (urlId: unknown): number => siteOfUrl.get(urlId as number) ?? 0;
    const fetches = all('SELECT * FROM fetch ORDER BY id');
    const siteOfFetch = new Map(fetches.map((f) => [f['id'] as number, site(f['url_id'])]));
    await sql.begin(async (tx) => {
      await tx.unsafe(`TRUNCATE ${COPIED_TABLES.join(', ')}`);
      await insert(tx, 'url', urls.map((u) => ({ site: site(u['id']), ...u })));
      await insert(
        tx,
        'form',
        all('SELECT text, url_id, rung FROM form ORDER BY id').map((f) => ({ site: site(f['url_id']), ...f })),
      );
      await insert(
        tx,
        'page_link',
        all('SELECT from_url, first_position, count, links, format FROM page_link ORDER BY from_url, first_position').map((p) => ({ site: site(p['from_url']), ...p })),
      );
      await insert(tx, 'link_tally', all('SELECT rung, ladder_rung, links FROM link_tally').map((t) => ({ shard: 0, ...t })));
      await insert(tx, '"fetch"', fetches.map((f) => ({ site: site(f['url_id']), ...f, not_modified: f['not_modified'] === 1 })));
      await insert(
        tx,
        'redirect',
        all('SELECT fetch_id, hop, from_url, to_url, status FROM redirect ORDER BY fetch_id, hop').map((r) => ({ site: siteOfFetch.get(r['fetch_id'] as number) ?? 0, ...r })),
      );
      await insert(tx, 'alias', all('SELECT from_id, evidence, to_id, detail, created_at FROM alias ORDER BY rowid').map((a) => ({ site: site(a['from_id']), ...a })));
      await insert(tx, 'crawl_run', all('SELECT id, started_at, seeds, settings, ended_at, stopped_by, outcome, counts FROM crawl_run ORDER BY id'));
      await insert(tx, 'sitemap', all('SELECT id, run_id, url, source, parent_id, fetched_at, status, error_code, kind, findings FROM sitemap ORDER BY id'));
      await insert(tx, 'sitemap_entry', all('SELECT sitemap_id, position, url_id, loc, lastmod, line FROM sitemap_entry ORDER BY sitemap_id, position'));
      await insert(tx, 'run_finding', all('SELECT run_id, code, page, target, href FROM run_finding'));
    });
  } finally {
    db.close();
  }
}

/** Insert `rows` in their order (a bigserial column counts them in it), a thousand a statement. */
async function insert(tx: Sql | import('postgres').TransactionSql<{ bigint: number }>, table: string, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => `(${columns.map((column) => `$${values.push(row[column] ?? null)}`).join(', ')})`);
    await tx.unsafe(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values as never[]);
  }
}
