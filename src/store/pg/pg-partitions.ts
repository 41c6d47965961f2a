// The hash-partitioned schema (`db migrate --partitions N`): every large table
// (url, form, page_link, fetch, redirect, alias) split into N partitions by
// `PARTITION BY HASH (site)`, so that a statement that names a row's site reads one
// partition (every statement of a page does: the site of a URL is the hash of its host,
// site-hash.ts).
//
// The migrations of migrations/postgresql/ are applied first, as on any index, and
// then each large table, still empty, is made again partitioned: its columns, defaults,
// CHECK constraints and storage as they are (`LIKE … INCLUDING ALL EXCLUDING
// INDEXES`), its primary key, unique constraints, indexes and triggers made again from
// their own definitions under their own names, the sequences its columns own kept (their
// values too), and the views that read it dropped and made again from their definitions. The
// schema is then the one the migrations made, with the same names, so later migrations
// apply to it as to an unpartitioned one: ADD COLUMN, CREATE INDEX and CHECK constraints
// work on partitioned tables. A unique index must include the partition key: every
// primary key and unique constraint of these tables leads with `site` (migration 001),
// which is why it can be done at all; a later migration that adds a unique index to one
// of them must include `site` too.
//
// Only an empty index is partitioned (rows would have to be moved, under a lock held for
// as long as that takes); the number of partitions is read from the catalog, not recorded.

import { StoreError } from '../../errors.js';
import type { Migration } from '../migrations.js';
import { HASH_COMBINE, PARTITION_SEED, partitionOfSite } from './hash-partition.js';
import { applyPendingMigrations, defaultPgMigrationsDir, redactUrl, type Sql } from './pg-database.js';

/** The tables partitioned by site, in the order they are made again. */
export const PARTITIONED_TABLES = ['url', 'form', 'page_link', 'fetch', 'redirect', 'alias'] as const;

/** The partitions a table may be split into. */
export const PG_PARTITIONS = { min: 2, max: 1024 } as const;

/** How many partitions the large tables have: 0 when they are not partitioned (or not made yet). */
export async function partitionCount(sql: Sql): Promise<number> {
  const [row] = await sql`
    SELECT c.relkind::text AS kind, (SELECT count(*) FROM pg_inherits AS i WHERE i.inhparent = c.oid)::integer AS n
    FROM pg_class AS c WHERE c.oid = to_regclass('url')`;
  return row === undefined || row.kind !== 'p' ? 0 : (row.n as number);
}

/** How the large tables are partitioned, as a store opens. */
export interface PartitionLayout {
  /** Partitions a table: 0 when they are not partitioned. */
  readonly count: number;
  /**
   * Every partition is named `<table>_p<remainder>` with the bound partitionPg gives it:
   * a statement about one site may then name the site's partition (partitionName).
   */
  readonly isNamed: boolean;
}

/** The layout of the large tables' partitions, read from the catalog. */
export async function partitionLayout(sql: Sql): Promise<PartitionLayout> {
  const rows = await sql`
    SELECT p.relname AS parent, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid JOIN pg_class AS p ON p.oid = i.inhparent
    WHERE p.oid = ANY (${PARTITIONED_TABLES.map((t) => t)}::text[]::regclass[])`;
  const count = rows.filter((r) => r.parent === 'url').length;
  if (count === 0) return { count: 0, isNamed: false };
  const isNamed =
    rows.length === count * PARTITIONED_TABLES.length &&
    rows.every((r) => {
      const match = /^FOR VALUES WITH \(modulus (\d+), remainder (\d+)\)$/.exec(r.bound as string);
      return match !== null && Number(match[1]) === count && r.name === `${r.parent as string}_p${match[2]!}`;
    });
  return { count, isNamed };
}

/** The partition of `table` that holds `site`'s rows, on a layout whose partitions are named (PartitionLayout.isNamed). */
export function partitionName(table: (typeof PARTITIONED_TABLES)[number], site: number, count: number): string {
  return `${table}_p${partitionOfSite(site, count)}`;
}

