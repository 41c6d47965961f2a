#!/usr/bin/env bash
# Markdown link checking against the peers: markdown-link-check and remark with
# remark-validate-links, then `linkladder check` (when the build has it), on two folders:
#   repo       this repository's README.md and docs/*.md (external links not checked)
#   generated  ~500 files by bench/support/make-markdown-docs.py, whose links to other
#              sites go to a Python http.server on 127.0.0.1 (some answer 404), with
#              the truth: every link GitHub readers would find broken
# Each tool runs once under /usr/bin/time (wall, CPU, peak memory; requests to the
# loopback server counted from its log); its findings are normalised to (file, line,
# link, kind) by bench/support/peer-findings.py and compared by compare-findings.py:
# for the generated folder, each tool's hits, misses and false reports against the
# truth, by case. docs/benchmarks-check.md explains the differences.
#
#   npm run build && bash bench/markdown-peers.sh
#
# Settings (environment):
#   PEERS_BIN              folder of the peers' executables (default /tmp/peers/node_modules/.bin)
#   PEERS_OUT              where the outputs are kept       (default a new folder under /tmp)
#   PEERS_SHOW             differences shown per group                        (default 3)
#   PEERS_ONLY             repo or generated: one folder only                 (default both)
#   LINKLADDER_BENCH_CLI   the CLI bundle                        (default dist/linkladder.mjs)
#   LINKLADDER_BENCH_ARGS  more arguments for `linkladder check` on the generated folder
#                          (default --allow-private: its "external" server is on 127.0.0.1)
#
# Nothing beyond 127.0.0.1 is contacted: markdown-link-check is given a config that
# ignores every http(s) URL not on 127.0.0.1 and every mailto: (it would look up the
# domain's MX record), linkladder runs with --no-check-external
# on the repository's docs, and remark-validate-links never requests a URL.

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${PEERS_BIN:-/tmp/peers/node_modules/.bin}"
cli="${LINKLADDER_BENCH_CLI:-$repo/dist/linkladder.mjs}"
out="${PEERS_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/linkladder-markdown-peers.XXXXXX")}"
show="${PEERS_SHOW:-3}"
read -r -a linkladder_args <<<"${LINKLADDER_BENCH_ARGS:---allow-private}"
mkdir -p "$out"
validate_links="$(dirname "$bin")/remark-validate-links/index.js"

for tool in markdown-link-check remark; do
  [ -x "$bin/$tool" ] || { echo "markdown-peers: $bin/$tool is missing (set PEERS_BIN)" >&2; exit 2; }
done
[ -f "$validate_links" ] || { echo "markdown-peers: $validate_links is missing" >&2; exit 2; }
has_check=0
if [ -f "$cli" ] && node "$cli" check --help >/dev/null 2>&1; then has_check=1; fi

# The loopback "external" server: a port the kernel picks, closed again at the end.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 "$repo/bench/support/make-markdown-docs.py" "$out/generated" --external "http://127.0.0.1:$port/"
python3 -m http.server --bind 127.0.0.1 "$port" --directory "$out/generated/external" >"$out/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/ok-0.html')" 2>/dev/null && break
  sleep 0.1
done
# mailto: is ignored too: markdown-link-check checks an address by an MX lookup (DNS).
echo '{"ignorePatterns":[{"pattern":"^https?://(?!127\\.0\\.0\\.1[:/])"},{"pattern":"^mailto:"}]}' >"$out/mlc-config.json"
echo "markdown-peers: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); loopback server on port $port; outputs in $out"

