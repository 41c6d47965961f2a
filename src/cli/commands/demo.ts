// `linkladder demo`: serve the bundled demo site on 127.0.0.1, crawl it, and check
// the server's request log against what a correct crawl asks for (`npm start`).

import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { EXPECTED_REQUESTS, checkRequestLog, requestKey, startDemoServer, type RequestLogCheck } from '../demo/index.js';
import { EXIT_CODES } from '../exit-codes.js';
import { toJsonLine } from '../json-line.js';
import { runCrawl } from '../run-crawl.js';

/** Where the demo's index goes: beside the default index, not in it. */
export const DEFAULT_DEMO_DB_PATH = path.join('data', 'demo.db');

const LABEL_WIDTH = 12;

const HELP = `
The demo site holds the hard cases of link resolution and deduplication: the
same page spelled eight ways, negotiated Content-Location, <base> in odd places,
redirect chains and loops, browser-style hrefs, robots.txt. It is crawled with
the default settings (scope origin, base mode rfc3986), loopback allowed, and
every request the server received is checked: each expected resource exactly
once (a 5xx may be retried), nothing forbidden, nothing unexpected.

Output: the crawl's summary (as \`crawl\` prints it), then the check, one line
when it passes. --json: the crawl's events and summary, then
{"type":"request-log","requests","missing","repeated","forbidden","unexpected","isCorrect"}.
Exit code 0 when the check passes, 1 when it does not, 130 on Ctrl-C.`;

interface DemoCommandOptions {
  readonly db: string;
  readonly json?: boolean;
  readonly keep?: boolean;
}

export function addDemoCommand(program: Command, context: CliContext): void {
  program
    .command('demo')
    .summary('crawl the bundled demo site and check every request (npm start)')
    .description('Serve the demo site on 127.0.0.1, crawl it into a fresh index, and check the requests it received.')
    .option('--db <path>', 'the demo index database (deleted first, unless --keep)', DEFAULT_DEMO_DB_PATH)
    .option('--keep', 'keep the database of earlier runs instead of starting afresh')
    .option('--json', 'one JSON object per event, then the summary and the check')
    .addHelpText('after', HELP)
    .action(async (options: DemoCommandOptions) => {
      if (options.keep !== true) removeDatabase(options.db);
      const server = await startDemoServer();
      try {
        const isJson = options.json === true;
        if (!isJson) await context.out.writeLine(`${'demo site'.padEnd(LABEL_WIDTH)}${server.origin}/ (${server.site.resources.size} resources), index ${options.db}`);
        const run = await runCrawl(
          {
            seeds: [`${server.origin}/`],
            dbPath: options.db,
            userAgent: undefined,
            isJson,
            tuning: { allowPrivate: true, scope: 'origin' },
          },
          context,
        );
        context.exitCode = run.exitCode;
        if (run.summary === undefined || run.exitCode !== EXIT_CODES.OK) return;
        const requests = [...server.requests];
        const check = checkRequestLog(requests);
        if (isJson) await context.out.writeLine(toJsonLine({ type: 'request-log', requests: requests.length, ...check }));
        else for (const line of formatCheck(requests, check)) await context.out.writeLine(line);
        if (!check.isCorrect) context.exitCode = EXIT_CODES.INVALID;
        else if (!isJson) for (const line of nextSteps(options.db)) await context.out.writeLine(line);
      } finally {
        await server.close();
      }
    });
}

/** What to look at next: the reports on the crawl just made. */
function nextSteps(db: string): string[] {
  const report = path.join(path.dirname(db), 'demo-report.html');
  return [
    `${'next'.padEnd(LABEL_WIDTH)}npx linkladder audit --db ${db}`,
    `${''.padEnd(LABEL_WIDTH)}npx linkladder stats --db ${db}`,
    `${''.padEnd(LABEL_WIDTH)}npx linkladder report --db ${db} --html ${report}`,
    `${''.padEnd(LABEL_WIDTH)}npx linkladder explain --db ${db} <URL of the demo site>`,
  ];
}

/** The database and the WAL files SQLite keeps beside it. */
function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

function formatCheck(requests: readonly string[], check: RequestLogCheck): string[] {
  if (check.isCorrect) return [`requests: ${requests.length}, each resource exactly once ✓${retried(requests)}`];
  const lines = [`requests: ${requests.length}, not those of a correct crawl ✗`];
  const item = (label: string, entries: readonly string[]): void => {
    if (entries.length > 0) lines.push(`  ${label.padEnd(LABEL_WIDTH - 2)}${entries.join(', ')}`);
  };
  item('missing', check.missing);
  item('repeated', check.repeated.map(({ target, count }) => `${target} (${count}×)`));
  item('forbidden', check.forbidden);
  item('unexpected', check.unexpected);
  return lines;
}

/** The 5xx the crawl may ask again, when it did: the count above includes them. */
function retried(requests: readonly string[]): string {
  const retryable = new Set(EXPECTED_REQUESTS.filter((request) => request.isRetryable === true).map((request) => request.target));
  const counts = new Map<string, number>();
  for (const entry of requests) {
    const key = requestKey(entry.slice(entry.indexOf(' ') + 1));
    if (retryable.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const notes = [...counts].filter(([, n]) => n > 1).map(([target, n]) => `${target} ${n}× (a 5xx, retried)`);
  return notes.length === 0 ? '' : ` — ${notes.join(', ')}`;
}
