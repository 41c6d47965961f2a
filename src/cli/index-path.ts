// `--db PATH` and `--config FILE` for the commands that open an existing index
// (explain, audit, graph, stats, report, db): the path is the flag's, else
// LINKLADDER_DB's, else the config file's `db`, else data/linkladder.db — the same
// precedence as `linkladder crawl`, so that every command finds the index a
// config names. A `postgres://` URL in its place names a PostgreSQL index.

import { Option, type Command } from 'commander';
import { DEFAULT_CONFIG_PATH } from '../config/index.js';
import { commandSettings } from './command-settings.js';
import { DEFAULT_DB_PATH } from '../store/index.js';
import type { CliContext } from './cli-context.js';
import type { PgConnection } from './open-store.js';

export interface IndexPathOptions {
  readonly db?: string;
  readonly config?: string;
  readonly dbTransactionPooling?: boolean;
}

/** Add `--db` and `--config` to a command. */
export function addIndexPathOptions(command: Command): Command {
  return command
    .addOption(new Option('--db <path>', 'the index: a database file, or postgres://user@host:port/db').default(undefined, `${DEFAULT_DB_PATH}, or the config's "db"`))
    .addOption(new Option('--config <file>', `a JSON config file whose "db" names the index (default: ${DEFAULT_CONFIG_PATH}, if it exists)`))
    .addOption(new Option('--db-transaction-pooling', 'the PostgreSQL index is reached through a pooler in transaction mode (PgBouncer): no named prepared statements'));
}

/** The index path the options, LINKLADDER_DB and the config file name; ERR_CONFIG_INVALID when a source is invalid. */
export async function indexPath(options: IndexPathOptions, context: CliContext): Promise<string> {
  return (await indexTarget(options, context)).db;
}

/**
 * The index path, as `indexPath` finds it, and how a PostgreSQL index is reached: through a
 * pooler in transaction mode by the flag, LINKLADDER_DB_TRANSACTION_POOLING or the config's
 * `dbTransactionPooling`.
 */
export async function indexTarget(options: IndexPathOptions, context: CliContext): Promise<{ db: string; connection: PgConnection }> {
  const settings = await commandSettings(context, options.config, {
    ...(options.db === undefined ? {} : { db: options.db }),
    ...(options.dbTransactionPooling === true ? { dbTransactionPooling: true } : {}),
  });
  return { db: settings.db, connection: { transactionPooling: settings.dbTransactionPooling } };
}
