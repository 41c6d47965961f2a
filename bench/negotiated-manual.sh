#!/usr/bin/env bash
# A negotiated manual (how much --content-evidence saves, and whether it joins
# anything falsely): serve the Apache manual the way its project serves
# it (bench/support/serve-negotiated-manual.sh: one tree under every language prefix,
# MultiViews, ForceLanguagePriority Fallback) and crawl it in one run, from the same
# entry URL, with
#   (a) wget -r -np,
#   (b) linkladder without content evidence,
#   (c) linkladder --content-evidence (skipped with a notice while the CLI lacks it).
# For each, from Apache's access log (one line per request, with the file each
# request resolved to): requests, distinct files served, broken targets (distinct
# URLs under the entry that answered 4xx/5xx), CPU seconds (user+sys, /usr/bin/time),
# and requests / (distinct files + broken): 1.00 fetches every file once. Then how
# many files the manual tree has, how many each crawl reached, and the files missed
# by (c): those (a) or (b) reached and (c) did not (the issue's target is 0, with
# (c)'s ratio <= 1.15), and the false joins of (c): content aliases whose two URLs
# answer different bytes when requested again (bench/support/check-content-joins.mjs).
#
#   npx tsc -p tsconfig.json && bash bench/negotiated-manual.sh
#
# Settings (environment):
#   NEGOTIATED_MANUAL_PORT   the port Apache listens on (default: a free one)
#   NEGOTIATED_MANUAL_FLAGS  more flags for both linkladder crawls
#   NEGOTIATED_MANUAL_KEEP   a directory: each crawl's access-log slice, file lists,
#                            times, and linkladder's summary and index are copied there,
#                            with url-files.tsv (each URL fetched → the file it served:
#                            two URLs are duplicates exactly when their files are one)
#
# The linkladder crawls run with `--scope prefix --allow-private --no-check-external
# --check-resources`: confined to the entry's prefix as wget -np is, allowed on
# loopback, no external link checked (nothing outside 127.0.0.1 is contacted), and
# the images and stylesheets pages use checked, as wget -r fetches them.
# Where wget, /usr/bin/time or Apache (not installable) is missing, it prints a
# notice and exits 0.

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$repo/dist/src/cli/main.js"
serve="$repo/bench/support/serve-negotiated-manual.sh"
read -r -a extra_flags <<<"${NEGOTIATED_MANUAL_FLAGS:-}"
ladder_flags=(--scope prefix --allow-private --no-check-external --check-resources)
keep="${NEGOTIATED_MANUAL_KEEP:-}"

skip() {
  echo "negotiated-manual: skipped: $1"
  exit 0
}

command -v wget >/dev/null || skip "wget is not installed (apt-get install wget)"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed (apt-get install time)"
if [ ! -f "$cli" ]; then
  echo "negotiated-manual: $cli is missing; run npx tsc -p tsconfig.json (or npm run build) first" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-negotiated-manual-bench.XXXXXX")"
