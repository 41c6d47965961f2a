#!/usr/bin/env bash
# Checking a big folder of HTML, external links off, in one run against the folder
# checkers of npm: linkladder (`check <dir>` once the command exists; until then the
# same parse/resolve/admit path through a crawl of the folder served by nginx on
# 127.0.0.1), with its pages read by worker threads (the default) and in its own
# thread (`--parse-threads 0`); `linkinator <dir> --recurse` (it serves the folder
# itself); and `hyperlink -r -i` on the folder's index.html (slow: minutes on
# libstdc++, so only with CHECK_FOLDER_HYPERLINK=1). Each under `/usr/bin/time -v`:
# wall and CPU (user+sys) seconds, peak RSS, and MB/s of the folder's HTML over the
# wall time (and linkladder's main-thread CPU, bench/support/thread-cpu.cjs: the part
# worker threads cannot take, so the wall time on an idle machine cannot be less);
# then each peer's wall and CPU as a multiple of linkladder's.
#
#   npm run build && bash bench/check-folder.sh
#   CHECK_FOLDER_HYPERLINK=1 bash bench/check-folder.sh          (hyperlink too)
#
# Settings (environment):
#   CHECK_FOLDER_ROOTS     folders, each with an index.html (default: the libstdc++ and
#                          python3.11 HTML trees of Debian)
#   CHECK_FOLDER_TOOLS     tools, in order (default: "linkladder linkladder-in-thread linkinator",
#                          and hyperlink with CHECK_FOLDER_HYPERLINK=1)
#   CHECK_FOLDER_ROUNDS    runs of each tool per folder; figures are medians (default 1)
#   CHECK_FOLDER_FLAGS     more linkladder flags, e.g. "--parse-threads 2"
#   CHECK_FOLDER_PEERS     where the peers' executables are (default /tmp/peers/node_modules/.bin)
#
# Nothing outside 127.0.0.1 is contacted: linkladder runs with --no-check-external
# (and the crawl is confined to the served prefix), linkinator skips every URL not on
# its own local server, hyperlink checks internal links only (-i). A tool or folder
# that is missing is reported and skipped.

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$repo/dist/linkladder.mjs"
peers="${CHECK_FOLDER_PEERS:-/tmp/peers/node_modules/.bin}"
read -r -a roots <<<"${CHECK_FOLDER_ROOTS:-/usr/share/doc/gcc-12-base/libstdc++ /usr/share/doc/python3.11/html}"
default_tools="linkladder linkladder-in-thread linkinator"
[ "${CHECK_FOLDER_HYPERLINK:-0}" = 1 ] && default_tools="$default_tools hyperlink"
read -r -a tools <<<"${CHECK_FOLDER_TOOLS:-$default_tools}"
rounds="${CHECK_FOLDER_ROUNDS:-1}"
read -r -a extra_flags <<<"${CHECK_FOLDER_FLAGS:-}"

[ -x /usr/bin/time ] || { echo "check-folder: skipped: /usr/bin/time is not installed"; exit 0; }
[ -f "$cli" ] || { echo "check-folder: $cli is missing; run npm run build first" >&2; exit 1; }

# shellcheck source=support/serve-tree.sh
. "$repo/bench/support/serve-tree.sh"
has_check=0
node "$cli" --help 2>/dev/null | grep -qE "^ +check( |$)" && has_check=1
if [ "$has_check" = 0 ] && [ -z "$(nginx_binary)" ]; then
  echo "check-folder: skipped: no \`check\` command in this build and no nginx to serve the folder"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-check-folder.XXXXXX")"
