#!/usr/bin/env bash
# A real site (what a crawl of real documentation costs against wget): serve the HTML tree of a Debian documentation package with
# nginx on 127.0.0.1 and crawl it with `wget -r -np`, with linkladder and with the
# floor of a Node crawler on this stack (bench/support/naive-crawler.ts: undici,
# htmlparser2, WHATWG URL and a Set, nothing stored), each under `/usr/bin/time -v`,
# in rotating rounds; and, as the floor under any Node crawler, undici alone fetching
# the tree's pages one at a time (bench/support/fetch-floor.ts: no parsing). Prints per
# tool the median CPU seconds (user+sys), median wall seconds, peak RSS, the requests
# nginx logged, and the ratios of CPU seconds: linkladder/wget (the issue's target:
# <= 2.00), naive/wget and fetch-only/wget (what Node itself costs) and linkladder/naive. Also checks that linkladder requested every resource at most once.
#
#   npm run build && bash bench/real-site.sh
#
# Settings (environment):
#   REAL_SITE_ROUNDS   rounds, each one crawl per tool             (default 3)
#   REAL_SITE_PACKAGE  Debian package of the tree, for the notice  (default postgresql-doc-15)
#   REAL_SITE_ROOT     the directory to serve                      (default /usr/share/doc/$REAL_SITE_PACKAGE/html)
#   REAL_SITE_SEED     the page to start from, inside the root     (default index.html)
#   REAL_SITE_FLAGS    more linkladder crawl flags, e.g. "--concurrency 8 --per-host-concurrency 8"
#   REAL_SITE_BASELINE another build's linkladder.mjs (e.g. a copy of dist/ from before
#                      a change, with node_modules and migrations/ beside it): crawled in
#                      every round too, as the tool "baseline", with the same flags, and
#                      its ratio to linkladder printed (a before/after in one run)
#   REAL_SITE_PROFILE  a directory: after the rounds, one more linkladder crawl under
#                      node --cpu-prof writes its .cpuprofile there, and its summary is
#                      printed (dist/bench/real-site.profile.js)
#
# Where nginx, wget, /usr/bin/time or the tree is missing, it prints a notice and exits 0.
# Nothing outside 127.0.0.1 is contacted: the crawlers are confined to the tree's prefix
# (linkladder with --no-check-external, as wget -np does not leave the host).

set -euo pipefail

rounds="${REAL_SITE_ROUNDS:-3}"
package="${REAL_SITE_PACKAGE:-postgresql-doc-15}"
root="${REAL_SITE_ROOT:-/usr/share/doc/$package/html}"
seed_page="${REAL_SITE_SEED:-index.html}"
read -r -a extra_flags <<<"${REAL_SITE_FLAGS:-}"
profile_dir="${REAL_SITE_PROFILE:-}"
baseline="${REAL_SITE_BASELINE:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$repo/dist/linkladder.mjs"
naive="$repo/dist/bench/support/naive-crawler.js"
floor="$repo/dist/bench/support/fetch-floor.js"

skip() {
  echo "real-site: skipped: $1"
  exit 0
}

# shellcheck source=support/serve-tree.sh
. "$repo/bench/support/serve-tree.sh"
[ -n "$(nginx_binary)" ] || skip "nginx is not installed (apt-get install nginx)"
command -v wget >/dev/null || skip "wget is not installed (apt-get install wget)"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed (apt-get install time)"
[ -f "$root/$seed_page" ] || skip "no tree at $root/$seed_page (apt-get install $package, or set REAL_SITE_ROOT)"
if [ -n "$baseline" ] && [ ! -f "$baseline" ]; then
  echo "real-site: REAL_SITE_BASELINE=$baseline is not a file" >&2
  exit 1
fi
if [ ! -f "$cli" ] || [ ! -f "$naive" ] || [ ! -f "$floor" ]; then
  echo "real-site: $cli, $naive or $floor is missing; run npm run build first" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-real-site.XXXXXX")"
