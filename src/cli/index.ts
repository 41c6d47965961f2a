// The cli layer's entry point; main.ts is the executable.

export { runCli } from './run-cli.js';
export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export type { CliIo, InterruptSignal, InterruptSource } from './cli-context.js';
