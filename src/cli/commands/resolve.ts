// `linkladder resolve --base <uri> [ref...]`: RFC 3986 §5.2 target URIs.

import type { Command } from 'commander';
import { tryResolve, type ResolveOptions, type UriSyntaxError } from '../../index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { errorToJson, formatErrorLine } from '../format-error.js';
import type { LineHandler } from '../line-report.js';
import { inputsOf, runLines } from '../run-lines.js';

const HELP = `
Output, one line per reference, in input order:
  plain   the resolved URI
  --json  {"base","ref","ok":true,"uri"}
          or {"base","ref","ok":false,"error":{"code","index","message","subject"}}
          where subject ("base" or "reference") says which string index points into
An invalid reference writes an error line on stderr and an empty line on stdout.
An invalid or relative base is an input error, reported for every reference
(exit 1), not a usage error.`;

interface ResolveCommandOptions extends OutputOptions {
  readonly base: string;
  readonly nonStrict?: boolean;
  }

export function addResolveCommand(program: Command, context: CliContext): void {
  program
    .command('resolve')
    .summary('resolve references against a base URI')
    .description('Resolve each URI-reference against an absolute base URI (RFC 3986 §5.2).')
    .argument('[ref...]', 'URI-references (none: read one per line from stdin)')
    .requiredOption('--base <uri>', 'the absolute base URI')
    .option('--non-strict', 'read "http:g" against an http base as relative (the RFC 1808 loophole)')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (refs: string[], options: ResolveCommandOptions) => {
      const handler = resolveHandler(options.base, options.nonStrict === true, isJsonOutput(options));
      context.exitCode = await withOutput(options, context, (out) => runLines(inputsOf(refs, context), handler, context, out), false);
    });
}

function resolveHandler(base: string, isNonStrict: boolean, isJson: boolean): LineHandler {
  const resolveOptions: ResolveOptions | undefined = isNonStrict ? { strict: false } : undefined;
  return (ref) => {
    const result = tryResolve(ref, base, resolveOptions);
    if (isJson) {
      const json = result.ok
        ? { base, ref, ok: true, uri: result.value }
        : { base, ref, ok: false, error: errorToJson(result.error) };
      return { isOk: result.ok, stdout: JSON.stringify(json) };
    }
    if (result.ok) return { isOk: true, stdout: result.value };
    return { isOk: false, stdout: '', stderr: formatErrorLine(culprit(result.error, base, ref), result.error) };
  };
}

function culprit(error: UriSyntaxError, base: string, ref: string): string {
  return error.subject === 'base' ? base : ref;
}
