#!/usr/bin/env bash
# HTTP/2 against HTTP/1.1 on one server, same run: nginx on 127.0.0.1 with TLS and
# `listen … ssl http2` serves a Debian documentation tree; linkladder crawls it with
# HTTP/2 offered (the default) and with --no-http2, interleaved, several rounds, each
# crawl under /usr/bin/time -v. Prints per protocol the median requests a second
# (requests / wall seconds), CPU seconds of the crawler (user+sys) and CPU per 1,000
# requests, and the ratios h2/h1. Checks, per crawl, that nginx logged as many requests
# as the crawl counted, and that each came over the protocol asked for ($server_protocol:
# HTTP/2.0 for h2, HTTP/1.1 for --no-http2).
#
#   npm run build && bash bench/http2.sh
#
# Settings (environment):
#   HTTP2_ROUNDS   rounds, each one crawl per protocol        (default 5)
#   HTTP2_PACKAGE  Debian package of the tree, for the notice (default postgresql-doc-15)
#   HTTP2_ROOT     the directory to serve                     (default /usr/share/doc/$HTTP2_PACKAGE/html)
#   HTTP2_SEED     the page to start from, inside the root    (default index.html)
#   HTTP2_FLAGS    more linkladder crawl flags, e.g. "--concurrency 8 --per-host-concurrency 8"
#
# The CA and the leaf for 127.0.0.1 are made with openssl in a temporary folder; the
# crawler trusts the CA through NODE_EXTRA_CA_CERTS. Where nginx (with its HTTP/2
# module), openssl, /usr/bin/time or the tree is missing, it prints a notice and exits 0.
# Nothing outside 127.0.0.1 is contacted (--no-check-external).

set -euo pipefail

rounds="${HTTP2_ROUNDS:-5}"
package="${HTTP2_PACKAGE:-postgresql-doc-15}"
root="${HTTP2_ROOT:-/usr/share/doc/$package/html}"
seed_page="${HTTP2_SEED:-index.html}"
read -r -a extra_flags <<<"${HTTP2_FLAGS:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$repo/dist/linkladder.mjs"

skip() {
  echo "http2: skipped: $1"
  exit 0
}

nginx_bin="$(. "$repo/bench/support/serve-tree.sh" && nginx_binary)"
[ -n "$nginx_bin" ] || skip "nginx is not installed (apt-get install nginx)"
"$nginx_bin" -V 2>&1 | grep -q -- --with-http_v2_module || skip "this nginx has no HTTP/2 module"
command -v openssl >/dev/null || skip "openssl is not installed"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed (apt-get install time)"
[ -f "$root/$seed_page" ] || skip "no tree at $root/$seed_page (apt-get install $package, or set HTTP2_ROOT)"
[ -f "$cli" ] || { echo "http2: $cli is missing; run npm run build first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-http2.XXXXXX")"
# shellcheck source=support/serve-tree.sh
. "$repo/bench/support/serve-tree.sh"
cleanup() {
  stop_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A CA, and a leaf for IP 127.0.0.1 it signs.
(
  cd "$work"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 -subj '/CN=linkladder bench CA' \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr -subj '/CN=127.0.0.1' 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >leaf.ext
  openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 30 -extfile leaf.ext 2>/dev/null
)

export NODE_EXTRA_CA_CERTS="$work/ca.pem"
serve_tree "$root" "$work" "$work/leaf.pem" "$work/leaf.key" || exit 1
seed="$site$seed_page"

pages="$(find "$root" -name '*.html' | wc -l)"
echo "http2: $root ($pages .html files) on $seed; $rounds rounds; nginx $("$nginx_bin" -v 2>&1 | sed 's|.*/||'), node $(node -v); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  h2: node $cli crawl $seed --db <tmp>/index.db --scope prefix --allow-private --no-check-external --json${extra_flags[*]:+ ${extra_flags[*]}}"
echo "  h1: the same with --no-http2"

run_one() { # protocol round
  local protocol=$1 round=$2 out="$work/$1.$2" before flags=() expected requests logged
  mkdir -p "$out"
  [ "$protocol" = h2 ] || flags=(--no-http2)
  before="$(wc -l <"$access_log")"
  /usr/bin/time -v -o "$out/time" node "$cli" crawl "$seed" --db "$out/index.db" \
    --scope prefix --allow-private --no-check-external --json "${flags[@]}" "${extra_flags[@]}" >"$out/events" 2>"$out/stderr" ||
    { echo "http2: the $protocol crawl failed:" >&2; cat "$out/stderr" >&2; exit 1; }
  tail -n +"$((before + 1))" "$access_log" >"$out/requests"
  requests="$(node -e "
    const lines = require('node:fs').readFileSync(process.argv[1], 'utf8').trim().split('\n');
    const summary = lines.map((line) => JSON.parse(line)).find((event) => event.type === 'summary');
    console.log(summary.requests);" "$out/events")"
  logged="$(wc -l <"$out/requests")"
  expected="HTTP/1.1"
  [ "$protocol" = h1 ] || expected="HTTP/2.0"
  if [ "$requests" != "$logged" ]; then
    echo "http2: the $protocol crawl counted $requests requests, nginx logged $logged" >&2
    exit 1
  fi
  if awk -v p="$expected" '$5 != p { bad = 1 } END { exit bad ? 0 : 1 }' "$out/requests"; then
    echo "http2: the $protocol crawl sent requests over another protocol than $expected:" >&2
    awk '{ print $5 }' "$out/requests" | sort | uniq -c >&2
    exit 1
  fi
  awk -v protocol="$protocol" -v round="$round" -v requests="$requests" '
    /User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "%s %d %d %.2f %.2f %.1f %.1f %.3f\n", protocol, round, requests, user + sys, wall, requests / wall, rss / 1024, (user + sys) * 1000 / requests }
  ' "$out/time" >"$out/figures"
  printf '%s %s\n' "$protocol" "$(awk '{ print $3 }' "$out/requests" | sort -u | wc -l)" >"$out/connections"
  rm -rf "$out/index.db" "$out/index.db-wal" "$out/index.db-shm"
}

