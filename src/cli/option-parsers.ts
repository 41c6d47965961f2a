// Commander argument parsers for numbers and patterns. A bad value throws
// InvalidArgumentError, which commander turns into one usage line (exit 2).

import { InvalidArgumentError } from 'commander';

/** A parser of a non-negative decimal integer, at least `min`. */
export function integerAtLeast(min: number): (value: string) => number {
  return (value) => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`Expected an integer >= ${min}.`);
    }
    return n;
  };
}

/**
 * Collects a repeatable regular-expression option (JavaScript syntax, no flags).
 * Each is compiled once, here: a bad pattern is a usage error before anything runs.
 */
export function collectPattern(value: string, previous: readonly RegExp[] | undefined): readonly RegExp[] {
  let pattern: RegExp;
  try {
    pattern = new RegExp(value);
  } catch (error) {
    // V8 says what is wrong: "Invalid regular expression: /(/: Unterminated group".
    throw new InvalidArgumentError(`${error instanceof Error ? error.message : String(error)}.`);
  }
  return [...(previous ?? []), pattern];
}
