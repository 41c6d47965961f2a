import type { Readable, Writable } from 'node:stream';
import type { ExitCode } from './exit-codes.js';
import type { LineWriter } from './line-writer.js';

/** The signals that stop a crawl cleanly: Ctrl-C, and the one service managers send. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/**
 * Subscribe `listener` to the next SIGINT or SIGTERM and return the unsubscribe
 * function. It fires at most once: a second signal gets the default behaviour (the
 * process ends at once; its claims are requeued when the index is next opened).
 */
export type InterruptSource = (listener: (signal: InterruptSignal) => void) => () => void;

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
   * Where Ctrl-C (or SIGTERM) comes from, for the commands that stop cleanly on it (`crawl`, `demo`).
   * @default the process's SIGINT and SIGTERM
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

/** The process's SIGINT and SIGTERM, the first of them listened to once. */
export const processInterrupts: InterruptSource = (listener) => {
  const onSignal = (signal: InterruptSignal): void => {
    unsubscribe();
    listener(signal);
  };
  const unsubscribe = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return unsubscribe;
};