port=""
cleanup() {
  [ -z "$port" ] || bash "$serve" stop "$port" || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

served="$(bash "$serve" start "${NEGOTIATED_MANUAL_PORT:-}")" || skip "Apache could not serve the manual (see above)"
origin="" seed="" root="" dir="" access_log=""
eval "$served"
port="${origin##*:}"

# The tree: every file a request can resolve to, as Apache's %f names it.
find -L "$root" "$dir/entry" -type f | sort >"$work/tree.files"
tree_files="$(wc -l <"$work/tree.files")"
tree_pages="$(grep -c '\.html\(\.[a-z-]*\)\?$' "$work/tree.files" || true)"

supports_content_evidence=0
if node "$cli" crawl --help 2>/dev/null | grep -q -- '--content-evidence'; then
  supports_content_evidence=1
fi

echo "negotiated-manual: $seed (Apache $(/usr/sbin/apache2 -v | sed -n 's/^Server version: Apache\/\([^ ]*\).*/\1/p'), $tree_files files: $tree_pages pages); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  (a) wget -r -np -l inf -q -P <tmp> $seed"
echo "  (b) node dist/src/cli/main.js crawl $seed --db <tmp> ${ladder_flags[*]}${extra_flags[*]:+ ${extra_flags[*]}}"
echo "  (c) the same with --content-evidence"

# One crawl: time it, keep its slice of the access log, and reduce it to figures.
run_one() { # name
  local name=$1 out="$work/$1" before status=0
  mkdir -p "$out"
  before="$(wc -l <"$access_log")"
  case "$name" in
    wget)
      # wget exits 8 when a page answered 4xx: the manual has broken links.
      /usr/bin/time -o "$out/time" -f '%U %S %e' wget -r -np -l inf -q -P "$out/download" "$seed" || status=$?
      [ "$status" -eq 0 ] || [ "$status" -eq 8 ] || { echo "negotiated-manual: wget failed ($status)" >&2; exit 1; }
      ;;
    linkladder | evidence)
      local flags=("${ladder_flags[@]}" "${extra_flags[@]}")
      [ "$name" = linkladder ] || flags+=(--content-evidence)
      /usr/bin/time -o "$out/time" -f '%U %S %e' node "$cli" crawl "$seed" --db "$out/index.db" "${flags[@]}" \
        >"$out/summary" 2>"$out/stderr" ||
        { echo "negotiated-manual: linkladder crawl ($name) failed:" >&2; cat "$out/stderr" "$out/summary" >&2; exit 1; }
      ;;
  esac
  # An access-log line is written after its response: wait until the log stops growing.
  local size=-1
  while [ "$size" != "$(wc -c <"$access_log")" ]; do
    size="$(wc -c <"$access_log")"
    sleep 0.2
  done
  tail -n +"$((before + 1))" "$access_log" >"$out/requests"
  # Fields: status, "METHOD target HTTP/x", file, Content-Location, bytes, connection.
  awk -F'\t' '{ split($2, line, " "); print $1 "\t" line[2] "\t" $3 }' "$out/requests" >"$out/hits"
  awk -F'\t' '$1 >= 200 && $1 < 300 { print $3 }' "$out/hits" | sort -u >"$out/files"
  awk -F'\t' -v prefix="${seed#"$origin"}" '$1 >= 400 && index($2, prefix) == 1 { print $2 }' "$out/hits" | sort -u >"$out/broken"
  awk -F'\t' '$2 != "/robots.txt" && $2 != "/sitemap.xml" { print $2; exit }' "$out/hits" >"$out/entry"
  rm -rf "$out/download"
}

figures() { # name → requests files broken ratio cpu wall
  local out="$work/$1" requests files broken
  requests="$(wc -l <"$out/requests")"
  files="$(wc -l <"$out/files")"
  broken="$(wc -l <"$out/broken")"
  awk -v r="$requests" -v f="$files" -v b="$broken" '
    { cpu = $1 + $2; wall = $3 }
    END { printf "%d %d %d %.2f %.2f %.2f\n", r, f, b, (f + b > 0) ? r / (f + b) : 0, cpu, wall }
  ' "$out/time"
}

crawls=(wget linkladder)
[ "$supports_content_evidence" -eq 0 ] || crawls+=(evidence)
for name in "${crawls[@]}"; do
  echo "  crawling: $name"
  run_one "$name"
done

label() {
  case "$1" in
    wget) echo "(a) wget -r -np" ;;
    linkladder) echo "(b) linkladder" ;;
    evidence) echo "(c) linkladder --content-evidence" ;;
  esac
}

echo
echo "| crawl | requests | distinct files | broken | requests / (files + broken) | files reached of $tree_files | CPU s | wall s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for name in "${crawls[@]}"; do
  read -r requests files broken ratio cpu wall <<<"$(figures "$name")"
  reached="$(comm -12 "$work/tree.files" "$work/$name/files" | wc -l)"
  echo "| $(label "$name") | $requests | $files | $broken | $ratio | $reached | $cpu | $wall |"
