#!/usr/bin/env bash
# WARC archives against wget, same site, same run: nginx on 127.0.0.1 serves a Debian
# documentation tree (bench/support/serve-tree.sh, its access log kept per crawl); it is
# crawled by `wget --recursive --warc-file` and by `linkladder crawl --warc`, and once more
# by linkladder without --warc for the CPU cost of archiving. Each WARC series is read back
# by bench/support/warc-verify.mjs (warcio): records by type, bytes, revisits, every
# payload digest recomputed, and every request nginx logged in the archive exactly once.
#
#   npm run build && bash bench/warc.sh
#
# Settings (environment):
#   WARC_PACKAGE  Debian package of the tree, for the notice (default postgresql-doc-15)
#   WARC_ROOT     the directory to serve                     (default /usr/share/doc/$WARC_PACKAGE/html)
#   WARC_SEED     the page to start from, inside the root    (default index.html)
#   WARC_ROUNDS   rounds of linkladder with and without --warc, for the CPU ratio (default 3)
#   WARC_ONLY     `wget` to run wget's half alone (the verifier on wget's WARC)
#   WARC_FLAGS    more linkladder crawl flags
#   WARC_CLI      the linkladder bundle that crawls (default dist/linkladder.mjs); `linkladder wacz`
#                 packages each series with this checkout's bundle
#
# Where nginx, wget, /usr/bin/time or the tree is missing, it prints a notice and exits 0.
# Nothing outside 127.0.0.1 is contacted (--no-check-external; wget --no-parent, one host).

set -euo pipefail

package="${WARC_PACKAGE:-postgresql-doc-15}"
root="${WARC_ROOT:-/usr/share/doc/$package/html}"
seed_page="${WARC_SEED:-index.html}"
rounds="${WARC_ROUNDS:-3}"
only="${WARC_ONLY:-}"
read -r -a extra_flags <<<"${WARC_FLAGS:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${WARC_CLI:-$repo/dist/linkladder.mjs}"
verify="$repo/bench/support/warc-verify.mjs"

skip() {
  echo "warc: skipped: $1"
  exit 0
}

nginx_bin="$(. "$repo/bench/support/serve-tree.sh" && nginx_binary)"
[ -n "$nginx_bin" ] || skip "nginx is not installed (apt-get install nginx)"
command -v wget >/dev/null || skip "wget is not installed (apt-get install wget)"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed (apt-get install time)"
[ -f "$root/$seed_page" ] || skip "no tree at $root/$seed_page (apt-get install $package, or set WARC_ROOT)"
[ "$only" = wget ] || [ -f "$cli" ] || { echo "warc: $cli is missing; run npm run build first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-warc.XXXXXX")"
# shellcheck source=support/serve-tree.sh
. "$repo/bench/support/serve-tree.sh"
cleanup() {
  stop_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

serve_tree "$root" "$work" || exit 1
seed="$site$seed_page"
pages="$(find "$root" -name '*.html' | wc -l)"
echo "warc: $root ($pages .html files, $(du -sb "$root" | cut -f1) bytes) on $seed; nginx $("$nginx_bin" -v 2>&1 | sed 's|.*/||'), $(wget --version | head -1 | cut -d' ' -f1-3), node $(node -v); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# One crawl: its command under /usr/bin/time -v, nginx's log lines of it kept in $out/requests.
measure() { # name command...
  local name=$1 out="$work/$1"
  shift
  mkdir -p "$out"
  : >"$access_log"
  /usr/bin/time -v -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr" || {
    local status=$?
    # wget exits 8 when the server answered an error (404 for robots.txt or a broken link): not a failed crawl.
    if [ "$name" != wget ] || [ "$status" -ne 8 ]; then
      echo "warc: the $name crawl failed ($status):" >&2
      tail -5 "$out/stderr" >&2
      exit 1
    fi
  }
  cp "$access_log" "$out/requests"
  awk '/User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "%.2f %.2f %.1f\n", user + sys, wall, rss / 1024 }' "$out/time" >"$out/figures"
}

report() { # name files...
  local name=$1 cpu wall rss
  shift
  read -r cpu wall rss <"$work/$name/figures"
  echo
  echo "$name: $(wc -l <"$work/$name/requests") requests logged by nginx; cpu ${cpu} s, wall ${wall} s, rss ${rss} MB"
  node "$verify" --log "$work/$name/requests" "$@" | sed 's/^/  /' || echo "  (the verifier found differences: above)"
  if [ -f "$repo/dist/linkladder.mjs" ]; then
    echo "  packaged: $(node "$repo/dist/linkladder.mjs" wacz "$1" --out "$work/$name.wacz" 2>&1 | sed "s|$work/||g")"
  fi
}

# wget: recursive within /site/, robots.txt obeyed (as linkladder does), one WARC file.
measure wget wget --recursive --level=inf --no-parent --no-verbose --directory-prefix="$work/wget/tree" \
  --warc-file="$work/wget/site" --no-warc-keep-log "$seed"
report wget "$work/wget/site.warc.gz"
[ "$only" = wget ] && exit 0

crawl_flags=(--scope prefix --allow-private --no-check-external --json "${extra_flags[@]}")
for round in $(seq "$rounds"); do
  measure "plain.$round" node "$cli" crawl "$seed" --db "$work/plain.$round/index.db" "${crawl_flags[@]}"
  measure "warc.$round" node "$cli" crawl "$seed" --db "$work/warc.$round/index.db" --warc "$work/warc.$round/site.warc.gz" "${crawl_flags[@]}"
  printf '  round %d: cpu without --warc %s s, with --warc %s s\n' "$round" "$(cut -d' ' -f1 "$work/plain.$round/figures")" "$(cut -d' ' -f1 "$work/warc.$round/figures")"
done
mapfile -t series < <(ls "$work/warc.1/"site*.warc.gz)
report warc.1 "${series[@]}"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
plain_cpu="$(for round in $(seq "$rounds"); do cut -d' ' -f1 "$work/plain.$round/figures"; done | median)"
warc_cpu="$(for round in $(seq "$rounds"); do cut -d' ' -f1 "$work/warc.$round/figures"; done | median)"
echo
printf 'linkladder cpu: %.2f s without --warc, %.2f s with (median of %d rounds): %.3fx (target <= 1.3x)\n' \
  "$plain_cpu" "$warc_cpu" "$rounds" "$(awk -v a="$warc_cpu" -v b="$plain_cpu" 'BEGIN { print a / b }')"
printf 'WARC bytes: wget %d, linkladder %d\n' "$(stat -c %s "$work/wget/site.warc.gz")" "$(cat "${series[@]}" | wc -c)"
