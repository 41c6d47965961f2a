// The commander program: commands, options and help text. Parsing and exit codes live in run-cli.ts.

import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { addAuditCommand } from './commands/audit.js';
import { addCheckCommand } from './commands/check.js';
import { addCompareCommand } from './commands/compare.js';
import { addCrawlCommand } from './commands/crawl.js';
import { addDbCommand } from './commands/db.js';
import { addDemoCommand } from './commands/demo.js';
import { addExplainCommand } from './commands/explain.js';
import { addGraphCommand } from './commands/graph.js';
import { addHelpCommand } from './commands/help.js';
import { addNormalizeCommand } from './commands/normalize.js';
import { addParseCommand } from './commands/parse.js';
import { addReportCommand } from './commands/report.js';
import { addResolveCommand } from './commands/resolve.js';
import { addStatsCommand } from './commands/stats.js';
import { addWaczCommand } from './commands/wacz.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

const HELP = `
parse, resolve and normalize take their inputs as arguments or, given none,
read one per line from stdin (CRLF or LF; an empty line is the empty reference).
Each input gets exactly one line of output, in input order; plain-mode errors
go to stderr as: error: "<input>": <CODE> at index <N>: <message>
Put "--" before an input that starts with "-".

${EXIT_CODES_HELP}`;

export function createProgram(context: CliContext, version: string): Command {
  const program = new Command('linkladder')
    .description(
      'RFC 3986 URI-references: parse, resolve, normalize and compare them; crawl into the index database; explain, audit and report on it.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    // Set before adding commands: subcommands inherit both. Errors surface as
    // CommanderError, which run-cli.ts turns into one stderr line and exit 2.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: () => {},
      outputError: () => {},
    })
    .addHelpText('after', HELP);
  addParseCommand(program, context);
  addResolveCommand(program, context);
  addNormalizeCommand(program, context);
  addCompareCommand(program, context);
  addCrawlCommand(program, context);
  addCheckCommand(program, context);
  addExplainCommand(program, context);
  addAuditCommand(program, context);
  addGraphCommand(program, context);
  addStatsCommand(program, context);
  addReportCommand(program, context);
  addDemoCommand(program, context);
  addDbCommand(program, context);
  addWaczCommand(program, context);
  addHelpCommand(program);
  return program;
}
