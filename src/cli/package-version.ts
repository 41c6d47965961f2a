// The version printed by `--version` (the crawl layer's, which writes it in its archives too).

export { readPackageVersion } from '../crawl/index.js';