export interface PartitionResult {
  /** The migrations applied first. */
  readonly applied: readonly Migration[];
  /** Whether the tables were partitioned now (false: they were, with as many partitions). */
  readonly isPartitioned: boolean;
}

/**
 * Apply every pending migration, then partition the large tables into `partitions`
 * (when they are not yet): in one transaction, under the migrations' lock. Refuses
 * (ERR_STORE_PARTITIONS) an index that holds crawl data, or that is partitioned
 * with another number of partitions.
 */
export async function partitionPg(sql: Sql, partitions: number, options: { readonly now: () => number; readonly url: string; readonly dir?: string }): Promise<PartitionResult> {
  if (!Number.isInteger(partitions) || partitions < PG_PARTITIONS.min || partitions > PG_PARTITIONS.max) {
    throw new TypeError(`Expected \`partitions\` to be an integer from ${PG_PARTITIONS.min} to ${PG_PARTITIONS.max}, got \`${String(partitions)}\``);
  }
  const dir = options.dir ?? defaultPgMigrationsDir();
  return sql.begin(async (tx) => {
    const db = tx as unknown as Sql;
    const applied = await applyPendingMigrations(db, options.now, dir);
    const current = await partitionCount(db);
    if (current === partitions) {
      await makeFunctionsByPartition(db);
      return { applied, isPartitioned: false };
    }
    const label = redactUrl(options.url);
    if (current !== 0) {
      throw new StoreError('ERR_STORE_PARTITIONS', `the index at ${label} is partitioned in ${current} already, not ${partitions}: the number of partitions is chosen once, on an empty index`);
    }
    const [data] = await db.unsafe(`SELECT ${PARTITIONED_TABLES.map((t) => `EXISTS (SELECT 1 FROM "${t}")`).join(' OR ')} AS has_rows`);
    if (data?.has_rows === true) {
      throw new StoreError('ERR_STORE_PARTITIONS', `the index at ${label} holds crawl data: only an empty index is partitioned (make a new database and run linkladder db migrate --partitions ${partitions} on it)`);
    }
    await partitionTables(db, partitions);
    await makeFunctionsByPartition(db);
    return { applied, isPartitioned: true };
  }) as Promise<PartitionResult>;
}

interface ViewDefinition {
  readonly oid: number;
  readonly name: string;
  readonly definition: string;
}

async function partitionTables(db: Sql, partitions: number): Promise<void> {
  const views = await dependentViews(db);
  if (views.length > 0) await db.unsafe(`DROP VIEW ${views.map((v) => quote(v.name)).join(', ')}`);
  for (const table of PARTITIONED_TABLES) {
    const constraints = await db`
      SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = ${table}::regclass AND contype IN ('p', 'u') ORDER BY oid`;
    const indexes = await db`
      SELECT pg_get_indexdef(i.indexrelid) AS definition FROM pg_index AS i
      WHERE i.indrelid = ${table}::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conindid = i.indexrelid)
      ORDER BY i.indexrelid`;
    // A bigserial's sequence belongs to its column: dropped with the table unless set free first.
    const sequences = await db`
      SELECT s.relname AS sequence, a.attname AS column FROM pg_depend AS d
      JOIN pg_class AS s ON s.oid = d.objid AND s.relkind = 'S'
      JOIN pg_attribute AS a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.refobjid = ${table}::regclass AND d.deptype = 'a'`;
    // Triggers (the frontier's copy, migration 012): made again on the partitioned table, which clones them to its partitions.
    const triggers = await db`SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = ${table}::regclass AND NOT tgisinternal ORDER BY oid`;
    const staging = `${table}__partitioned`;
    await db.unsafe(`CREATE TABLE ${quote(staging)} (LIKE ${quote(table)} INCLUDING ALL EXCLUDING INDEXES) PARTITION BY HASH (site)`);
    for (const s of sequences) await db.unsafe(`ALTER SEQUENCE ${quote(s.sequence as string)} OWNED BY NONE`);
    await db.unsafe(`DROP TABLE ${quote(table)}`);
    await db.unsafe(`ALTER TABLE ${quote(staging)} RENAME TO ${quote(table)}`);
    for (const c of constraints) await db.unsafe(`ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(c.name as string)} ${c.definition as string}`);
    for (const i of indexes) await db.unsafe(i.definition as string);
    for (let remainder = 0; remainder < partitions; remainder++) {
      await db.unsafe(`CREATE TABLE ${quote(`${table}_p${remainder}`)} PARTITION OF ${quote(table)} FOR VALUES WITH (MODULUS ${partitions}, REMAINDER ${remainder})`);
    }
    for (const s of sequences) await db.unsafe(`ALTER SEQUENCE ${quote(s.sequence as string)} OWNED BY ${quote(table)}.${quote(s.column as string)}`);
    for (const t of triggers) await db.unsafe(t.definition as string);
  }
  for (const view of views) await db.unsafe(`CREATE VIEW ${quote(view.name)} AS ${view.definition}`);
}

