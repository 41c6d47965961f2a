// The commander options of the settings, generated from the schema: flag, help
// text, the default shown in --help, and a parser that checks each value with the
// setting's schema (a bad value is one usage line, exit 2).

import { InvalidArgumentError, Option, type Command } from 'commander';
import type { z } from 'zod';
import { RENAMED_CRAWL_OPTIONS } from '../crawl/index.js';
import { DEFAULT_CONFIG_PATH } from './load-config.js';
import type { CrawlSettings } from './schema.js';
import { SETTINGS, fromText, plainText, type Setting } from './settings.js';

/** `--config FILE`: not a setting (a file cannot name another), but listed with them. */
export const CONFIG_OPTION = Object.freeze({
  flag: '--config',
  argument: 'FILE',
  defaultText: `\`${DEFAULT_CONFIG_PATH}\` if it exists`,
  description: 'a JSON file of settings by the keys of this table; a missing `--config` file is an error',
});

/**
 * The options of every setting, in the schema's order, and `--config`. A switch
 * also gets its `--no-…` form, to turn off what a file or variable turned on.
 */
export function settingOptions(): Option[] {
  // No commander default: an absent --config is how the default file is told from a named one.
  const config = new Option(
    `${CONFIG_OPTION.flag} <${CONFIG_OPTION.argument.toLowerCase()}>`,
    `a JSON file of settings (see below); a missing one is an error (default: ${DEFAULT_CONFIG_PATH}, if it exists)`,
  );
  return [config, ...SETTINGS.flatMap(optionsOf), ...formerOptions()];
}

/**
 * The flags of names that are not settings but were (`--per-host`, `--delay`) or are
 * elsewhere (`--depth`): hidden, each refuses its value and names the flag to use.
 */
function formerOptions(): Option[] {
  const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  return Object.entries(RENAMED_CRAWL_OPTIONS).flatMap(([former, key]) => {
    const setting = SETTINGS.find((candidate) => candidate.key === key);
    if (setting === undefined) return [];
    const message = `${flagOf(former)} is not an option; use ${setting.flag}.`;
    return [
      new Option(`${flagOf(former)} <value>`).hideHelp().argParser(() => {
        throw new InvalidArgumentError(message);
      }),
    ];
  });
}

function optionsOf(setting: Setting): Option[] {
  const description = plainText(setting.meta.description);
  const defaultText = setting.meta.defaultText === undefined ? undefined : plainText(setting.meta.defaultText);
  if (setting.kind === 'switch') {
    return [
      new Option(setting.flag, description),
      new Option(`--no-${setting.flag.slice(2)}`, `turn ${setting.flag} off, whatever a config file or ${setting.env} says`),
    ];
  }
  const option = new Option(`${setting.flag} <${setting.meta.argument?.toLowerCase() ?? 'value'}>`, description).default(
    setting.defaultValue,
    defaultText,
  );
  if (setting.kind === 'choice') return [option.choices(setting.choices)];
  const parsed = option.argParser(setting.kind === 'list' ? appendTo(setting) : parserOf(setting));
  if (setting.meta.negation === undefined) return [parsed];
  // givenSettings turns the `false` commander sets into the setting's value for it.
  return [parsed, new Option(`--no-${setting.flag.slice(2)}`, `as ${setting.flag} ${setting.meta.negation}, whatever a config file or ${setting.env} says`)];
}

function parserOf(setting: Setting): (text: string) => unknown {
  return (text) => checked(setting.schema, fromText(setting, text));
}

/** A repeatable option: each use adds one item to what the command line gave so far (not to the default or a file's list). */
function appendTo(setting: Setting): (text: string, previous: unknown) => unknown {
  return (text, previous) => {
    const given = Array.isArray(previous) && previous !== setting.defaultValue ? (previous as unknown[]) : [];
    return [...given, ...(checked(setting.schema, fromText(setting, text)) as unknown[])];
  };
}

function checked(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? 'Invalid value';
  throw new InvalidArgumentError(message.endsWith('.') ? message : `${message}.`);
}

/** The settings the command line gave: options at their defaults are left out, for the lower sources to fill. */
export function givenSettings(command: Command): Partial<CrawlSettings> {
  const values = command.opts();
  const given: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    if (command.getOptionValueSource(setting.key) !== 'cli') continue;
    const value = values[setting.key];
    given[setting.key] = value === false && setting.meta.negation !== undefined ? setting.meta.negation : value;
  }
  return given as Partial<CrawlSettings>;
}
