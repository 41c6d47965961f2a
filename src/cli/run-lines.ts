// The batch loop shared by parse, resolve and normalize.

import type { CliContext } from './cli-context.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { readLines } from './io.js';
import type { LineWriter } from './line-writer.js';
import type { LineHandler } from './line-report.js';

/** The positional inputs, or, when there are none, the lines of stdin. */
export function inputsOf(positional: readonly string[], context: CliContext): AsyncIterable<string> | Iterable<string> {
  return positional.length > 0 ? positional : readLines(context.io.stdin);
}

/**
 * Handle each input in order and write its report as soon as it is ready, so
 * output starts before input ends and nothing accumulates.
 */
export async function runLines(
  inputs: AsyncIterable<string> | Iterable<string>,
  handle: LineHandler,
  context: CliContext,
  out: LineWriter = context.out,
): Promise<ExitCode> {
  let isAllOk = true;
  for await (const input of inputs) {
    const report = handle(input);
    if (!report.isOk) isAllOk = false;
    if (report.stderr !== undefined) await context.err.writeLine(report.stderr);
    if (report.stdout !== undefined) await out.writeLine(report.stdout);
  }
  return isAllOk ? EXIT_CODES.OK : EXIT_CODES.INVALID;
}
