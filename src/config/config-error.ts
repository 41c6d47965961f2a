// The one error the config layer throws.

import { LinkladderError } from '../errors.js';

/**
 * The settings cannot be taken as given: a config file that cannot be read or is
 * invalid, or a LINKLADDER_* variable that names no setting or holds a bad value.
 * The message names the file (or the variables) and every issue, on one line.
 */
export class ConfigError extends LinkladderError {
  declare readonly code: 'ERR_CONFIG_INVALID';
  /** The config file as named (`--config` or `linkladder.config.json`), or `environment`. */
  readonly source: string;
  /** What is wrong, one entry per issue: ``maxDepth: Expected an integer >= 0, got `-1` (number)``. */
  readonly issues: readonly string[];

  constructor(message: string, options: { source: string; issues: readonly string[]; cause?: unknown }) {
    super('ERR_CONFIG_INVALID', message, { cause: options.cause });
    this.source = options.source;
    this.issues = Object.freeze([...options.issues]);
    this.name = 'ConfigError';
  }
}
