// `linkladder compare <a> <b>`: the lowest RFC 3986 §6.2 rung at which two URIs meet.

import type { Command } from 'commander';
import { tryCompare } from '../../index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { EXIT_CODES } from '../exit-codes.js';
import { errorToJson, formatErrorLine } from '../format-error.js';
import type { LineReport } from '../line-report.js';

const HELP = `
Output, one line:
  plain   "equivalent at rung <string|syntax|scheme>" or "different"
  --json  {"a","b","ok":true,"equivalent","rung"} (rung null when different)
          or {"a","b","ok":false,"error":{"code","index","message","subject"}}
          where subject ("a" or "b") says which argument index points into
Exit code 0 when equivalent, 1 when different or an argument is invalid.`;

interface CompareCommandOptions extends OutputOptions {
}

export function addCompareCommand(program: Command, context: CliContext): void {
  program
    .command('compare')
    .summary('the lowest rung at which two URI-references meet')
    .description('Find the lowest rung of the comparison ladder (RFC 3986 §6.2) at which <a> and <b> are equivalent.')
    .argument('<a>', 'a URI-reference')
    .argument('<b>', 'another URI-reference')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (a: string, b: string, options: CompareCommandOptions) => {
      const report = compareReport(a, b, isJsonOutput(options));
      if (report.stderr !== undefined) await context.err.writeLine(report.stderr);
      if (report.stdout !== undefined) await withOutput(options, context, (out) => out.writeLine(report.stdout!), false);
      context.exitCode = report.isOk ? EXIT_CODES.OK : EXIT_CODES.INVALID;
    });
}

function compareReport(a: string, b: string, isJson: boolean): LineReport {
  const result = tryCompare(a, b);
  if (!result.ok) {
    if (isJson) return { isOk: false, stdout: JSON.stringify({ a, b, ok: false, error: errorToJson(result.error) }) };
    return { isOk: false, stderr: formatErrorLine(result.error.subject === 'b' ? b : a, result.error) };
  }
  const { equivalent, rung } = result.value;
  if (isJson) return { isOk: equivalent, stdout: JSON.stringify({ a, b, ok: true, equivalent, rung }) };
  return { isOk: equivalent, stdout: equivalent ? `equivalent at rung ${rung}` : 'different' };
}
