// The settings of `linkladder crawl` as one zod schema: the single source of their
// types, defaults and validation, of the command's options and of README's options
// table (STYLE.md "Config"). A setting's key is its flag in camelCase (`--per-host` ↔
// `perHost`), its variable LINKLADDER_ and the key in UPPER_SNAKE (`LINKLADDER_PER_HOST`).

import { z } from 'zod';
import { BASE_MODES } from '../base/index.js';
import { CRAWL_DEFAULTS, SCOPES } from '../crawl/index.js';
import { FETCHER_DEFAULTS } from '../fetch/index.js';
import { DEFAULT_DB_PATH } from '../store/index.js';

/** What the schema does not say about a setting: how README and --help present it. */
export interface SettingMeta {
  /** The flag's value, as README writes it (`PATH`, `N`); lower-cased in --help (`<path>`). A switch has none. */
  readonly argument?: string;
  /** What it does, in README's words (Markdown: `code`, **bold**); --help shows it without the marks. */
  readonly description: string;
  /** The default as README and --help show it, where the value itself does not say it well. */
  readonly defaultText?: string;
}

/** Each setting's presentation, keyed by the setting's field of `crawlSettingsSchema`. */
export const SETTING_META = z.registry<SettingMeta>();

function integerAtLeast(min: number) {
  const error = `Expected an integer >= ${min}`;
  return z.int({ error }).min(min, { error });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `Expected one of ${values.join(', ')}` });
}

/** A regular expression (JavaScript syntax, no flags), compiled once, here. */
const pattern = z.string({ error: 'Expected a regular expression (a string)' }).transform((source, context) => {
  try {
    return new RegExp(source);
  } catch (error) {
    // V8 says what is wrong: "Invalid regular expression: /(/: Unterminated group".
    context.issues.push({ code: 'custom', message: error instanceof Error ? error.message : String(error), input: source });
    return z.NEVER;
  }
});

const patterns = z.array(pattern, { error: 'Expected an array of regular expressions (strings)' });

const isOn = z.boolean({ error: 'Expected true or false' });

/** The settings of `linkladder crawl`, in the order of --help and README. */
export const crawlSettingsSchema = z.strictObject(
  {
    db: z
      .string({ error: 'Expected a non-empty path' })
      .min(1, { error: 'Expected a non-empty path' })
      .default(DEFAULT_DB_PATH)
      .register(SETTING_META, { argument: 'PATH', description: 'the index; created if needed, **resumed** if it holds a crawl' }),
    baseMode: oneOf(BASE_MODES)
      .default(CRAWL_DEFAULTS.baseMode)
      .register(SETTING_META, {
        argument: 'MODE',
        description: 'the base URI chain: `rfc3986` uses `Content-Location` (§5.1.2), `browser` does not',
      }),
    scope: oneOf(SCOPES)
      .default(CRAWL_DEFAULTS.scope)
      .register(SETTING_META, {
        argument: 'SCOPE',
        description: 'same origin as a seed, same `host` (any scheme or port), `domain` (and subdomains), or path `prefix`',
      }),
    include: patterns
      .default(() => [])
      .register(SETTING_META, {
        argument: 'REGEX',
        defaultText: 'none',
        description: 'follow only URLs (their keys) that one such pattern matches; repeatable',
      }),
    exclude: patterns
      .default(() => [])
      .register(SETTING_META, { argument: 'REGEX', defaultText: 'none', description: 'record, never follow, URLs a pattern matches; repeatable' }),
    // `null` is no limit: JSON has no Infinity.
    maxDepth: integerAtLeast(0)
      .nullable()
      .default(null)
      .register(SETTING_META, {
        argument: 'N',
        defaultText: 'no limit',
        description: 'follow links up to depth N (seeds are 0); deeper ones are recorded',
      }),
    maxPages: integerAtLeast(0)
      .nullable()
      .default(null)
      .register(SETTING_META, {
        argument: 'N',
        defaultText: 'no limit',
        description: 'stop after requesting N URLs; the rest stays queued for the next run',
      }),
    concurrency: integerAtLeast(1)
      .default(CRAWL_DEFAULTS.concurrency)
      .register(SETTING_META, { argument: 'N', description: 'requests in flight at once' }),
    perHost: integerAtLeast(1)
      .default(CRAWL_DEFAULTS.perHostConcurrency)
      .register(SETTING_META, { argument: 'N', description: 'requests in flight at once to one host' }),
    delay: integerAtLeast(0)
      .default(CRAWL_DEFAULTS.perHostDelayMs)
      .register(SETTING_META, {
        argument: 'MS',
        description: 'least time between two requests to one host (a larger robots.txt `Crawl-delay` wins)',
      }),
    retries: integerAtLeast(0)
      .default(CRAWL_DEFAULTS.retries)
      .register(SETTING_META, {
        argument: 'N',
        description: 'times a transient failure (5xx, 429, network error, timeout) is tried again, with backoff',
      }),
    // The fetcher's own check (fetch/option-checks.ts), so that a file's bad value names the file.
    userAgent: z
      .string({ error: 'Expected a non-empty string without CR, LF or NUL' })
      .regex(/^[^\r\n\0]+$/, { error: 'Expected a non-empty string without CR, LF or NUL' })
      .default(FETCHER_DEFAULTS.userAgent)
      .register(SETTING_META, {
        argument: 'STRING',
        description: 'the `User-Agent` of every request, and the robots.txt product token',
      }),
    allowPrivate: isOn
      .default(CRAWL_DEFAULTS.allowPrivate)
      .register(SETTING_META, {
        description: 'allow loopback, private and link-local addresses (`127.0.0.1`, `10.x`, `[::1]`, `localhost` …)',
      }),
    json: isOn.default(false).register(SETTING_META, { description: 'one JSON object per event on stdout, then the summary' }),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'Expected an object of settings by name' : undefined) },
);

type ParsedSettings = z.output<typeof crawlSettingsSchema>;

/** The settings of one crawl, every one set: what the config layer hands down (deep-frozen). */
export type CrawlSettings = {
  readonly [K in keyof ParsedSettings]: ParsedSettings[K] extends readonly (infer E)[] ? readonly E[] : ParsedSettings[K];
};

export type SettingKey = keyof CrawlSettings;
