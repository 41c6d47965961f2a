// `linkladder parse [uri...]`: RFC 3986 §4.1 components of each input.

import type { Command } from 'commander';
import { tryParse, type UriReference } from '../../index.js';
import type { CliContext } from '../cli-context.js';
import { formatOption, isJsonOutput, jsonOption, outOption, TEXT_OR_JSON, withOutput, type OutputOptions } from '../output-options.js';
import { errorToJson, formatErrorLine } from '../format-error.js';
import type { LineHandler } from '../line-report.js';
import { inputsOf, runLines } from '../run-lines.js';

const COMPONENTS = ['scheme', 'userinfo', 'host', 'port', 'path', 'query', 'fragment'] as const;

const HELP = `
Output, one line per input, in input order:
  plain   the components present, as tab-separated key=value pairs in the order
          scheme userinfo host port path query fragment. An absent component is
          left out; an empty one is written "key=" (so "query=" means "?" with
          nothing after it). path is always present.
  --json  {"input","ok":true,"components":{"scheme",…,"fragment"}} (null when absent)
          or {"input","ok":false,"error":{"code","index","message"}}
An invalid input writes an error line on stderr and an empty line on stdout.`;

interface ParseCommandOptions extends OutputOptions {
}

export function addParseCommand(program: Command, context: CliContext): void {
  program
    .command('parse')
    .summary('split URI-references into their components')
    .description('Split each URI-reference into its RFC 3986 components.')
    .argument('[uri...]', 'URI-references (none: read one per line from stdin)')
    .addOption(formatOption(TEXT_OR_JSON))
    .addOption(jsonOption())
    .addOption(outOption())
    .addHelpText('after', HELP)
    .action(async (uris: string[], options: ParseCommandOptions) => {
      const handler = parseHandler(isJsonOutput(options));
      context.exitCode = await withOutput(options, context, (out) => runLines(inputsOf(uris, context), handler, context, out), false);
    });
}

function parseHandler(isJson: boolean): LineHandler {
  return (input) => {
    const result = tryParse(input);
    if (isJson) {
      const json = result.ok
        ? { input, ok: true, components: componentsToJson(result.value) }
        : { input, ok: false, error: errorToJson(result.error) };
      return { isOk: result.ok, stdout: JSON.stringify(json) };
    }
    if (result.ok) return { isOk: true, stdout: componentsToPlain(result.value) };
    return { isOk: false, stdout: '', stderr: formatErrorLine(input, result.error) };
  };
}

// A marker such as "(undefined)" would be ambiguous: it is a valid query or fragment.
function componentsToPlain(ref: UriReference): string {
  return COMPONENTS.flatMap((name) => (ref[name] === undefined ? [] : [`${name}=${ref[name]}`])).join('\t');
}

function componentsToJson(ref: UriReference): Record<(typeof COMPONENTS)[number], string | null> {
  return {
    scheme: ref.scheme ?? null,
    userinfo: ref.userinfo ?? null,
    host: ref.host ?? null,
    port: ref.port ?? null,
    path: ref.path,
    query: ref.query ?? null,
    fragment: ref.fragment ?? null,
  };
}