/**
 * The functions of migrations 014 and 016 that read a partitioned table by one site
 * (`p_site`), each made again with a branch for each partition, naming it where the
 * function's own statements name the table (`names`). A statement naming the
 * partitioned table is planned with every partition (some 15 ms at 64) and locks each
 * partition and its indexes at every execution (PostgreSQL 15 locks them all before it
 * prunes): 322 relation locks for a read of url at 64 partitions, 3 for a branch's.
 */
const MADE_BY_PARTITION = [
  // Takes a claimed URL in url.
  { signature: 'claim_url(integer, bigint, text, bigint, bigint)', table: 'url', names: 'url AS u' },
  // A host's last request start, for its delay: read at each claim, for each host with a delay.
  { signature: 'last_fetch_start(integer)', table: 'fetch', names: '"fetch" AS f' },
  // A page's admission and its claim held (migration 016).
  { signature: 'url_keys_taken(integer, text[])', table: 'url', names: 'url AS u' },
  { signature: 'form_texts_taken(integer, text[])', table: 'form', names: 'form AS fo' },
  { signature: 'urls_became_alias(integer, bigint[])', table: 'url', names: 'url AS u' },
  { signature: 'page_link_end(integer, bigint)', table: 'page_link', names: 'page_link AS p' },
  { signature: 'url_held(integer, bigint, bigint)', table: 'url', names: 'url AS u' },
] as const;

/** What a function made by partition starts its body with (functionByPartition). */
const BY_PARTITION_MARK = '-- The partition\'s remainder:';

/**
 * On an index partitioned as partitionPg partitions (its partitions named), make again
 * by partition each function of MADE_BY_PARTITION that is still as its migration made
 * it: one a migration applied after the index was partitioned, or one an earlier
 * linkladder left so.
 */
async function makeFunctionsByPartition(db: Sql): Promise<void> {
  const layout = await partitionLayout(db);
  if (!layout.isNamed) return;
  for (const entry of MADE_BY_PARTITION) {
    const [row] = await db`SELECT pg_get_functiondef(oid) AS definition, prosrc AS source FROM pg_proc WHERE oid = to_regprocedure(${entry.signature})`;
    if (row === undefined || (row.source as string).includes(BY_PARTITION_MARK)) continue;
    await db.unsafe(functionByPartition(row.definition as string, row.source as string, entry, layout.count));
  }
}

/**
 * Apply every pending migration (as migratePg does), then, on a partitioned index, make again by
 * partition each function a migration just made (makeFunctionsByPartition): in one
 * transaction, under the migrations' lock. How a worker and `db migrate` migrate.
 */
export async function migratePgIndex(sql: Sql, now: () => number, dir = defaultPgMigrationsDir()): Promise<Migration[]> {
  return sql.begin(async (tx) => {
    const db = tx as unknown as Sql;
    const applied = await applyPendingMigrations(db, now, dir);
    if (applied.length > 0) await makeFunctionsByPartition(db);
    return applied;
  }) as Promise<Migration[]>;
}

