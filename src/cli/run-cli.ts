// The whole CLI as a function of argv and three streams, so tests run it in-process.

import { CommanderError } from 'commander';
import { redactPasswords } from '../report/index.js';
import type { CliContext, CliIo } from './cli-context.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { LineWriter } from './line-writer.js';
import { readPackageVersion } from './package-version.js';
import { createProgram } from './program.js';

/** The commands whose output is the URI-reference they were given, computed. */
const URI_TOOLS: ReadonlySet<string> = new Set(['parse', 'resolve', 'normalize', 'compare']);

const MISSING_COMMAND = "error: missing command (see 'linkladder --help')";

/**
 * Run `linkladder` with `argv` (the arguments after the program name) and return
 * its exit code. Never throws. When it resolves, the streams have taken all output.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  // The writers go first: they attach the 'error' listeners that keep a broken pipe from crashing the process.
  // Nothing printed shows a password (credentials are never printed) but what the URI tools are asked
  // for: the URI they compute is the output.
  const isUriTool = URI_TOOLS.has(argv.find((arg) => !arg.startsWith('-')) ?? '');
  const context: CliContext = {
    io,
    out: new LineWriter(io.stdout, isUriTool ? undefined : redactPasswords),
    err: new LineWriter(io.stderr, redactPasswords),
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    exitCode: EXIT_CODES.OK,
  };
  const code = await runProgram(argv, context);
  await finishQuietly(context.err);
  return code;
}

async function runProgram(argv: readonly string[], context: CliContext): Promise<ExitCode> {
  try {
    await createProgram(context, readPackageVersion()).parseAsync([...argv], { from: 'user' });
    // Output is batched and may be written asynchronously: a failure of the last lines must still count.
    await context.out.finish();
    return context.exitCode;
  } catch (error) {
    return await reportFailure(error, context);
  }
}

async function reportFailure(error: unknown, context: CliContext): Promise<ExitCode> {
  if (error instanceof CommanderError) {
    // Help and version end parsing by throwing too; they carry exit code 0.
    if (error.exitCode === 0) return EXIT_CODES.OK;
    // 'commander.help' with a non-zero code is commander answering a missing command
    // with the whole help (which writeErr swallowed); one line says it better.
    const message = error.code === 'commander.help' ? MISSING_COMMAND : error.message;
    await writeQuietly(context, `linkladder: ${oneLine(message)}`);
    return EXIT_CODES.USAGE;
  }
  // A config file or LINKLADDER_* variable that cannot be taken is bad usage too: nothing was done.
  if (hasCode(error, 'ERR_CONFIG_INVALID')) {
    await writeQuietly(context, `linkladder: error: ${oneLine(error.message)}`);
    return EXIT_CODES.USAGE;
  }
  // The reader of our output went away (`| head`): nobody is left to tell.
  if (hasCode(error, 'EPIPE')) return EXIT_CODES.FAILURE;
  await writeQuietly(context, `linkladder: error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT_CODES.FAILURE;
}

// Commander puts its "(Did you mean …?)" suggestion on a line of its own.
function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, ' ');
}

function hasCode(error: unknown, code: string): error is Error & { code: string } {
  return error instanceof Error && 'code' in error && error.code === code;
}

// If stderr itself is gone, the exit code still says what happened.
async function writeQuietly(context: CliContext, line: string): Promise<void> {
  try {
    await context.err.writeLine(line);
  } catch {
    // nowhere left to report it
  }
}

async function finishQuietly(writer: LineWriter): Promise<void> {
  try {
    await writer.finish();
  } catch {
    // nowhere left to report it
  }
}
