// The table of the `linkladder crawl` options in docs/options.md, generated from the
// schema. It sits between two marker comments; test/config/options-table.test.ts fails
// when docs/options.md differs, and rewrites it with UPDATE_GOLDEN=1.

import { CONFIG_OPTION } from './command-options.js';
import { SETTINGS, type Setting } from './settings.js';

export const OPTIONS_TABLE_START = '<!-- crawl-options:start (generated from src/config/schema.ts) -->';
export const OPTIONS_TABLE_END = '<!-- crawl-options:end -->';

/** The table, as Markdown lines (no markers). */
export function renderOptionsTable(): string[] {
  return [
    '| option | key | variable | default | what it does |',
    '|---|---|---|---|---|',
    `| \`${CONFIG_OPTION.flag} ${CONFIG_OPTION.argument}\` | — | — | ${CONFIG_OPTION.defaultText} | ${CONFIG_OPTION.description} |`,
    ...SETTINGS.map((setting) => `| \`${flagOf(setting)}\` | \`${setting.key}\` | \`${setting.env}\` | ${defaultOf(setting)} | ${setting.meta.description} |`),
  ];
}

/** `--db PATH`; a choice's values and a switch need no placeholder. */
function flagOf(setting: Setting): string {
  return setting.kind === 'choice' || setting.kind === 'switch' || setting.meta.argument === undefined
    ? setting.flag
    : `${setting.flag} ${setting.meta.argument}`;
}

function defaultOf(setting: Setting): string {
  if (setting.meta.defaultText !== undefined) return setting.meta.defaultText;
  const value = setting.defaultValue;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'string') return `\`${value}\``;
  return String(value);
}

/**
 * `markdown` with the text between the markers replaced by the table. Throws when the
 * markers are missing or out of order.
 */
export function withOptionsTable(markdown: string): string {
  const start = markdown.indexOf(OPTIONS_TABLE_START);
  const end = markdown.indexOf(OPTIONS_TABLE_END);
  if (start === -1 || end < start) throw new Error(`the Markdown has no ${OPTIONS_TABLE_START} … ${OPTIONS_TABLE_END} pair`);
  const before = markdown.slice(0, start + OPTIONS_TABLE_START.length);
  return `${before}\n${renderOptionsTable().join('\n')}\n${markdown.slice(end)}`;
}