done
if [ "$supports_content_evidence" -eq 0 ]; then
  echo "| (c) linkladder --content-evidence | skipped: the CLI rejects --content-evidence | | | | | | |"
fi
echo
echo "requests: every request Apache logged during the crawl (robots.txt, sitemap.xml and redirects included);"
echo "distinct files: the files 2xx answers resolved to (Apache's %f); broken: distinct URLs under ${seed#"$origin"} that answered 4xx/5xx."

# Same entry point: the first request of each crawl after robots.txt and sitemap.xml.
entries="$(cat "$work"/*/entry | sort -u)"
if [ "$(printf '%s\n' "$entries" | wc -l)" -eq 1 ] && [ "$entries" = "${seed#"$origin"}" ]; then
  echo "entry point: every crawl started at $entries"
else
  echo "entry point: the crawls started at different URLs: $(echo "$entries" | tr '\n' ' ')" >&2
  exit 1
fi

comm -23 "$work/wget/files" "$work/linkladder/files" >"$work/only-wget"
comm -13 "$work/wget/files" "$work/linkladder/files" >"$work/only-linkladder"
echo "files wget reached and (b) did not: $(wc -l <"$work/only-wget")$(head -3 "$work/only-wget" | sed "s#^$root##; s#^$dir##" | tr '\n' ' ' | sed 's/^./ (&/; s/ $/)/')"
echo "files (b) reached and wget did not: $(wc -l <"$work/only-linkladder")$(head -3 "$work/only-linkladder" | sed "s#^$root##; s#^$dir##" | tr '\n' ' ' | sed 's/^./ (&/; s/ $/)/')"
echo "files no crawl reached: $(sort -u "$work"/*/files | comm -23 "$work/tree.files" - | wc -l) of $tree_files"

status=0
if [ "$supports_content_evidence" -eq 1 ]; then
  sort -u "$work/wget/files" "$work/linkladder/files" | comm -23 - "$work/evidence/files" >"$work/missed"
  missed="$(wc -l <"$work/missed")"
  read -r _ _ _ ratio _ _ <<<"$(figures evidence)"
  echo "files missed by (c) (reached by (a) or (b), not by (c)): $missed$(head -5 "$work/missed" | sed "s#^$root##" | tr '\n' ' ' | sed 's/^./ (&/; s/ $/)/')"
  # 0 false joins: both URLs of every content alias answer the same bytes (requested after the crawl).
  joins="$(node "$repo/bench/support/check-content-joins.mjs" "$work/evidence/index.db")" || status=1
  echo "$joins"
  false_joins="$(sed -n 's/^joins [0-9]* checked.*, \([0-9]*\) false$/\1/p' <<<"$joins" | head -1)"
  verdict="$(awk -v r="$ratio" -v m="$missed" -v f="${false_joins:-1}" 'BEGIN { print (r <= 1.15 && m == 0 && f == 0) ? "met" : "not met" }')"
  echo "target (c): requests / (files + broken) <= 1.15 with 0 files missed and 0 false joins: $verdict ($ratio, $missed missed, ${false_joins:-?} false joins)"
  [ "$verdict" = met ] || status=1
else
  echo "(c) skipped: \`linkladder crawl --help\` has no --content-evidence yet"
fi

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  for name in "${crawls[@]}"; do
    mkdir -p "$keep/$name"
    cp "$work/$name"/{requests,files,broken,time} "$keep/$name/"
    [ ! -f "$work/$name/summary" ] || cp "$work/$name/summary" "$work/$name/index.db" "$keep/$name/"
  done
  cp "$work/tree.files" "$keep/"
  # The truth for checking joins: each URL a crawl fetched (2xx), and the file it resolved to.
  cat "$work"/*/hits | awk -F'\t' -v dir="$dir/" '$1 >= 200 && $1 < 300 { sub("^" dir, "", $3); print $2 "\t" $3 }' | sort -u >"$keep/url-files.tsv"
  echo "kept: $keep"
fi
exit "$status"
