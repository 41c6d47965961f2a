#!/usr/bin/env bash
# Checks the instruments of bench/check-exactness.sh before their figures are trusted:
# 1. the oracle on bench/support/fixtures/exactness-site gives exactly
#    fixtures/exactness-oracle.jsonl (every rule of docs/benchmarks-check.md has a case there:
#    base, fragments, #top, text directive, folders, percent-encoding, srcset, CSS, refresh …);
# 2. the comparison, given a hand-made linkladder output (fixtures/exactness-linkladder.jsonl:
#    one finding missing, one extra, one kind and one line changed, an href with `&amp;`,
#    a code that is not compared), prints exactly those counts and exits 1.
#
#   bash bench/support/selftest-exactness.sh     # prints "selftest-exactness: ok", exit 0

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fixtures="$repo/bench/support/fixtures"
work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-selftest.XXXXXX")"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "selftest-exactness: FAILED: $1" >&2
  exit 1
}

python3 "$repo/bench/support/independent-check.py" "$fixtures/exactness-site" >"$work/oracle.jsonl" 2>/dev/null
diff -u "$fixtures/exactness-oracle.jsonl" "$work/oracle.jsonl" || fail "the oracle's findings on exactness-site changed"

status=0
(cd "$repo" && LINKLADDER_BENCH_JSON="$fixtures/exactness-linkladder.jsonl" LINKLADDER_BENCH_CWD="$repo" EXACTNESS_OUT="$work/out" \
  bash bench/check-exactness.sh "$fixtures/exactness-site") >"$work/compare.txt" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/compare.txt"; fail "check-exactness.sh exited $status, expected 1 (they differ)"; }
for expected in 'oracle: 16 findings (missing-file 12, missing-fragment 4)' \
  'linkladder: 16 findings (missing-file 13, missing-fragment 3); not compared: HTML_DUPLICATE_ID 1' \
  'both            15' '  kind differs  1' '  line differs  1' '  same          13' \
  'only oracle     1' 'only linkladder 1' \
  '  oracle: index.html:6  missing-bg.png  (missing-file)' \
  '  linkladder: index.html:3  extra.png  (missing-file)'; do
  grep -qxF -- "$expected" "$work/compare.txt" || { cat "$work/compare.txt"; fail "missing line: $expected"; }
done
echo "selftest-exactness: ok"