for round in $(seq "$rounds"); do
  # Each protocol goes first in every other round.
  if [ $((round % 2)) -eq 1 ]; then order="h2 h1"; else order="h1 h2"; fi
  for protocol in $order; do
    run_one "$protocol" "$round"
    read -r _ _ requests cpu wall rps rss per_k <"$work/$protocol.$round/figures"
    printf '  round %d %-3s requests %5d  wall %6.2f s  %7.1f req/s  cpu %6.2f s  %6.3f cpu s/1k req  rss %6.1f MB  connections %s  (%s)\n' \
      "$round" "$protocol" "$requests" "$wall" "$rps" "$cpu" "$per_k" "$rss" "$(awk '{ print $2 }' "$work/$protocol.$round/connections")" \
      "$(awk '{ print $5 }' "$work/$protocol.$round/requests" | sort -u | tr '\n' ' ' | sed 's/ $//')"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column_median() { cat "$work/$1".*/figures | awk -v c="$2" '{ print $c }' | median; }

echo
printf '%-4s %9s %9s %9s %9s %14s %9s\n' '' requests 'wall s' 'req/s' 'cpu s' 'cpu s/1k req' 'rss MB'
for protocol in h2 h1; do
  printf '%-4s %9d %9.2f %9.1f %9.2f %14.3f %9.1f\n' "$protocol" \
    "$(column_median "$protocol" 3)" "$(column_median "$protocol" 5)" "$(column_median "$protocol" 6)" \
    "$(column_median "$protocol" 4)" "$(column_median "$protocol" 8)" "$(column_median "$protocol" 7)"
done
# Ratios of the medians, and the median of each round's own ratio (the two crawls of a round ran side by side).
round_ratio_median() { # column
  for round in $(seq "$rounds"); do
    awk -v c="$1" 'NR == FNR { a = $c; next } { printf "%.4f\n", a / $c }' "$work/h2.$round/figures" "$work/h1.$round/figures"
  done | median
}
echo
printf 'h2/h1 req/s:      %.3f (ratio of medians), %.3f (median of the rounds'"'"' ratios)\n' \
  "$(awk -v a="$(column_median h2 6)" -v b="$(column_median h1 6)" 'BEGIN { print a / b }')" "$(round_ratio_median 6)"
printf 'h2/h1 cpu s:      %.3f (ratio of medians), %.3f (median of the rounds'"'"' ratios)\n' \
  "$(awk -v a="$(column_median h2 4)" -v b="$(column_median h1 4)" 'BEGIN { print a / b }')" "$(round_ratio_median 4)"
printf 'h2/h1 cpu s/1k:   %.3f (ratio of medians)\n' \
  "$(awk -v a="$(column_median h2 8)" -v b="$(column_median h1 8)" 'BEGIN { print a / b }')"
echo "every crawl: requests counted = requests nginx logged, each over the protocol asked for"
