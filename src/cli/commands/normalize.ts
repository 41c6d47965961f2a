// `linkladder normalize [--rung r] [uri...]`: RFC 3986 §6.2 normal forms.

import { Option, type Command } from 'commander';
import { tryNormalize, type Rung } from '../../index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { errorToJson, formatErrorLine } from '../format-error.js';
import type { LineHandler } from '../line-report.js';
import { inputsOf, runLines } from '../run-lines.js';

/** The protocol rung is left out: it needs an alias map, which only a crawl builds. */
const CLI_RUNGS = ['string', 'syntax', 'scheme'] as const satisfies readonly Rung[];

type CliRung = (typeof CLI_RUNGS)[number];

const DEFAULT_CLI_RUNG: CliRung = 'scheme';

const HELP = `
Rungs: string (as given), syntax (case, percent-encoding, dot-segments),
scheme (plus the scheme's rules: default port, empty path, …).
Output, one line per input, in input order:
  plain   the normalized URI-reference
  --json  {"input","rung","ok":true,"uri"}
          or {"input","rung","ok":false,"error":{"code","index","message"}}
An invalid input writes an error line on stderr and an empty line on stdout
(so in plain mode an empty line is also what the empty reference normalizes to).`;

interface NormalizeCommandOptions extends OutputOptions {
  readonly rung: CliRung;
  }

export function addNormalizeCommand(program: Command, context: CliContext): void {
  program
    .command('normalize')
    .summary('normalize URI-references up the §6.2 ladder')
    .description('Normalize each URI-reference to a rung of the comparison ladder (RFC 3986 §6.2).')
    .argument('[uri...]', 'URI-references (none: read one per line from stdin)')
    .addOption(new Option('--rung <rung>', 'how far up the ladder to go').choices(CLI_RUNGS).default(DEFAULT_CLI_RUNG))
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (uris: string[], options: NormalizeCommandOptions) => {
      const handler = normalizeHandler(options.rung, isJsonOutput(options));
      context.exitCode = await withOutput(options, context, (out) => runLines(inputsOf(uris, context), handler, context, out), false);
    });
}

function normalizeHandler(rung: CliRung, isJson: boolean): LineHandler {
  const normalizeOptions = { rung } as const;
  return (input) => {
    const result = tryNormalize(input, normalizeOptions);
    if (isJson) {
      const json = result.ok
        ? { input, rung, ok: true, uri: result.value }
        : { input, rung, ok: false, error: errorToJson(result.error) };
      return { isOk: result.ok, stdout: JSON.stringify(json) };
    }
    if (result.ok) return { isOk: true, stdout: result.value };
    return { isOk: false, stdout: '', stderr: formatErrorLine(input, result.error) };
  };
}