# One tool on one folder: its output, time, requests to the loopback server.
run() { # folder tool cwd command...
  local folder=$1 tool=$2 cwd=$3 before status=0
  shift 3
  before="$(wc -l <"$out/http.log")"
  (cd "$cwd" && FORCE_COLOR=0 NO_COLOR=1 /usr/bin/time -f '%e %U %S %M' -o "$out/$folder.$tool.time" nice -n 10 "$@") \
    >"$out/$folder.$tool.out" 2>"$out/$folder.$tool.err" || status=$?
  local requests distinct
  tail -n +"$((before + 1))" "$out/http.log" | grep '"[A-Z]* /' >"$out/$folder.$tool.requests" || true
  requests="$(wc -l <"$out/$folder.$tool.requests")"
  distinct="$(awk -F'"' '{ split($2, r, " "); print r[1], r[2] }' "$out/$folder.$tool.requests" | sort -u | wc -l)"
  tail -n 1 "$out/$folder.$tool.time" | awk -v tool="$tool" -v status="$status" -v requests="$requests" -v distinct="$distinct" \
    '{ printf "  %-20s wall %7.2f s  cpu %7.2f s  peak %6.1f MB  exit %d  requests %d (distinct %d)\n", tool, $1, $2 + $3, $4 / 1024, status, requests, distinct }'
}

compare_folder() { # folder cwd [truth args...]
  local folder=$1 cwd=$2
  shift 2
  local inputs=("$@")
  python3 "$repo/bench/support/peer-findings.py" mlc "$out/$folder.markdown-link-check.out" --root "$cwd" >"$out/$folder.mlc.jsonl"
  # vfile-reporter writes to stderr
  python3 "$repo/bench/support/peer-findings.py" remark "$out/$folder.remark.err" --root "$cwd" >"$out/$folder.remark.jsonl"
  inputs+=("markdown-link-check=normalised:$out/$folder.mlc.jsonl" "remark=normalised:$out/$folder.remark.jsonl")
  if [ "$has_check" = 1 ]; then
    inputs+=("linkladder=linkladder:$out/$folder.linkladder.out")
  fi
  echo
  python3 "$repo/bench/support/compare-findings.py" --root "$cwd" --cwd "$cwd" --show "$show" --external-urls "${compare_args[@]}" "${inputs[@]}" \
    | tee "$out/$folder.compare.txt" || true
}

only="${PEERS_ONLY:-}"
if [ -z "$only" ] || [ "$only" = repo ]; then
  echo
  echo "== repo: README.md and docs/*.md of $repo"
  files=(README.md)
  for file in "$repo"/docs/*.md; do files+=("docs/$(basename "$file")"); done
  run repo markdown-link-check "$repo" "$bin/markdown-link-check" -c "$out/mlc-config.json" "${files[@]}"
  run repo remark "$repo" "$bin/remark" "${files[@]}" --use "$validate_links=repository:false" --quiet --frail --no-stdout --no-config --no-ignore --no-color
  if [ "$has_check" = 1 ]; then
    run repo linkladder "$repo" node "$cli" check "${files[@]}" --no-check-external --format json --db "$out/repo.check.db"
  else
    echo "  linkladder           skipped: $cli has no check command (npm run build on a branch that has it)"
  fi
  compare_args=()
  compare_folder repo "$repo"
fi

if [ -z "$only" ] || [ "$only" = generated ]; then
  docs="$out/generated/docs"
  echo
  echo "== generated: $(find "$docs" -name '*.md' | wc -l) Markdown files in $docs"
  run generated markdown-link-check "$docs" "$bin/markdown-link-check" -c "$out/mlc-config.json" .
  run generated remark "$docs" "$bin/remark" . --use "$validate_links=repository:false" --quiet --frail --no-stdout --no-config --no-ignore --no-color
  if [ "$has_check" = 1 ]; then
    run generated linkladder "$docs" node "$cli" check . --format json --db "$out/generated.check.db" "${linkladder_args[@]}"
  else
    echo "  linkladder           skipped: $cli has no check command (npm run build on a branch that has it)"
  fi
  compare_args=(--truth truth --cases "$out/generated/cases.jsonl")
  compare_folder generated "$docs" "truth=normalised:$out/generated/expected.jsonl"
fi
