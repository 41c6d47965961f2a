// The settings of `linkladder crawl` as one zod schema: crawl()'s own (the crawl
// layer's `crawlOptionsSchema`, the single source of their names, types, defaults and
// checks) and the command line's (the index, the user-agent, --json). It is the source
// of the command's options, of the LINKLADDER_* variables and config file keys, and of
// the options table of docs/options.md: one source, so they never disagree. A setting's key is its flag in camelCase
// (`--per-host-concurrency` ↔ `perHostConcurrency`), its variable LINKLADDER_ and the
// key in UPPER_SNAKE (`LINKLADDER_PER_HOST_CONCURRENCY`).

import * as z from 'zod';
import { SETTING_META, crawlOptionsSchema, integerBetween, isOn, type CrawlSettingsOf } from '../crawl/index.js';
import { FETCHER_DEFAULTS } from '../fetch/index.js';
import { DEFAULT_DB_PATH, PG_POOL_SIZE } from '../store/index.js';

/** Where the index is: a file, or a PostgreSQL database (`postgres://`) shared by many workers; created if needed, resumed if it holds a crawl. */
export const dbSetting = z
  .string({ error: 'Expected a non-empty path' })
  .min(1, { error: 'Expected a non-empty path' })
  .default(DEFAULT_DB_PATH)
  .register(SETTING_META, { argument: 'PATH', description: 'the index: a file, or a PostgreSQL database `postgres://user@host:port/db` that any number of crawls share; created if needed, **resumed** if it holds a crawl; the default one, named by no flag, variable or file, takes no seed of a site it does not hold (give that site its own `--db`)' });

/**
 * Connections a worker opens to a PostgreSQL index at most (its pool); each worker
 * counts against the server's `max_connections`. No effect on a file.
 * @default 4
 */
export const dbPoolSizeSetting = integerBetween(PG_POOL_SIZE.min, PG_POOL_SIZE.max)
  .default(PG_POOL_SIZE.default)
  .register(SETTING_META, {
    argument: 'N',
    description: "connections to a PostgreSQL index at most, each counted against the server's `max_connections` (no effect on a file)",
  });

/**
 * A PostgreSQL index reached through a pooler in transaction mode (PgBouncer
 * `pool_mode = transaction`): no named prepared statements, no startup parameters it
 * refuses. Not detected: a pooler is transparent until a statement fails.
 * @default false
 */
export const dbTransactionPoolingSetting = isOn.default(false).register(SETTING_META, {
  description:
    'the PostgreSQL index is reached through a pooler in transaction mode (PgBouncer `pool_mode = transaction`): no named prepared statements, no `jit`/`plan_cache_mode` startup parameters',
});

/** The fetcher's own check (fetch/fetch-option-checks.ts), so that a file's bad value names the file. */
export const userAgentSetting = z
  .string({ error: 'Expected a non-empty string without CR, LF or NUL' })
  .regex(/^[^\r\n\0]+$/, { error: 'Expected a non-empty string without CR, LF or NUL' })
  .default(FETCHER_DEFAULTS.userAgent)
  .register(SETTING_META, {
    argument: 'STRING',
    description: 'the `User-Agent` of every request, and the robots.txt product token',
  });

/** The settings of `linkladder crawl`, in the order of --help and docs/options.md. */
export const crawlSettingsSchema = z.strictObject(
  {
    db: dbSetting,
    dbPoolSize: dbPoolSizeSetting,
    dbTransactionPooling: dbTransactionPoolingSetting,
    ...crawlOptionsSchema.shape,
    userAgent: userAgentSetting,
    json: isOn.default(false).register(SETTING_META, { description: 'one JSON object per event on stdout, then the summary' }),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'Expected an object of settings by name' : undefined) },
);

/** The settings of one crawl, every one set: what the config layer hands down (deep-frozen). */
export type CrawlSettings = CrawlSettingsOf<z.output<typeof crawlSettingsSchema>>;

export type SettingKey = keyof CrawlSettings;
