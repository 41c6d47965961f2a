#!/usr/bin/env bash
# Issue "a link checker users rely on": check the links of a real documentation
# tree served by nginx on 127.0.0.1, with linkladder (resources and external checks
# on, as by default) and with linkinator (`linkinator --recurse`, from npm) in the
# same run, each under `/usr/bin/time -v`. Prints per tool the CPU and wall seconds,
# peak RSS, requests and requests per distinct URL (nginx's access log), and the
# broken links each reported against the tree's ground truth (bench/support/link-truth.ts:
# the tree's files read directly): how many it missed and how many it reported falsely.
#
#   npm run build && bash bench/link-check.sh
#
# Settings (environment):
#   LINK_CHECK_PACKAGE  Debian package of the tree, for the notice    (default postgresql-doc-15)
#   LINK_CHECK_ROOT     the directory to serve                        (default /usr/share/doc/$LINK_CHECK_PACKAGE/html)
#   LINK_CHECK_SEED     the page to start from, inside the root       (default index.html)
#   LINKINATOR          the linkinator command (default: `linkinator` on PATH; skipped with a notice when absent)
#   LINKINATOR_CONCURRENCY  its --concurrency                          (default 8, as the tree's nginx is one worker)
#
# Nothing outside 127.0.0.1 is contacted: linkladder runs with --no-check-external and
# linkinator with --skip for every URL not on the tree's server (external checks are
# measured by the loopback tests, whose "external" hosts are other 127.0.0.x addresses).
#
# Where nginx, /usr/bin/time or the tree is missing, it prints a notice and exits 0.

set -euo pipefail

package="${LINK_CHECK_PACKAGE:-postgresql-doc-15}"
root="${LINK_CHECK_ROOT:-/usr/share/doc/$package/html}"
seed_page="${LINK_CHECK_SEED:-index.html}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$repo/dist/linkladder.mjs"
truth="$repo/dist/bench/support/link-truth.js"
linkinator="${LINKINATOR:-$(command -v linkinator || true)}"

skip() {
  echo "link-check: skipped: $1"
  exit 0
}

# shellcheck source=support/serve-tree.sh
. "$repo/bench/support/serve-tree.sh"
[ -n "$(nginx_binary)" ] || skip "nginx is not installed (apt-get install nginx)"
[ -x /usr/bin/time ] || skip "/usr/bin/time is not installed (apt-get install time)"
[ -f "$root/$seed_page" ] || skip "no tree at $root/$seed_page (apt-get install $package, or set LINK_CHECK_ROOT)"
if [ ! -f "$cli" ] || [ ! -f "$truth" ]; then
  echo "link-check: $cli or $truth is missing; run npm run build first" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/linkladder-link-check.XXXXXX")"
cleanup() {
  stop_tree
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

serve_tree "$root" "$work" || exit 1
seed="$site$seed_page"
echo "link-check: $root on $seed; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# One tool's run: time it, keep its slice of the access log, print its figures.
run_tool() { # name command...
  local name=$1 before
  shift
  before="$(wc -l <"$access_log")"
  /usr/bin/time -v -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || true
  tail -n +"$((before + 1))" "$access_log" >"$work/$name.requests"
  awk -v name="$name" -v requests="$(wc -l <"$work/$name.requests")" -v distinct="$(awk '{ print $4, $2 }' "$work/$name.requests" | sort -u | wc -l)" '
    /User time/ { user = $NF } /System time/ { sys = $NF } /Maximum resident/ { rss = $NF }
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + p[i] }
    END { printf "  %-11s cpu %6.2f s  wall %6.2f s  rss %6.1f MB  requests %5d  distinct (method, URL) %5d  per distinct %.2f\n",
      name, user + sys, wall, rss / 1024, requests, distinct, (distinct > 0) ? requests / distinct : 0 }
  ' "$work/$name.time"
}

node "$truth" "$root" "$site" >"$work/truth.all"

run_tool linkladder node "$cli" crawl "$seed" --db "$work/index.db" --allow-private --no-check-external
node "$cli" audit --db "$work/index.db" --code LINK_BROKEN --format csv --out "$work/linkladder.csv" || true
if [ -n "$linkinator" ]; then
  # Its --recurse stays under the seed's path: the folder, not index.html.
  run_tool linkinator "$linkinator" "$site" --recurse --concurrency "${LINKINATOR_CONCURRENCY:-8}" --format csv \
    --skip "^(?!http://127\\.0\\.0\\.1:$port/)"
else
  echo "  linkinator: skipped: not installed (npm install -g linkinator, or set LINKINATOR)"
fi

# Judge each tool's broken (page, target) pairs against the truth of the pages it reached.
node --input-type=module - "$work" "$site" <<'EOF'
import { readFileSync, existsSync } from 'node:fs';
const [work, site] = process.argv.slice(2);
const lines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
// A CSV row's fields (quoted fields may hold commas and newlines).
function* csvRows(text) {
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); yield row; row = []; field = ''; }
    else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); yield row; }
}
const truth = new Set(lines(`${work}/truth.all`));
const reached = (name) => new Set(lines(`${work}/${name}.requests`).map((l) => `http://${new URL(site).host}${l.split(' ')[1]}`));
const pairsOf = (file, pageColumn, targetColumn, keep) => {
  if (!existsSync(file)) return undefined;
  const [header, ...rows] = [...csvRows(readFileSync(file, 'utf8'))];
  const page = header.indexOf(pageColumn), target = header.indexOf(targetColumn);
  return new Set(rows.filter((r) => keep(r, header)).map((r) => `${r[page]}\t${r[target].replace(/#.*/, '')}`));
};
const tools = {
  linkladder: pairsOf(`${work}/linkladder.csv`, 'page', 'target', () => true),
  linkinator: pairsOf(`${work}/linkinator.out`, 'parent', 'url', (r, h) => r[h.indexOf('state')] === 'BROKEN'),
};
for (const [name, found] of Object.entries(tools)) {
  if (found === undefined) continue;
  const pages = reached(name);
  const expected = [...truth].filter((pair) => pages.has(pair.split('\t')[0]));
  const missed = expected.filter((pair) => !found.has(pair));
  const sameSite = [...found].filter((pair) => pair.split('\t')[1].startsWith(site));
  const falsely = sameSite.filter((pair) => !truth.has(pair));
  console.log(`  ${name.padEnd(11)} broken (page, target) pairs on the site: ${sameSite.length} reported, ${expected.length} in the truth of the pages it reached; missed ${missed.length}, false ${falsely.length}`);
  for (const pair of missed.slice(0, 3)) console.log(`      missed: ${pair.replace('\t', ' -> ')}`);
  for (const pair of falsely.slice(0, 3)) console.log(`      false:  ${pair.replace('\t', ' -> ')}`);
}
EOF