cleanup() {
  stop_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

serve_tree "$root" "$work" || exit 1
seed="$site$seed_page"
# The pages fetch-only requests: every .html file of the tree, as URLs under the site.
(cd "$root" && find . -name '*.html' | sed "s|^\./|$site|" | sort) >"$work/pages.list"

pages="$(find "$root" -name '*.html' | wc -l)"
echo "real-site: $root ($pages .html files) on $seed; $rounds rounds; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  wget:       wget -r -np -l inf -q -P <tmp> $seed"
echo "  naive:      node $naive $seed"
echo "  fetch-only: node $floor <the tree's .html files as URLs>"
echo "  linkladder: node $cli crawl $seed --db <tmp>/index.db --scope prefix --allow-private --no-check-external --per-host-concurrency 1${extra_flags[*]:+ ${extra_flags[*]}}"
[ -z "$baseline" ] || echo "  baseline:   node $baseline crawl (the same flags)"
tools="wget fetch-only naive linkladder${baseline:+ baseline}"

# One crawl: time it, then keep this crawl's slice of the access log.
run_one() { # tool round
  local tool=$1 round=$2 out="$work/$1.$2" before
  mkdir -p "$out"
  before="$(wc -l <"$access_log")"
  case "$tool" in
    wget)
      /usr/bin/time -v -o "$out/time" wget -r -np -l inf -q -P "$out/files" "$seed" || true
      ;;
    naive)
      /usr/bin/time -v -o "$out/time" node "$naive" "$seed" >"$out/summary" ||
        { echo "real-site: the naive crawler failed" >&2; exit 1; }
      ;;
    fetch-only)
      /usr/bin/time -v -o "$out/time" node "$floor" "$work/pages.list" >"$out/summary" ||
        { echo "real-site: fetch-only failed" >&2; exit 1; }
      ;;
    linkladder | baseline)
      local program="$cli"
      [ "$tool" = linkladder ] || program="$baseline"
      /usr/bin/time -v -o "$out/time" node "$program" crawl "$seed" --db "$out/index.db" \
        --scope prefix --allow-private --no-check-external --per-host-concurrency 1 "${extra_flags[@]}" >"$out/summary" 2>"$out/stderr" ||
        { echo "real-site: $tool crawl failed:" >&2; cat "$out/stderr" "$out/summary" >&2; exit 1; }
      ;;
  esac
  tail -n +"$((before + 1))" "$access_log" >"$out/requests"
  awk -v tool="$tool" -v round="$round" '
    /User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "%s %d %.2f %.2f %.2f %.1f\n", tool, round, user + sys, wall, user, rss / 1024 }
  ' "$out/time" >"$out/figures"
  rm -rf "$out/files" "$out/index.db" "$out/index.db-wal" "$out/index.db-shm"
}

for round in $(seq "$rounds"); do
  case $((round % 3)) in
    1) order="wget naive linkladder fetch-only" ;;
    2) order="naive fetch-only linkladder wget" ;;
    *) order="linkladder wget fetch-only naive" ;;
  esac
  # The baseline right before linkladder in odd rounds, right after it in even ones.
  if [ -n "$baseline" ]; then
    if [ $((round % 2)) -eq 1 ]; then order="${order/linkladder/baseline linkladder}"; else order="${order/linkladder/linkladder baseline}"; fi
  fi
  for tool in $order; do
    run_one "$tool" "$round"
    read -r _ _ cpu wall _ rss <"$work/$tool.$round/figures"
    printf '  round %d %-10s cpu %6.2f s  wall %6.2f s  rss %6.1f MB  requests %d\n' \
      "$round" "$tool" "$cpu" "$wall" "$rss" "$(wc -l <"$work/$tool.$round/requests")"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column_median() { cat "$work/$1".*/figures | awk -v c="$2" '{ print $c }' | median; }

