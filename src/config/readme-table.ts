// README's table of the `linkladder crawl` options, generated from the schema. It
// sits between two marker comments; test/config/readme-table.test.ts fails when
// README differs, and rewrites it with UPDATE_GOLDEN=1.

import { CONFIG_OPTION } from './command-options.js';
import { SETTINGS, type Setting } from './settings.js';

export const README_TABLE_START = '<!-- crawl-options:start (generated from src/config/schema.ts) -->';
export const README_TABLE_END = '<!-- crawl-options:end -->';

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
 * `readme` with the text between the markers replaced by the table. Throws when the
 * markers are missing or out of order.
 */
export function withOptionsTable(readme: string): string {
  const start = readme.indexOf(README_TABLE_START);
  const end = readme.indexOf(README_TABLE_END);
  if (start === -1 || end < start) throw new Error(`README has no ${README_TABLE_START} … ${README_TABLE_END} pair`);
  const before = readme.slice(0, start + README_TABLE_START.length);
  return `${before}\n${renderOptionsTable().join('\n')}\n${readme.slice(end)}`;
}
