// `linkladder db migrate|status|stats [--db PATH]`: the index database itself.

import type { Command } from 'commander';
import { readMigrationStatus, SqliteStore, type StoreStats } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { addIndexPathOptions, indexPath, type IndexPathOptions } from '../index-path.js';
import { lockTakeoverNotice } from '../open-store.js';

interface DbOptions extends IndexPathOptions {
  readonly json?: boolean;
}

export function addDbCommand(program: Command, context: CliContext): void {
  const db = program.command('db').summary('migrate and inspect the index database').description('Migrate and inspect the index database.');

  addIndexPathOptions(db.command('migrate'))
    .description('Create the database if needed and apply every pending migration (migrations/NNN_name.sql).')
    .action(async (options: DbOptions) => {
      const file = await indexPath(options, context);
      const store = new SqliteStore({ path: file });
      const notice = lockTakeoverNotice(file, store);
      if (notice !== undefined) await context.err.writeLine(notice);
      const applied = store.appliedMigrations;
      await store.close();
      if (applied.length === 0) await context.out.writeLine(`${file}: up to date`);
      for (const m of applied) await context.out.writeLine(`${file}: applied ${m.file}`);
    });

  addIndexPathOptions(db.command('status'))
    .description('List the migrations and when each was applied, without changing the database.')
    .option('--json', 'one JSON object per migration')
    .action(async (options: DbOptions) => {
      for (const m of readMigrationStatus(await indexPath(options, context))) {
        const version = String(m.version).padStart(3, '0');
        const appliedAt = m.appliedAt === undefined ? null : new Date(m.appliedAt).toISOString();
        await context.out.writeLine(
          options.json === true
            ? JSON.stringify({ version: m.version, name: m.name, appliedAt })
            : `${version}_${m.name}  ${appliedAt ?? 'pending'}`,
        );
      }
    });

  addIndexPathOptions(db.command('stats'))
    .description('URLs by state, links, how many links each rung of the ladder folded, aliases and fetches.')
    .option('--json', 'one JSON object')
    .action(async (options: DbOptions) => {
      const store = new SqliteStore({ path: await indexPath(options, context), readOnly: true });
      const stats = await store.stats();
      await store.close();
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
