import type { Readable, Writable } from 'node:stream';
import type { ExitCode } from './exit-codes.js';
import type { LineWriter } from './line-writer.js';

/**
 * Subscribe `listener` to the next Ctrl-C and return the unsubscribe function. It
 * fires at most once: a second Ctrl-C gets the default behaviour (the process ends).
 */
export type InterruptSource = (listener: () => void) => () => void;

/** The streams the CLI talks to: the process's own in `main.ts`, in-memory ones in tests. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /**
   * The environment: `crawl` reads its LINKLADDER_* settings from it.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The working directory: `linkladder.config.json` and a relative `--config` are found from it.
   * @default process.cwd()
   */
  readonly cwd?: string;
  /**
   * Where Ctrl-C comes from, for the commands that stop cleanly on it (`crawl`, `demo`).
   * @default the process's SIGINT
   */
  readonly onInterrupt?: InterruptSource;
}

/** What a command's action gets. */
export interface CliContext {
  readonly io: CliIo;
  readonly out: LineWriter;
  readonly err: LineWriter;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Set by the action that ran: commander discards what an action returns. */
  exitCode: ExitCode;
}

/** The process's SIGINT, listened to once. */
export const processInterrupts: InterruptSource = (listener) => {
  process.once('SIGINT', listener);
  return () => {
    process.off('SIGINT', listener);
  };
};
