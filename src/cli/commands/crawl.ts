// `linkladder crawl <seed...>`: crawl into the index database, resuming what it holds.

import { Option, type Command } from 'commander';
import { BASE_MODES, type BaseMode } from '../../base/index.js';
import { CRAWL_DEFAULTS, SCOPES, type Scope } from '../../crawl/index.js';
import { FETCHER_DEFAULTS } from '../../fetch/index.js';
import { DEFAULT_DB_PATH } from '../../store/index.js';
import type { CliContext } from '../cli-context.js';
import { collectPattern, integerAtLeast } from '../option-parsers.js';
import { runCrawl, type CrawlTuning } from '../run-crawl.js';

const HELP = `
On a database that holds a crawl, it resumes: seeds already known are not
fetched again, and the frontier goes on where it stopped (a crawl that was
killed included: what it had claimed but not recorded is fetched again).

Output:
  plain   a progress line on stderr when it is a terminal, then the summary
          on stdout: pages fetched and failed, representations reused, links,
          duplicates avoided by rung, aliases learned, errors by code, …
  --json  one JSON object per crawl event on stdout ({"type":"page"|"error"|
          "evidence"|"progress",…}; absent fields are null), then the summary
          as {"type":"summary",…}
Ctrl-C stops it cleanly: URLs claimed but not fetched go back to the queue,
the summary is printed, exit code 130. Page errors (404, timeouts, robots.txt)
are recorded in the index and do not change the exit code.`;

interface CrawlCommandOptions {
  readonly db: string;
  readonly baseMode: BaseMode;
  readonly scope: Scope;
  readonly include: readonly RegExp[];
  readonly exclude: readonly RegExp[];
  readonly maxDepth?: number;
  readonly maxPages?: number;
  readonly concurrency: number;
  readonly perHost: number;
  readonly delay: number;
  readonly retries: number;
  readonly userAgent?: string;
  readonly allowPrivate?: boolean;
  readonly json?: boolean;
}

export function addCrawlCommand(program: Command, context: CliContext): void {
  program
    .command('crawl')
    .summary('crawl from seed URLs into the index (resumes)')
    .description('Crawl from the seeds, fetching every resource once however its links are written, into the index database.')
    .argument('<seed...>', 'absolute http(s) URLs to start from (depth 0)')
    .option('--db <path>', 'the index database (created if needed)', DEFAULT_DB_PATH)
    .addOption(
      new Option('--base-mode <mode>', 'base URI chain: rfc3986 uses Content-Location, browser does not')
        .choices(BASE_MODES)
        .default(CRAWL_DEFAULTS.baseMode),
    )
    .addOption(
      new Option('--scope <scope>', 'how far from the seeds: same origin, host, domain (and subdomains), or path prefix')
        .choices(SCOPES)
        .default(CRAWL_DEFAULTS.scope),
    )
    .addOption(
      new Option('--include <regex>', 'follow only URLs (keys) that one such pattern matches; repeatable')
        .argParser(collectPattern)
        .default([], 'none'),
    )
    .addOption(
      new Option('--exclude <regex>', 'record, never follow, URLs (keys) this matches; repeatable').argParser(collectPattern).default([], 'none'),
    )
    .option('--max-depth <n>', 'follow links up to this depth (seeds are 0) (default: no limit)', integerAtLeast(0))
    .option('--max-pages <n>', 'stop after requesting this many URLs (default: no limit)', integerAtLeast(0))
    .option('--concurrency <n>', 'requests in flight at once', integerAtLeast(1), CRAWL_DEFAULTS.concurrency)
    .option('--per-host <n>', 'requests in flight at once to one host', integerAtLeast(1), CRAWL_DEFAULTS.perHostConcurrency)
    .option('--delay <ms>', "least time between two requests to one host (robots.txt's Crawl-delay wins if larger)", integerAtLeast(0), CRAWL_DEFAULTS.perHostDelayMs)
    .option(
      '--retries <n>',
      'how many times a transient failure (5xx, 429, a network error, a timeout) is tried again, with backoff',
      integerAtLeast(0),
      CRAWL_DEFAULTS.retries,
    )
    .option('--user-agent <string>', `User-Agent of every request, and the robots.txt token (default: "${FETCHER_DEFAULTS.userAgent}")`)
    .option('--allow-private', 'allow loopback, private and link-local addresses (seeds and links)')
    .option('--json', 'one JSON object per event, then the summary')
    .addHelpText('after', HELP)
    .action(async (seeds: string[], options: CrawlCommandOptions) => {
      const run = await runCrawl(
        {
          seeds,
          dbPath: options.db,
          userAgent: options.userAgent,
          isJson: options.json === true,
          tuning: tuningOf(options),
        },
        context,
      );
      context.exitCode = run.exitCode;
    });
}

function tuningOf(options: CrawlCommandOptions): CrawlTuning {
  return {
    baseMode: options.baseMode,
    scope: options.scope,
    include: options.include,
    exclude: options.exclude,
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
    concurrency: options.concurrency,
    perHostConcurrency: options.perHost,
    perHostDelayMs: options.delay,
    retries: options.retries,
    allowPrivate: options.allowPrivate === true,
  };
}
