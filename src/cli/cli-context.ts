import type { Readable, Writable } from 'node:stream';
import type { ExitCode } from './exit-codes.js';
import type { LineWriter } from './line-writer.js';

/** The streams the CLI talks to: the process's own in `main.ts`, in-memory ones in tests. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/** What a command's action gets. */
export interface CliContext {
  readonly io: CliIo;
  readonly out: LineWriter;
  readonly err: LineWriter;
  /** Set by the action that ran: commander discards what an action returns. */
  exitCode: ExitCode;
}
