// `linkladder db migrate|status|unlock [--db PATH|URL]`: the index database itself (`db stats`,
// hidden, is the store's raw counts; `linkladder stats` is the one users read).
// A PostgreSQL index (`--db postgres://…`) takes migrations/postgresql/.

import { InvalidArgumentError, Option, type Command } from 'commander';
import { splitByEvidence } from '../../ladder/index.js';
import {
  isPostgresUrl,
  migratePgIndex,
  migrationStatusPg,
  partitionCount,
  partitionPg,
  PG_PARTITIONS,
  readMigrationStatus,
  SqliteStore,
  unlockIndex,
  type Migration,
  type MigrationStatus,
  type StoreStats,
} from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexPath, indexTarget, type IndexPathOptions } from '../index-path.js';
import { indexLabel, lockTakeoverNotice, onPgDatabase, openReader, type PgConnection } from '../open-store.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';

interface DbOptions extends IndexPathOptions, OutputOptions {
  readonly partitions?: number;
}

export function addDbCommand(program: Command, context: CliContext): void {
  const db = program.command('db').summary('migrate and inspect the index database').description('Migrate and inspect the index database.');

  addIndexPathOptions(db.command('migrate'))
    .description(
      'Create the database if needed and apply every pending migration (migrations/NNN_name.sql; for a postgres:// database, which must exist, migrations/postgresql/).',
    )
    .addOption(
      new Option(
        '--partitions <n>',
        `PostgreSQL: hash-partition the large tables by site into n partitions (${PG_PARTITIONS.min}-${PG_PARTITIONS.max}), on an index with no crawl data yet`,
      ).argParser(parsePartitions),
    )
    .action(async (options: DbOptions) => {
      const { db: file, connection } = await indexTarget(options, context);
      const label = indexLabel(file);
      if (options.partitions !== undefined) {
        if (!isPostgresUrl(file)) throw new InvalidArgumentError(`--partitions is for a PostgreSQL index (--db postgres://…); ${label} is a file`);
        const partitions = options.partitions;
        const result = await onPgDatabase(file, (sql) => partitionPg(sql, partitions, { now: Date.now, url: file }), connection);
        for (const m of result.applied) await context.out.writeLine(`${label}: applied ${m.file}`);
        await context.out.writeLine(
          result.isPartitioned
            ? `${label}: partitioned url, form, page_link, fetch, redirect, alias in ${partitions} partitions each (hash of site)`
            : `${label}: up to date (${partitions} partitions)`,
        );
        return;
      }
      const applied = isPostgresUrl(file) ? await migratePostgres(file, connection) : await migrateFile(file, context);
      if (applied.length === 0) await context.out.writeLine(`${label}: up to date`);
      for (const m of applied) await context.out.writeLine(`${label}: applied ${m.file}`);
    });

  addIndexPathOptions(db.command('status'))
    .description('List the migrations and when each was applied, without changing the database.')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .action(async (options: DbOptions) => {
      const { db: file, connection } = await indexTarget(options, context);
      const [migrations, partitions]: [MigrationStatus[], number] = isPostgresUrl(file)
        ? await onPgDatabase(file, async (sql) => [await migrationStatusPg(sql), await partitionCount(sql)], connection)
        : [readMigrationStatus(file), 0];
      await withOutput(options, context, async (out) => {
        for (const m of migrations) {
          const version = String(m.version).padStart(3, '0');
          const appliedAt = m.appliedAt === undefined ? null : new Date(m.appliedAt).toISOString();
          await out.writeLine(
            isJsonOutput(options) ? JSON.stringify({ version: m.version, name: m.name, appliedAt }) : `${version}_${m.name}  ${appliedAt ?? 'pending'}`,
          );
        }
        // A partitioned index says so (an unpartitioned one lists its migrations alone, as a file does).
        if (partitions > 0) await out.writeLine(isJsonOutput(options) ? JSON.stringify({ partitions }) : `partitions  ${partitions} (hash of site)`);
      });
    });

  addIndexPathOptions(db.command('unlock'))
    .description(
      'Remove the writer lock a crawl left in the index when its machine went down (a lock of another host is never taken over, since whether its process runs cannot be checked there). Says whose lock it removed; a lock of a crawl still running on this machine is kept (exit 3).',
    )
    .action(async (options: DbOptions) => {
      const file = await indexPath(options, context);
      const label = indexLabel(file);
      if (isPostgresUrl(file)) {
        await context.out.writeLine(`${label}: no writer lock (a PostgreSQL index has none: each worker's claims are leases that expire)`);
        return;
      }
      const holder = unlockIndex(file);
      await context.out.writeLine(
        holder === undefined
          ? `${label}: no writer lock`
          : `${label}: removed the writer lock of pid ${holder.pid} on host ${holder.host} (since ${new Date(holder.since).toISOString()})`,
      );
    });

  // One `stats` in the help, so users are not offered two: `linkladder stats` reads a crawl; this raw
  // count of the store's tables stays for scripts (and reads an index with no crawl).
  addIndexPathOptions(db.command('stats', { hidden: true }))
    .description('The store\'s raw counts (URLs by state, links by rung, aliases, fetches); see `linkladder stats`.')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .action(async (options: DbOptions) => {
      const { db: file, connection } = await indexTarget(options, context);
      const stats = isPostgresUrl(file) ? await readPgStats(file, connection) : await readFileStats(file);
      const lines = isJsonOutput(options) ? [JSON.stringify(stats)] : formatStats(stats);
      await withOutput(options, context, async (out) => {
        for (const line of lines) await out.writeLine(line);
      });
    });
}

