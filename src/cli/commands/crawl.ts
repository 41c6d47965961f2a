// `linkladder crawl <seed...>`: crawl into the index database, resuming what it holds.

import type { Command } from 'commander';
import { givenSettings, settingOptions } from '../../config/index.js';
import { commandSettings } from '../command-settings.js';
import { DEFAULT_DB_PATH } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { EXIT_CODES } from '../exit-codes.js';
import { cliCredentials } from '../request-credentials.js';
import { runCrawl } from '../run-crawl.js';

const HELP = `
On a database that holds a crawl, it resumes: seeds already known are not
fetched again, and the frontier goes on where it stopped (a crawl that was
killed included: what it had claimed but not recorded is fetched again).

Output:
  plain   a progress line on stderr when it is a terminal, then the summary
          on stdout: URLs answered and failed, representations reused, links,
          duplicates avoided by rung, aliases learned, errors by code, …
  --json  one JSON object per crawl event on stdout ({"type":"page"|"error"|
          "evidence"|"progress",…}; absent fields are null), then the summary
          as {"type":"summary",…}
Ctrl-C stops it cleanly: URLs claimed but not fetched go back to the queue,
the summary is printed, exit code 130. Page errors (404, timeouts, robots.txt)
are recorded in the index and do not change the exit code.

Settings: each option above is also a key of a JSON config file (--config
FILE, else linkladder.config.json when it exists), a LINKLADDER_* variable and
an option of the library's crawl() (--per-host-concurrency N is
"perHostConcurrency": N and LINKLADDER_PER_HOST_CONCURRENCY=N). Lowest first: the
defaults, the file, the variables, the flags. An unknown key or a bad value is
a usage error (ERR_CONFIG_INVALID, exit 2); an unknown LINKLADDER_* variable is
a warning.`;

export function addCrawlCommand(program: Command, context: CliContext): void {
  const command = program
    .command('crawl')
    .summary('crawl from seed URLs into the index (resumes)')
    .description('Crawl from the seeds, fetching every resource once however its links are written, into the index database.')
    .argument('<seed...>', 'absolute http(s) URLs to start from (depth 0)');
  // The options come from the settings' schema (src/config/schema.ts), as docs/options.md's table does.
  for (const option of settingOptions()) command.addOption(option);
  command.addHelpText('after', HELP).action(async (seeds: string[], options: { readonly config?: string }) => {
    const given = givenSettings(command);
    const settings = await commandSettings(context, options.config, given);
    // The default index, named by no flag, variable or config file: it keeps to the sites it holds.
    const isDefaultIndex = settings.db === DEFAULT_DB_PATH && given.db === undefined && context.env['LINKLADDER_DB'] === undefined;
    // Before anything reads the seeds: a seed's userinfo is Basic auth, never crawled, stored or printed.
    const credentials = await cliCredentials(settings, seeds, context);
    if (typeof credentials === 'string') {
      await context.err.writeLine(`linkladder: error: ${credentials}`);
      context.exitCode = EXIT_CODES.USAGE;
      return;
    }
    const run = await runCrawl(
      // The settings are crawl()'s options by the same names, checked once, here: runCrawl takes them as they are.
      {
        seeds: credentials.seeds,
        dbPath: settings.db,
        dbConnection: { poolSize: settings.dbPoolSize, transactionPooling: settings.dbTransactionPooling },
        userAgent: settings.userAgent,
        isJson: settings.json,
        tuning: settings,
        isDefaultIndex,
        credentials: credentials.credentials,
      },
      context,
    );
    context.exitCode = run.exitCode;
  });
}
