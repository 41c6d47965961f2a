// The exit codes of `linkladder`, in one place so the help text, the README and
// the tests agree. Scripts rely on them: change a value only with a major version.

export const EXIT_CODES = {
  /** Every input was valid (for `compare`: the two are equivalent). */
  OK: 0,
  /** Some input was not a valid URI-reference (or the base not absolute), or `compare` found them different. */
  INVALID: 1,
  /** Bad command line: unknown command or option, missing argument, bad `--rung`, … Nothing was processed. */
  USAGE: 2,
  /** Reading stdin or writing output failed (a closed pipe included), the database could not be opened or migrated, or an internal error. */
  FAILURE: 3,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The exit-code list as shown at the end of `linkladder --help`. */
export const EXIT_CODES_HELP = `Exit codes:
  ${EXIT_CODES.OK}  every input valid (compare: equivalent)
  ${EXIT_CODES.INVALID}  an input invalid (compare: different, or an argument invalid)
  ${EXIT_CODES.USAGE}  usage error, reported on one stderr line; nothing processed
  ${EXIT_CODES.FAILURE}  cannot read stdin, write output or open the database, or internal error`;