cleanup() {
  stop_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "check-folder: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), node $(node --version), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
if [ "$has_check" = 1 ]; then
  echo "  linkladder: node $cli check <dir> --no-check-external --db <tmp>${extra_flags[*]:+ ${extra_flags[*]}}"
else
  echo "  linkladder: (no check command yet) node $cli crawl <nginx>/index.html --scope prefix --allow-private --no-check-external --concurrency 4 --per-host-concurrency 4${extra_flags[*]:+ ${extra_flags[*]}} (nginx's CPU not counted)"
fi
echo "  linkladder-in-thread: the same with --parse-threads 0"
echo "  linkinator: $peers/linkinator <dir> --recurse --skip '^(?!http://localhost)' --verbosity none"
echo "  hyperlink:  $peers/hyperlink -r -i --root <dir> <dir>/index.html"

run_one() { # tool root out
  local tool=$1 root=$2 out=$3
  mkdir -p "$out"
  local threads=()
  [ "$tool" = linkladder-in-thread ] && threads=(--parse-threads 0)
  case "$tool" in
    linkladder | linkladder-in-thread)
      if [ "$has_check" = 1 ]; then
        THREAD_CPU_OUT="$out/threads" /usr/bin/time -v -o "$out/time" node --require "$repo/bench/support/thread-cpu.cjs" "$cli" check "$root" --no-check-external --db "$out/index.db" \
          "${threads[@]}" "${extra_flags[@]}" >"$out/stdout" 2>"$out/stderr" || true
      else
        THREAD_CPU_OUT="$out/threads" /usr/bin/time -v -o "$out/time" node --require "$repo/bench/support/thread-cpu.cjs" "$cli" crawl "${site}index.html" --db "$out/index.db" --scope prefix \
          --allow-private --no-check-external --concurrency 4 --per-host-concurrency 4 "${threads[@]}" "${extra_flags[@]}" \
          >"$out/stdout" 2>"$out/stderr" || { echo "check-folder: linkladder failed:" >&2; cat "$out/stderr" >&2; exit 1; }
      fi
      ;;
    linkinator)
      [ -x "$peers/linkinator" ] || return 1
      /usr/bin/time -v -o "$out/time" "$peers/linkinator" "$root" --recurse --skip '^(?!http://localhost)' --verbosity none \
        >"$out/stdout" 2>"$out/stderr" || true
      ;;
    hyperlink)
      [ -x "$peers/hyperlink" ] || return 1
      /usr/bin/time -v -o "$out/time" "$peers/hyperlink" -r -i --root "$root" "$root/index.html" >"$out/stdout" 2>"$out/stderr" || true
      ;;
    *)
      echo "check-folder: unknown tool $tool" >&2
      exit 2
      ;;
  esac
  awk '
    /User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "%.2f %.2f %.1f\n", wall, user + sys, rss / 1024 }
  ' "$out/time" >"$out/figures"
  rm -f "$out/index.db" "$out/index.db-wal" "$out/index.db-shm"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for root in "${roots[@]}"; do
  if [ ! -f "$root/index.html" ]; then
    echo "check-folder: no $root/index.html: skipped"
    continue
  fi
  pages="$(find "$root" -name '*.html' | wc -l)"
  bytes="$(find "$root" -name '*.html' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)"
  mb="$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')"
  echo
  echo "$root: $pages .html files, $mb MB of HTML; load $(cut -d' ' -f1-3 /proc/loadavg)"
  [ "$has_check" = 1 ] || serve_tree "$root" "$work/nginx-$(basename "$root")" || exit 1
  name="$(echo "$root" | tr '/' '_')"
  for round in $(seq "$rounds"); do
    for tool in "${tools[@]}"; do
      out="$work/$name/$tool.$round"
      if ! run_one "$tool" "$root" "$out"; then
        echo "  $tool: not installed under $peers: skipped"
        continue
      fi
      read -r wall cpu rss <"$out/figures"
      main=""
      [ -f "$out/threads" ] && main="  (main thread $(cut -d' ' -f1 "$out/threads") s)"
      printf '  round %d %-21s wall %8.2f s  cpu %8.2f s  rss %8.1f MB  %7.2f MB/s%s\n' "$round" "$tool" "$wall" "$cpu" "$rss" \
        "$(awk -v m="$mb" -v w="$wall" 'BEGIN { print (w > 0) ? m / w : 0 }')" "$main"
    done
  done
  [ "$has_check" = 1 ] || stop_tree
  ladder_wall="$(cat "$work/$name"/linkladder.*/figures 2>/dev/null | awk '{ print $1 }' | median || true)"
  ladder_cpu="$(cat "$work/$name"/linkladder.*/figures 2>/dev/null | awk '{ print $2 }' | median || true)"
  printf '  %-21s %9s %9s %9s %8s %14s %14s\n' tool 'wall s' 'cpu s' 'rss MB' 'MB/s' 'wall / ours' 'cpu / ours'
  for tool in "${tools[@]}"; do
    ls "$work/$name/$tool".*/figures >/dev/null 2>&1 || continue
    wall="$(cat "$work/$name/$tool".*/figures | awk '{ print $1 }' | median)"
    cpu="$(cat "$work/$name/$tool".*/figures | awk '{ print $2 }' | median)"
    rss="$(cat "$work/$name/$tool".*/figures | awk '{ print $3 }' | median)"
    awk -v t="$tool" -v w="$wall" -v c="$cpu" -v r="$rss" -v m="$mb" -v lw="${ladder_wall:-0}" -v lc="${ladder_cpu:-0}" 'BEGIN {
      printf "  %-21s %9.2f %9.2f %9.1f %8.2f %14s %14s\n", t, w, c, r, (w > 0) ? m / w : 0,
        (lw > 0) ? sprintf("%.1f×", w / lw) : "-", (lc > 0) ? sprintf("%.1f×", c / lc) : "-" }'
  done
done
echo "(wall, cpu = user+sys, peak rss: /usr/bin/time -v, medians over $rounds round(s); MB/s = the folder's HTML over the wall time)"
