// The settings of a crawl, from their sources, lowest first: the schema's defaults <
// the config file (`--config FILE`, else linkladder.config.json if it exists) <
// LINKLADDER_* variables < the flags given. Each source is checked whole against the
// schema, unknown keys included; a source with issues fails with all of them. A
// LINKLADDER_* variable that names no setting is only a warning.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { RENAMED_CRAWL_OPTIONS, describeOptionIssue } from '../crawl/index.js';
import { describeValue } from '../errors.js';
import { ConfigError } from './config-error.js';
import { deepFreeze } from './deep-freeze.js';
import type { CrawlSettings } from './schema.js';
import { CRAWL_SETTINGS_DEFAULTS, ENV_PREFIX, SETTINGS, fromText, type Setting } from './settings.js';

/**
 * The config file read when no `--config` is given, relative to the working
 * directory; its absence is no error. Named after the tool: `config/default.json` is
 * node-config's, and many Node projects have one of their own.
 */
export const DEFAULT_CONFIG_PATH = 'linkladder.config.json';

/**
 * LINKLADDER_* variables that are not settings: the test suites' corpus folder and
 * the benchmarks' sizes. They are left alone; any other LINKLADDER_* name is a warning.
 */
const FOREIGN_ENV = /^LINKLADDER_(?:CORPUS_DIR$|BENCH_)/;

/** Names people reach for (other crawlers' options, former flags), and the setting to use. */
const RENAMED: Readonly<Record<string, string>> = {
  ...RENAMED_CRAWL_OPTIONS,
  dbPath: 'db',
  database: 'db',
};

export interface ConfigSources {
  /** `--config FILE`: it must exist. Without it, `linkladder.config.json` is read if it exists. */
  readonly configPath?: string | undefined;
  /** The working directory: a relative config path is resolved against it. */
  readonly cwd: string;
  /** The environment, whose LINKLADDER_* variables are read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The settings the command line gave (not its defaults), already checked by the options' parsers. */
  readonly flags?: Partial<CrawlSettings>;
  /** Told what is ignored: a LINKLADDER_* variable that names no setting. @default nothing is told */
  readonly onWarning?: ((message: string) => void) | undefined;
}

/**
 * The settings of a crawl, deep-frozen. Throws `ConfigError` (`ERR_CONFIG_INVALID`)
 * when the config file cannot be read or is invalid, or a LINKLADDER_* variable
 * holds a bad value; a variable that names no setting is passed to `onWarning`.
 */
export async function loadCrawlSettings(sources: ConfigSources): Promise<CrawlSettings> {
  const file = await readConfigFile(sources.configPath, sources.cwd);
  const env = readEnv(sources.env, sources.onWarning ?? (() => {}));
  const flags = Object.fromEntries(Object.entries(sources.flags ?? {}).filter(([, value]) => value !== undefined));
  return deepFreeze({ ...CRAWL_SETTINGS_DEFAULTS, ...file, ...env, ...flags }) as CrawlSettings;
}

/** Any subset of the settings, each checked against its schema; unknown keys are issues. */
const layerSchema = z.strictObject(Object.fromEntries(SETTINGS.map((setting) => [setting.key, setting.schema.optional()])), {
  error: (issue) => (issue.code === 'invalid_type' ? 'Expected an object of settings by name' : undefined),
});

async function readConfigFile(configPath: string | undefined, cwd: string): Promise<Partial<CrawlSettings>> {
  const name = configPath ?? DEFAULT_CONFIG_PATH;
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, name), 'utf8');
  } catch (error) {
    if (configPath === undefined && hasCode(error, 'ENOENT')) return {};
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`cannot read config file ${name}: ${why}`, { source: name, issues: [why], cause: error });
  }
  let input: unknown;
  try {
    input = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`config file ${name} is not JSON: ${why}`, { source: name, issues: [why], cause: error });
  }
  const result = layerSchema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.flatMap((issue) => describeFileIssue(issue, input));
    throw new ConfigError(`invalid config file ${name}: ${issues.join('; ')}`, { source: name, issues });
  }
  return result.data as Partial<CrawlSettings>;
}

function describeFileIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `unknown key \`${key}\`${suggestion(key, 'key')}`);
  if (issue.path.length === 0) return [`${issue.message}, got ${describeValue(input)}`];
  return [describeOptionIssue(issue, input)];
}

function readEnv(env: Readonly<Record<string, string | undefined>>, warn: (message: string) => void): Partial<CrawlSettings> {
  const issues: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!name.startsWith(ENV_PREFIX) || FOREIGN_ENV.test(name) || text === undefined) continue;
    const setting = SETTINGS.find((candidate) => candidate.env === name);
    if (setting === undefined) {
      warn(`\`${name}\` is not a setting${suggestion(name, 'env')}; it is ignored`);
      continue;
    }
    const result = setting.schema.safeParse(fromText(setting, text));
    if (result.success) values[setting.key] = result.data;
    else issues.push(`\`${name}=${text}\`: ${firstMessage(result.error)}`);
  }
  if (issues.length > 0) {
    throw new ConfigError(`invalid LINKLADDER_* variables: ${issues.join('; ')}`, { source: 'environment', issues });
  }
  return values as Partial<CrawlSettings>;
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'invalid';
}

/** ` (did you mean `perHostConcurrency`?)`, or nothing when no setting is close. */
function suggestion(name: string, as: 'key' | 'env'): string {
  const bare = as === 'env' ? name.slice(ENV_PREFIX.length) : name;
  if (as === 'env' && bare === 'CONFIG') return ' (the config file is given with --config)';
  const squashed = squash(bare);
  const renamed = Object.entries(RENAMED).find(([old]) => squash(old) === squashed)?.[1];
  const match =
    SETTINGS.find((setting) => setting.key === renamed) ??
    SETTINGS.find((setting) => squash(setting.key) === squashed) ??
    SETTINGS.find((setting) => editDistance(squash(setting.key), squashed) <= Math.min(2, Math.floor(squashed.length / 3)));
  return match === undefined ? '' : ` (did you mean \`${nameOf(match, as)}\`?)`;
}

function nameOf(setting: Setting, as: 'key' | 'env'): string {
  return as === 'env' ? setting.env : setting.key;
}

/** `per-host`, `PER_HOST` and `PerHost` are one name. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Levenshtein distance, for typos in short names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function hasCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