/**
 * A function's definition (`pg_get_functiondef`) with its body (`source`) made again
 * with a branch for each partition. The branch is the site's partition as PostgreSQL
 * routes it: hashint4extended with the partitioning seed, combined into a row hash from
 * 0 (hash_combine64), modulo the partitions (hash-partition.ts computes the same in the
 * client). A later migration that makes one of them again must keep in mind that it is
 * made again so, once (makeFunctionsByPartition).
 */
function functionByPartition(definition: string, source: string, made: (typeof MADE_BY_PARTITION)[number], partitions: number): string {
  const parts = /^([\s\S]*?)\bBEGIN\n([\s\S]*)\nEND\s*$/.exec(source);
  const name = made.signature.slice(0, made.signature.indexOf('('));
  if (parts === null || !parts[2]!.includes(made.names) || !definition.includes(source)) {
    throw new StoreError('ERR_STORE_PARTITIONS', `${name} is not as its migration made it: its statements cannot be given a partition each`);
  }
  const [, header, body] = parts as unknown as [string, string, string];
  const alias = made.names.slice(made.names.lastIndexOf(' '));
  const branches = Array.from({ length: partitions }, (_, remainder) => `
    WHEN ${remainder} THEN
${body.replaceAll(made.names, `${quote(`${made.table}_p${remainder}`)} AS${alias}`)}`);
  const byPartition = `${header}BEGIN
  ${BY_PARTITION_MARK} (hash + 2^64 + COMBINE) mod 2^64 mod N, in numeric (bigint would overflow).
  CASE (((hashint4extended(p_site, ${PARTITION_SEED}) ::numeric + 18446744073709551616 + ${HASH_COMBINE}) % 18446744073709551616) % ${partitions})::integer${branches.join('')}
  END CASE;
END
`;
  return definition.replace(source, () => byPartition);
}

/** The views that read a large table (or such a view), each after the views it reads. */
async function dependentViews(db: Sql): Promise<ViewDefinition[]> {
  const rows = await db`
    SELECT DISTINCT v.oid::bigint AS view, d.refobjid::bigint AS uses
    FROM pg_rewrite AS r
    JOIN pg_class AS v ON v.oid = r.ev_class AND v.relkind = 'v' AND v.relnamespace = current_schema()::regnamespace
    JOIN pg_depend AS d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> v.oid`;
  const tables = await db`SELECT oid::bigint AS oid FROM pg_class WHERE oid = ANY (${PARTITIONED_TABLES.map((t) => t)}::text[]::regclass[])`;
  const uses = new Map<number, Set<number>>();
  for (const row of rows) {
    const set = uses.get(row.view as number) ?? new Set<number>();
    set.add(row.uses as number);
    uses.set(row.view as number, set);
  }
  // Views reading a large table, then views reading those, until none is added.
  const chosen = new Set<number>(tables.map((t) => t.oid as number));
  const tableOids = new Set(chosen);
  for (let isGrowing = true; isGrowing; ) {
    isGrowing = false;
    for (const [view, used] of uses) {
      if (!chosen.has(view) && [...used].some((u) => chosen.has(u))) {
        chosen.add(view);
        isGrowing = true;
      }
    }
  }
  const viewOids = [...chosen].filter((oid) => !tableOids.has(oid));
  if (viewOids.length === 0) return [];
  const definitions = await db`
    SELECT oid::bigint AS oid, relname AS name, pg_get_viewdef(oid) AS definition FROM pg_class WHERE oid = ANY (${viewOids}::bigint[]::oid[]) ORDER BY oid`;
  // Each view after those it reads.
  const ordered: ViewDefinition[] = [];
  const pending = definitions.map((d) => ({ oid: d.oid as number, name: d.name as string, definition: d.definition as string }));
  while (pending.length > 0) {
    const index = pending.findIndex((v) => [...(uses.get(v.oid) ?? [])].every((u) => !pending.some((p) => p.oid === u)));
    if (index === -1) throw new StoreError('ERR_STORE_PARTITIONS', 'the views of the index read each other in a cycle');
    ordered.push(...pending.splice(index, 1));
  }
  return ordered;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
