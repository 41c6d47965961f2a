// A command's settings from its four sources, in the one order every command uses:
// defaults < config file < LINKLADDER_* variables < the flags given. A bad source
// throws ERR_CONFIG_INVALID (exit 2); warnings (an unknown LINKLADDER_* variable) go to stderr.

import { loadCrawlSettings, type CrawlSettings } from '../config/index.js';
import type { CliContext } from './cli-context.js';

export function commandSettings(context: CliContext, configPath: string | undefined, flags: Partial<CrawlSettings>): Promise<CrawlSettings> {
  return loadCrawlSettings({
    configPath,
    cwd: context.cwd,
    env: context.env,
    flags,
    onWarning: (message) => void context.err.writeLine(`linkladder: warning: ${message}`),
  });
}