function parsePartitions(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < PG_PARTITIONS.min || n > PG_PARTITIONS.max) {
    throw new InvalidArgumentError(`expected an integer from ${PG_PARTITIONS.min} to ${PG_PARTITIONS.max}.`);
  }
  return n;
}

async function migrateFile(file: string, context: CliContext): Promise<readonly Migration[]> {
  const store = new SqliteStore({ path: file });
  const notice = lockTakeoverNotice(file, store);
  if (notice !== undefined) await context.err.writeLine(notice);
  const applied = store.appliedMigrations;
  await store.close();
  return applied;
}

/** Apply migrations/postgresql/ (the database itself must exist: creating one is its administrator's). */
function migratePostgres(url: string, connection: PgConnection): Promise<readonly Migration[]> {
  return onPgDatabase(url, (sql) => migratePgIndex(sql, Date.now), connection);
}

async function readFileStats(file: string): Promise<StoreStats> {
  const store = new SqliteStore({ path: file, readOnly: true });
  const stats = await store.stats();
  await store.close();
  return stats;
}

async function readPgStats(url: string, connection: PgConnection): Promise<StoreStats> {
  const reader = await openReader(url, connection);
  try {
    return await reader.stats();
  } finally {
    await reader.close();
  }
}

function formatStats(stats: StoreStats): string[] {
  const list = (counts: Readonly<Record<string, number>>): string =>
    Object.entries(counts)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  const urls = Object.values(stats.urlsByState).reduce((a, b) => a + b, 0);
  const { protocol, content, claimed } = splitByEvidence(stats.aliasesByEvidence);
  const { new: fresh, ...folded } = stats.linksByRung;
  const foldedTotal = Object.values(folded).reduce((a, b) => a + b, 0);
  return [
    `urls     ${urls}  (${list(stats.urlsByState)})`,
    `links    ${stats.links}  (to a new URL ${fresh}, without a valid target ${stats.linksWithoutTarget})`,
    `folded   ${foldedTotal}  links met a known URL, by rung: ${list(folded)}`,
    `aliases  ${list({ ...protocol, ...content })}; canonical links recorded, not obeyed (no alias) ${claimed.canonical ?? 0}`,
    `fetches  ${stats.fetches}`,
  ];
}
