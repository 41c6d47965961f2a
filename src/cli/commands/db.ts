// `linkladder db migrate|status|stats [--db PATH]`: the index database itself.

import type { Command } from 'commander';
import { DEFAULT_DB_PATH, readMigrationStatus, SqliteStore, type StoreStats } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';

interface DbOptions {
  readonly db: string;
  readonly json?: boolean;
}

const DB_OPTION = ['--db <path>', 'the index database', DEFAULT_DB_PATH] as const;

export function addDbCommand(program: Command, context: CliContext): void {
  const db = program.command('db').summary('migrate and inspect the index database').description('Migrate and inspect the index database.');

  db.command('migrate')
    .description('Create the database if needed and apply every pending migration (migrations/NNN_name.sql).')
    .option(...DB_OPTION)
    .action(async (options: DbOptions) => {
      const store = new SqliteStore({ path: options.db });
      const applied = store.appliedMigrations;
      store.close();
      if (applied.length === 0) await context.out.writeLine(`${options.db}: up to date`);
      for (const m of applied) await context.out.writeLine(`${options.db}: applied ${m.file}`);
    });

  db.command('status')
    .description('List the migrations and when each was applied, without changing the database.')
    .option(...DB_OPTION)
    .option('--json', 'one JSON object per migration')
    .action(async (options: DbOptions) => {
      for (const m of readMigrationStatus(options.db)) {
        const version = String(m.version).padStart(3, '0');
        const appliedAt = m.appliedAt === undefined ? null : new Date(m.appliedAt).toISOString();
        await context.out.writeLine(
          options.json === true
            ? JSON.stringify({ version: m.version, name: m.name, appliedAt })
            : `${version}_${m.name}  ${appliedAt ?? 'pending'}`,
        );
      }
    });

  db.command('stats')
    .description('URLs by state, links, how many links each rung of the ladder folded, aliases and fetches.')
    .option(...DB_OPTION)
    .option('--json', 'one JSON object')
    .action(async (options: DbOptions) => {
      const store = new SqliteStore({ path: options.db, mustExist: true, recoverClaims: false });
      const stats = store.stats();
      store.close();
      const lines = options.json === true ? [JSON.stringify(stats)] : formatStats(stats);
      for (const line of lines) await context.out.writeLine(line);
    });
}

function formatStats(stats: StoreStats): string[] {
  const list = (counts: Readonly<Record<string, number>>): string =>
    Object.entries(counts)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  const urls = Object.values(stats.urlsByState).reduce((a, b) => a + b, 0);
  const { new: fresh, ...folded } = stats.linksByRung;
  const foldedTotal = Object.values(folded).reduce((a, b) => a + b, 0);
  return [
    `urls     ${urls}  (${list(stats.urlsByState)})`,
    `links    ${stats.links}  (to a new URL ${fresh}, without a valid target ${stats.linksWithoutTarget})`,
    `folded   ${foldedTotal}  links met a known URL, by rung: ${list(folded)}`,
    `aliases  ${list(stats.aliasesByEvidence)}`,
    `fetches  ${stats.fetches}`,
  ];
}
