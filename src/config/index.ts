// The config layer: the settings of `linkladder crawl` as one zod schema, loaded from
// defaults < config file < LINKLADDER_* variables < flags, deep-frozen, and the
// commander options and the docs/options.md table generated from the same schema.

export { crawlSettingsSchema, dbSetting, userAgentSetting, type CrawlSettings, type SettingKey } from './schema.js';
export { SETTINGS, CRAWL_SETTINGS_DEFAULTS, ENV_PREFIX, fromText, plainText, type Setting, type SettingKind } from './settings.js';
export { loadCrawlSettings, DEFAULT_CONFIG_PATH, type ConfigSources } from './load-config.js';
export { settingOptions, givenSettings, CONFIG_OPTION } from './command-options.js';
export { renderOptionsTable, withOptionsTable, OPTIONS_TABLE_START, OPTIONS_TABLE_END } from './options-table.js';
export { ConfigError } from './config-error.js';
export { deepFreeze } from './deep-freeze.js';
