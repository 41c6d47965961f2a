// What one input turns into; the batch runner writes it without knowing the command.

export interface LineReport {
  /** Whether this input lets the run exit 0. */
  readonly isOk: boolean;
  /** The line for stdout, if any. */
  readonly stdout?: string;
  /** The line for stderr, if any (plain-mode errors). */
  readonly stderr?: string;
}

export type LineHandler = (input: string) => LineReport;
