// The settings as a list, read off the schema once: each with its flag, variable,
// kind, default and presentation, for the commander options, LINKLADDER_* variables
// and docs/options.md's table.

import * as z from 'zod';
import { deepFreeze } from './deep-freeze.js';
import { SETTING_META, type SettingMeta } from '../crawl/index.js';
import { crawlSettingsSchema, type CrawlSettings, type SettingKey } from './schema.js';

/**
 * How a value is written as text (a flag's argument, a variable): `integer` in
 * decimal digits, `list` one item at a time, `switch` as a flag of its own (and
 * `true`/`false`/`1`/`0` in a variable), `choice` and `string` as they are.
 */
export type SettingKind = 'string' | 'choice' | 'integer' | 'list' | 'switch';

export interface Setting {
  /** The key in a config file, and the name in `CrawlSettings`. */
  readonly key: SettingKey;
  /** `--per-host-concurrency`. */
  readonly flag: string;
  /** `LINKLADDER_PER_HOST_CONCURRENCY`. */
  readonly env: string;
  readonly kind: SettingKind;
  /** A choice's values; empty for the other kinds. */
  readonly choices: readonly string[];
  /** The value's schema, without its default: what a file, a variable or a flag must give. */
  readonly schema: z.ZodType;
  readonly defaultValue: unknown;
  readonly meta: SettingMeta;
}

export const ENV_PREFIX = 'LINKLADDER_';

/** The defaults of every setting, deep-frozen. */
export const CRAWL_SETTINGS_DEFAULTS: CrawlSettings = deepFreeze(crawlSettingsSchema.parse({}));

/** Every setting, in the schema's order. */
export const SETTINGS: readonly Setting[] = freezeEach(
  Object.entries(crawlSettingsSchema.shape).map(([name, field]): Setting => {
    const key = name as SettingKey;
    const meta = SETTING_META.get(field);
    if (meta === undefined) throw new Error(`src/config/schema.ts: the setting \`${key}\` has no SETTING_META`);
    const schema = field.unwrap();
    return {
      key,
      flag: `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
      env: `${ENV_PREFIX}${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`,
      kind: kindOf(key, schema),
      choices: schema instanceof z.ZodEnum ? (schema.options as string[]) : [],
      schema,
      defaultValue: CRAWL_SETTINGS_DEFAULTS[key],
      meta,
    };
  }),
);

function kindOf(key: string, schema: z.ZodType): SettingKind {
  const value = valueSchemaOf(schema);
  if (value instanceof z.ZodBoolean) return 'switch';
  if (value instanceof z.ZodEnum) return 'choice';
  if (value instanceof z.ZodNumber) return 'integer';
  if (value instanceof z.ZodArray) return 'list';
  if (value instanceof z.ZodString) return 'string';
  throw new Error(`src/config/schema.ts: the setting \`${key}\` has a type the config layer cannot write as text`);
}

/** What a value is written as: the input of a transform, the first form of a union (`maxDepth`: an integer, or null). */
function valueSchemaOf(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodPipe) return valueSchemaOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return valueSchemaOf(schema.options[0] as z.ZodType);
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return valueSchemaOf(schema.unwrap() as z.ZodType);
  return schema;
}

function freezeEach(list: Setting[]): readonly Setting[] {
  // Each setting and the list, not the schemas in them: zod keeps caches on those.
  for (const setting of list) Object.freeze(setting);
  return Object.freeze(list);
}

/**
 * A value written as text, as the setting's schema takes it: digits as a number, a
 * list item as a one-item list, a switch's `true`/`false`/`1`/`0` as a boolean.
 * Anything else is left as text, for the schema to refuse with its own message.
 */
export function fromText(setting: Setting, text: string): unknown {
  switch (setting.kind) {
    case 'integer':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'list':
      return [text];
    case 'switch':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : text;
    case 'choice':
    case 'string':
      return text;
  }
}

/** Strip the Markdown of docs/options.md (`code`, **bold**) for --help and messages. */
export function plainText(markdown: string): string {
  return markdown.replace(/\*\*|`/g, '');
}