echo
printf '%-11s %8s %8s %9s %9s %9s %8s %8s %12s\n' tool 'cpu s' 'wall s' 'rss MB' requests 'distinct' 'max/url' 'non-200' 'connections'
for tool in $tools; do
  cat "$work/$tool".*/requests >"$work/$tool.all"
  last="$work/$tool.$rounds/requests"
  printf '%-11s %8.2f %8.2f %9.1f %9d %9d %8d %8d %12d\n' "$tool" \
    "$(column_median "$tool" 3)" "$(column_median "$tool" 4)" "$(column_median "$tool" 6)" \
    "$(wc -l <"$last")" "$(awk '{ print $2 }' "$last" | sort -u | wc -l)" \
    "$(awk '{ print $2 }' "$last" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')" \
    "$(awk '$1 != 200' "$last" | wc -l)" "$(awk '{ print $3 }' "$last" | sort -u | wc -l)"
done
echo "(cpu, wall, rss: medians over $rounds rounds; requests, distinct, max/url, non-200, connections: the last round's, from nginx's access log)"

wget_cpu="$(column_median wget 3)"
naive_cpu="$(column_median naive 3)"
floor_cpu="$(column_median fetch-only 3)"
ladder_cpu="$(column_median linkladder 3)"
ratio_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
ratio="$(ratio_of "$ladder_cpu" "$wget_cpu")"
verdict="$(awk -v r="$ratio" 'BEGIN { print (r <= 2) ? "met" : "not met" }')"
echo
echo "cpu ratio linkladder/wget: $ratio (target <= 2.00: $verdict)"
echo "cpu ratio naive/wget:      $(ratio_of "$naive_cpu" "$wget_cpu") (Node, undici and htmlparser2 alone)"
echo "cpu ratio fetch-only/wget: $(ratio_of "$floor_cpu" "$wget_cpu") (Node and undici alone, fetching the same pages, nothing parsed)"
echo "cpu ratio linkladder/naive: $(ratio_of "$ladder_cpu" "$naive_cpu")"
if [ -n "$baseline" ]; then
  baseline_cpu="$(column_median baseline 3)"
  echo "cpu ratio baseline/naive:   $(ratio_of "$baseline_cpu" "$naive_cpu")"
  echo "cpu ratio linkladder/baseline: $(ratio_of "$ladder_cpu" "$baseline_cpu") (wall: $(ratio_of "$(column_median linkladder 4)" "$(column_median baseline 4)"))"
fi

awk '{ print $2 }' "$work/wget.$rounds/requests" | sort -u >"$work/wget.urls"
awk '{ print $2 }' "$work/linkladder.$rounds/requests" | sort -u >"$work/linkladder.urls"
only_wget="$(comm -23 "$work/wget.urls" "$work/linkladder.urls")"
only_ladder="$(comm -13 "$work/wget.urls" "$work/linkladder.urls")"
echo "urls only wget requested: $(printf '%s' "$only_wget" | grep -c . || true)${only_wget:+ ($(echo "$only_wget" | head -5 | tr '\n' ' '))}"
echo "urls only linkladder requested: $(printf '%s' "$only_ladder" | grep -c . || true)${only_ladder:+ ($(echo "$only_ladder" | head -5 | tr '\n' ' '))}"

repeats=0
for round in $(seq "$rounds"); do
  n="$(awk '{ print $2 }' "$work/linkladder.$round/requests" | sort | uniq -d | wc -l)"
  if [ "$n" -gt 0 ]; then
    echo "linkladder round $round requested $n URLs more than once:" \
      "$(awk '{ print $2 }' "$work/linkladder.$round/requests" | sort | uniq -d | head -5 | tr '\n' ' ')"
    repeats=$((repeats + n))
  fi
done
if [ "$repeats" -eq 0 ]; then
  echo "linkladder requested each resource at most once in every round"
fi

if [ -n "$profile_dir" ]; then
  mkdir -p "$profile_dir"
  profile_dir="$(cd "$profile_dir" && pwd)"
  echo
  echo "profiling one more linkladder crawl into $profile_dir"
  node --cpu-prof --cpu-prof-dir "$profile_dir" --cpu-prof-name real-site.cpuprofile "$cli" crawl "$seed" \
    --db "$work/profile.db" --scope prefix --allow-private --no-check-external --per-host-concurrency 1 "${extra_flags[@]}" >/dev/null
  node "$repo/dist/bench/real-site.profile.js" "$profile_dir/real-site.cpuprofile" 15
fi
[ "$repeats" -eq 0 ]
