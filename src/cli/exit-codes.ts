// The exit codes of `linkladder`, in one place so the help text, docs/cli.md and
// the tests agree. Scripts rely on them: change a value only with a major version.

export const EXIT_CODES = {
  /** Every input was valid (for `compare`: the two are equivalent; for `crawl`: it ran to its end, page errors included, a seed fetched). */
  OK: 0,
  /**
   * Some input was not a valid URI-reference (or the base not absolute), or `compare` found them different,
   * `explain` found the URL nowhere in the index, `demo`'s request log is not that of a correct crawl,
   * or `audit` or `check` found something at or above `--fail-on`.
   */
  INVALID: 1,
  /**
   * Bad command line: unknown command or option, missing argument, bad `--rung`, a bad crawl option, an invalid
   * config file or LINKLADDER_* variable (ERR_CONFIG_INVALID), a `check` target that is no folder,
   * page file, glob or http(s) URL, … Nothing was processed.
   */
  USAGE: 2,
  /**
   * Reading stdin or writing output failed (a closed pipe included), the database could not be opened, migrated or written
   * (missing for a read command, not an index, corrupt, not migrated for a read command, or held by another writer:
   * ERR_STORE_LOCKED), or an internal error.
   */
  FAILURE: 3,
  /**
   * Nothing was crawled: `crawl` or `check` got no usable response from any seed (connection refused,
   * DNS failure, 4xx/5xx, robots.txt, out of scope), `check` found no page in its folders, or
   * `audit`, `stats` or `report` was given an index that holds no crawl. One stderr line says why.
   */
  NO_CRAWL: 4,
  /** Ctrl-C (SIGINT) stopped a crawl: what was claimed but not fetched went back to the queue, the summary was printed. 128 + SIGINT, as shells report it. */
  INTERRUPTED: 130,
  /** SIGTERM stopped a crawl, as Ctrl-C does (claims requeued, summary printed). 128 + SIGTERM. */
  TERMINATED: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The exit-code list as shown at the end of `linkladder --help`. */
export const EXIT_CODES_HELP = `Exit codes:
  ${EXIT_CODES.OK}    every input valid (compare: equivalent; crawl: it ran to its end)
  ${EXIT_CODES.INVALID}    an input invalid (compare: different, or an argument invalid;
       explain: not in the index; demo: the request log is not a correct crawl's;
       audit, check: a finding at or above --fail-on)
  ${EXIT_CODES.USAGE}    usage error, reported on one stderr line; nothing processed (check:
       a target that is no folder, page file, glob or http(s) URL)
  ${EXIT_CODES.FAILURE}    cannot read stdin, write output or open or write the database (not an
       index, corrupt, or another crawl writes it), or internal error
  ${EXIT_CODES.NO_CRAWL}    nothing crawled: crawl or check fetched no seed (refused, unreachable,
       4xx/5xx, robots.txt); check: no page in its folders; audit, stats,
       report: the index holds no crawl
  ${EXIT_CODES.INTERRUPTED}  a crawl stopped by Ctrl-C (it resumes from the database)
  ${EXIT_CODES.TERMINATED}  a crawl stopped by SIGTERM (likewise)`;
