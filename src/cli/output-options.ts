// One convention for every command that writes a result: `--format <format>` picks
// it, `--json` is short for `--format json`, and `--out <file>` writes it to a file
// (made beside it and renamed into place, so a failure leaves no half-written file)
// instead of stdout.

import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { redactPasswords } from '../report/index.js';
import type { CliContext } from './cli-context.js';
import { LineWriter } from './line-writer.js';

export interface OutputOptions {
  readonly format?: string;
  readonly json?: boolean;
  readonly out?: string;
}

export interface OutputOptionsSpec<F extends string> {
  readonly formats: readonly F[];
  /** The format without `--format`; `undefined` makes `--format` (or `--json`) mandatory. */
  readonly defaultFormat: F | undefined;
  /**
   * Whether lines written to stdout go through the CLI's password redaction (they do
   * for every command but the URI tools, which print what they are given).
   * @default true
   */
  readonly isRedacted?: boolean;
}

/** Add `--format`, `--json` (when `json` is a format) and `--out` to `command`. */
export function addOutputOptions<F extends string>(command: Command, spec: OutputOptionsSpec<F>): Command {
  command.addOption(formatOption(spec));
  if ((spec.formats as readonly string[]).includes('json')) command.addOption(jsonOption());
  return command.addOption(outOption());
}

/** `--format <format>`, one of the spec's formats. */
export function formatOption<F extends string>(spec: OutputOptionsSpec<F>): Option {
  const format = new Option('--format <format>', 'output format').choices(spec.formats);
  return spec.defaultFormat === undefined ? format : format.default(spec.defaultFormat);
}

/** `--json`: short for `--format json` (refused together with another `--format`). */
export function jsonOption(): Option {
  return new Option('--json', 'short for --format json').conflicts('format');
}

/** `--out <file>`: write to this file instead of stdout. */
export function outOption(): Option {
  return new Option('--out <file>', 'write to this file instead of stdout');
}

/** The format the options ask for: `--json` is `json`. */
export function outputFormat<F extends string>(options: OutputOptions, spec: OutputOptionsSpec<F>): F | undefined {
  if (options.json === true) return 'json' as F;
  return (options.format as F | undefined) ?? spec.defaultFormat;
}

/** Whether the output goes to a terminal (stdout, no `--out`), where colour and progress make sense. */
export function isTerminalOutput(options: OutputOptions, context: CliContext): boolean {
  return options.out === undefined && (context.io.stdout as Writable & { isTTY?: boolean }).isTTY === true;
}

/**
 * Run `write` with the line writer the options name: stdout's, or one on a new file
 * renamed into place once every line is written.
 */
export async function withOutput<T>(
  options: OutputOptions,
  context: CliContext,
  write: (out: LineWriter) => Promise<T>,
  isRedacted = true,
): Promise<T> {
  if (options.out === undefined) return write(context.out);
  return writeOutputFile(options.out, async (stream) => {
    const out = new LineWriter(stream, isRedacted ? redactPasswords : undefined);
    const result = await write(out);
    await out.finish();
    return result;
  });
}

/**
 * Run `write` on a new file beside `file`, then rename it into place: a failure
 * leaves no half-written file (and an older one untouched).
 */
export async function writeOutputFile<T>(file: string, write: (stream: Writable) => Promise<T>): Promise<T> {
  const partial = `${file}.${process.pid}.partial`;
  const stream = createWriteStream(partial);
  try {
    const result = await write(stream);
    stream.end();
    await finished(stream);
    await rename(partial, file);
    return result;
  } catch (error) {
    stream.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

export const TEXT_OR_JSON_FORMATS = ['text', 'json'] as const;
export type TextOrJson = (typeof TEXT_OR_JSON_FORMATS)[number];

/** The output options of a command that writes plain text or JSON. */
export const TEXT_OR_JSON: OutputOptionsSpec<TextOrJson> = { formats: TEXT_OR_JSON_FORMATS, defaultFormat: 'text' };

/** Whether the options ask for JSON (`--format json` or `--json`). */
export function isJsonOutput(options: OutputOptions): boolean {
  return outputFormat(options, TEXT_OR_JSON) === 'json';
}
