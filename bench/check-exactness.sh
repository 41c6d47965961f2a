#!/usr/bin/env bash
# How exact `linkladder check` is on a folder: its broken links and missing fragments
# against an independent checker's (bench/support/independent-check.py: Python's
# html.parser and urllib.parse, no code shared with linkladder), keyed by
# (file, line, href). Prints each tool's counts and time, then "both / only linkladder /
# only oracle" and the first differences (bench/support/compare-findings.py).
#
#   npm run build && bash bench/check-exactness.sh /usr/share/doc/python3.11/html
#
# Settings (environment; not LINKLADDER_* but LINKLADDER_BENCH_*, which linkladder leaves alone):
#   ORACLE_ARGS            more arguments for the oracle, e.g. `--reachable-from index.html`
#                          to judge only the pages a crawl from index.html reaches (default none)
#   CHECK_ARGS             more arguments for `linkladder check`                  (default none)
#   LINKLADDER_BENCH_CLI   the CLI bundle to run                (default dist/linkladder.mjs)
#   LINKLADDER_BENCH_JSON  a file holding linkladder's JSON lines already: compared, not run
#   LINKLADDER_BENCH_CWD   the folder that run was made in (its `file` paths) (default .)
#   EXACTNESS_OUT          where the outputs are kept     (default a new folder under /tmp)
#   EXACTNESS_SHOW         differences shown per group                       (default 10)
#
# Only the folder is read; linkladder runs with --no-check-external, so nothing beyond
# the machine is contacted. Exit 0 when both agree, 1 when they differ, 2 on bad usage.

set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: bash bench/check-exactness.sh <dir>" >&2
  exit 2
fi
dir="$(cd "$1" && pwd)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${LINKLADDER_BENCH_CLI:-$repo/dist/linkladder.mjs}"
out="${EXACTNESS_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/linkladder-exactness.XXXXXX")}"
mkdir -p "$out"
read -r -a oracle_args <<<"${ORACLE_ARGS:-}"
read -r -a check_args <<<"${CHECK_ARGS:-}"

# /usr/bin/time when present (CPU and peak memory), else bash's own.
timed() { # name command...
  local name=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "$name: %e s wall, %U s user, %S s system, %M KB peak" -o "$out/$name.time" nice -n 10 "$@"
  else
    local start=$SECONDS
    nice -n 10 "$@"
    echo "$name: $((SECONDS - start)) s wall" >"$out/$name.time"
  fi
}

echo "check-exactness: $dir; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); outputs in $out"

timed oracle python3 "$repo/bench/support/independent-check.py" "$dir" "${oracle_args[@]}" >"$out/oracle.jsonl" 2>"$out/oracle.err"
cat "$out/oracle.err"; tail -n 1 "$out/oracle.time"

ran_in="$out"
if [ -n "${LINKLADDER_BENCH_JSON:-}" ]; then
  ran_in="$(cd "${LINKLADDER_BENCH_CWD:-.}" && pwd)"
  cp "$LINKLADDER_BENCH_JSON" "$out/linkladder.jsonl"
  echo "linkladder: read from $LINKLADDER_BENCH_JSON"
else
  if [ ! -f "$cli" ]; then
    echo "check-exactness: $cli is missing; run npm run build first" >&2
    exit 2
  fi
  status=0
  (cd "$out" && timed linkladder node "$cli" check "$dir" --no-check-external --format json --db "$out/check.db" "${check_args[@]}") \
    >"$out/linkladder.jsonl" 2>"$out/linkladder.err" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "check-exactness: linkladder check exited $status:" >&2
    tail -n 20 "$out/linkladder.err" >&2
    exit 2
  fi
  tail -n 3 "$out/linkladder.err"
  tail -n 1 "$out/linkladder.time"
fi
echo

# linkladder's `file` paths are relative to the folder it ran in.
python3 "$repo/bench/support/compare-findings.py" --root "$dir" --cwd "$ran_in" --show "${EXACTNESS_SHOW:-10}" \
  "oracle=oracle:$out/oracle.jsonl" "linkladder=linkladder:$out/linkladder.jsonl"
