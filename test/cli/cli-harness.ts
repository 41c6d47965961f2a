// Runs the CLI in-process against in-memory streams.

import { Readable, Writable } from 'node:stream';
import { runCli, type InterruptSignal, type InterruptSource } from '../../src/cli/index.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout split into lines, without the empty string after the final newline. */
  readonly out: string[];
  readonly err: string[];
}

export interface RunOptions {
  /** stdin, as one string or as the chunks the stream delivers. */
  readonly stdin?: string | readonly string[];
  /** Replace the stdout sink (e.g. a slow one). */
  readonly stdout?: Writable;
  /** Replace the stderr sink (e.g. one that says it is a terminal). */
  readonly stderr?: Writable;
  /** Where Ctrl-C comes from; by default none ever comes (the test process's SIGINT is left alone). */
  readonly onInterrupt?: InterruptSource;
  /** The environment; by default an empty one (the test process's LINKLADDER_* variables are left out). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The working directory (where linkladder.config.json is looked for); by default the test process's. */
  readonly cwd?: string;
}

/** An interrupt source for tests: `interrupt()` is Ctrl-C (or SIGTERM). */
export class FakeInterrupts {
  readonly #listeners = new Set<(signal: InterruptSignal) => void>();

  readonly source: InterruptSource = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** How many commands are listening. */
  get listeners(): number {
    return this.#listeners.size;
  }

  interrupt(signal: InterruptSignal = 'SIGINT'): void {
    const listeners = [...this.#listeners];
    this.#listeners.clear(); // once, as the process's SIGINT and SIGTERM listener
    for (const listener of listeners) listener(signal);
  }
}

export class Sink extends Writable {
  readonly chunks: string[] = [];

  constructor(options?: { highWaterMark?: number; isSlow?: boolean }) {
    super({
      highWaterMark: options?.highWaterMark ?? 16_384,
      write: (chunk: Buffer, _encoding, callback) => {
        this.chunks.push(chunk.toString('utf8'));
        if (options?.isSlow === true) setImmediate(callback);
        else callback();
      },
    });
  }

  get text(): string {
    return this.chunks.join('');
  }
}

export function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

export async function run(argv: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const chunks = typeof options.stdin === 'string' ? [options.stdin] : (options.stdin ?? []);
  const stdout = options.stdout ?? new Sink();
  const stderr = options.stderr ?? new Sink();
  const onInterrupt = options.onInterrupt ?? new FakeInterrupts().source;
  const code = await runCli(argv, {
    stdin: Readable.from(chunks),
    stdout,
    stderr,
    onInterrupt,
    env: options.env ?? {},
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const stdoutText = stdout instanceof Sink ? stdout.text : '';
  const stderrText = stderr instanceof Sink ? stderr.text : '';
  return { code, stdout: stdoutText, stderr: stderrText, out: lines(stdoutText), err: lines(stderrText) };
}

/** Each stdout line as JSON. */
export function jsonLines(result: CliRun): unknown[] {
  return result.out.map((line) => JSON.parse(line) as unknown);
}
