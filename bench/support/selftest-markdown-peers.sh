#!/usr/bin/env bash
# Checks how bench/markdown-peers.sh reads the peers' reports before their figures are
# trusted: saved excerpts of a real run (fixtures/peer-reports: markdown-link-check's text
# report and remark-validate-links' vfile-reporter report on three generated pages, the
# loopback port written as 9) are read against a folder generated the same way, and
# must give the saved (file, line, link, kind) records exactly: the line of a
# markdown-link-check finding found in the file, the link of a remark message read at its
# position (`#caf%C3%A9…` as written, not the lower-cased path the message names).
#
#   bash bench/support/selftest-markdown-peers.sh     # prints "selftest-markdown-peers: ok", exit 0

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reports="$repo/bench/support/fixtures/peer-reports"
work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-selftest.XXXXXX")"
trap 'rm -rf "$work"' EXIT

python3 "$repo/bench/support/make-markdown-docs.py" "$work" --external http://127.0.0.1:9/ >/dev/null
for tool in markdown-link-check remark; do
  report="$reports/$tool.out"
  [ "$tool" = remark ] && report="$reports/remark.err"
  reader=$tool
  [ "$tool" = markdown-link-check ] && reader=mlc
  python3 "$repo/bench/support/peer-findings.py" "$reader" "$report" --root "$work/docs" >"$work/$tool.jsonl"
  diff -u "$reports/$tool.expected.jsonl" "$work/$tool.jsonl" || {
    echo "selftest-markdown-peers: FAILED: $tool's report is read differently" >&2
    exit 1
  }
done
echo "selftest-markdown-peers: ok"
