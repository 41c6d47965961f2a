#!/usr/bin/env bash
# The negotiated manual's site: the Apache HTTP Server manual (Debian's apache2-doc) served on
# 127.0.0.1 by a private Apache the way the Apache project serves its manual: every
# page is a set of language variants (x.html.en, x.html.de …) found by MultiViews,
# one tree mapped under each language prefix (/manual/de/x.html and /manual/x.html
# are the same resource), the prefix naming the preferred language, and
# `ForceLanguagePriority Prefer Fallback`: /manual/de/x.html answers 200 with the
# English variant when no German one exists, with `Content-Location: x.html.en`,
# a variant inside the requested directory.
#
#   bash bench/support/serve-negotiated-manual.sh start [PORT]   prints shell assignments:
#       origin=http://127.0.0.1:PORT  seed=$origin/manual/  dir=…  root=…  access_log=…  pid=…
#   bash bench/support/serve-negotiated-manual.sh stop PORT      stops it and removes its folder
#
# Start with no PORT takes a free one. Everything lives in one folder,
# ${TMPDIR:-/tmp}/linkladder-negotiated-manual.PORT: the config, its own ServerRoot,
# PidFile, ErrorLog, the access log, and the variant tree (symbolic links to the
# installed files). No system service, no file under /etc is touched. As root it
# installs apache2 and apache2-doc with apt-get when they are missing, and Apache
# serves as www-data (Debian's user) as Debian's own service does; as another user
# it serves as that user.
#
# Debian installs the manual already split by language (/usr/share/doc/apache2-doc/
# manual/<lang>/x.html, with a symbolic link to ../en/x.html where a translation is
# missing) and serves that tree as plain files (Alias /manual in
# /etc/apache2/conf-available/apache2-doc.conf). Here the tree is laid out again as
# the project's own source tree is (each real file of <lang>/ becomes the variant
# x.html.<lang>; the links to ../en/ are dropped, the fallback does their work), and
# the pages are Debian's, whose links are written for /manual/<lang>/x.html. The
# entry /manual/ (and /manual/index.html) is Debian's own top page: links to each
# language's index and a meta refresh to en/index.html.
#
# The access log has one line per request, tab-separated:
#   status  "request line"  file served (%f)  Content-Location  body bytes  connection
# The file is the variant the request resolved to (…/root/mod/core.html.en), the
# same for every URL that served it.

set -euo pipefail

manual="${NEGOTIATED_MANUAL_SOURCE:-/usr/share/doc/apache2-doc/manual}"
apache_bin=/usr/sbin/apache2
modules=/usr/lib/apache2/modules
# The languages of the manual, as the upstream configuration lists them; the
# prefix and the preference order come from this list.
languages=(en da de es fr ja ko pt-br ru tr zh-cn)

usage() {
  echo "usage: $0 start [PORT] | stop PORT" >&2
  exit 2
}

state_dir() { # port
  echo "${TMPDIR:-/tmp}/linkladder-negotiated-manual.$1"
}

free_port() {
  node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

ensure_installed() {
  if [ -x "$apache_bin" ] && [ -f "$manual/en/index.html" ]; then return 0; fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "serve-negotiated-manual: apache2 or apache2-doc is missing, and only root can install them (apt-get install apache2 apache2-doc)" >&2
    return 1
  fi
  # Debian's policy-rc.d in containers keeps the system service from starting; the
  # package's service is left as the package sets it and never started here.
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends apache2 apache2-doc >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends apache2 apache2-doc >&2; }
  [ -x "$apache_bin" ] && [ -f "$manual/en/index.html" ]
}

# The variant tree: <root>/<path>.<lang> for each real file <lang>/<path>; the
# resources (images/, style/) as they are; Debian's top page apart.
lay_out_variants() { # root
  # One node process rather than a fork per file: the tree has ~900 files.
  node - "$manual" "$1" "${languages[@]}" <<'NODE'
const { mkdirSync, readdirSync, symlinkSync, existsSync } = require('node:fs');
const path = require('node:path');
const [manual, root, ...languages] = process.argv.slice(2);
function layOut(lang, from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) layOut(lang, path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.isFile()) {
      mkdirSync(to, { recursive: true });
      symlinkSync(path.join(from, entry.name), path.join(to, `${entry.name}.${lang}`));
    }
  }
}
mkdirSync(root, { recursive: true });
for (const lang of languages) if (existsSync(path.join(manual, lang))) layOut(lang, path.join(manual, lang), root);
for (const name of ['images', 'style']) if (existsSync(path.join(manual, name))) symlinkSync(path.join(manual, name), path.join(root, name));
mkdirSync(path.join(root, '..', 'entry'), { recursive: true });
symlinkSync(path.join(manual, 'index.html'), path.join(root, '..', 'entry', 'index.html'));
NODE
}

write_config() { # dir root port
  local dir=$1 root=$2 port=$3 prefixes types_config=/dev/null user_lines="" lang add_language="" remove_type=""
  prefixes="$(IFS='|'; echo "${languages[*]}")"
  [ -f /etc/mime.types ] && types_config=/etc/mime.types
  if [ "$(id -u)" -eq 0 ]; then
    user_lines=$'User www-data\nGroup www-data'
  fi
  for lang in "${languages[@]}"; do
    add_language+="  AddLanguage $lang .$lang"$'\n'
    remove_type+=" .$lang"
  done
  cat >"$dir/apache2.conf" <<EOF
# Written by bench/support/serve-negotiated-manual.sh; private to this folder.
ServerRoot "$dir"
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile "$dir/apache2.pid"
DefaultRuntimeDir "$dir/run"
ErrorLog "$dir/logs/error.log"
LogLevel warn
$user_lines

LoadModule mpm_event_module $modules/mod_mpm_event.so
LoadModule authz_core_module $modules/mod_authz_core.so
LoadModule mime_module $modules/mod_mime.so
LoadModule negotiation_module $modules/mod_negotiation.so
LoadModule alias_module $modules/mod_alias.so
LoadModule dir_module $modules/mod_dir.so
LoadModule setenvif_module $modules/mod_setenvif.so

StartServers 1
ServerLimit 2
ThreadsPerChild 16
MaxRequestWorkers 32
KeepAlive On
MaxKeepAliveRequests 0
KeepAliveTimeout 15

TypesConfig $types_config
AddType text/html .html
AddType text/css .css
AddType text/javascript .js
AddType image/png .png
AddType image/gif .gif
AddType image/svg+xml .svg
DirectoryIndex index.html

# Every request, one line: status, request line, the file it resolved to (the
# final request's, after negotiation), Content-Location, bytes, connection.
LogFormat "%>s\t\"%r\"\t%f\t%{Content-Location}o\t%B\t%{c}a:%{remote}p" manual
CustomLog "$dir/logs/access.log" manual

<Directory />
  Options None
  AllowOverride None
  Require all denied
</Directory>

# /manual/ itself is Debian's top page (links to every language's index).
AliasMatch "^/manual/(index\\.html)?\$" "$dir/entry/index.html"
<Directory "$dir/entry">
  Options FollowSymLinks
  Require all granted
</Directory>

# A doubled language prefix goes to the last one (as the project's configuration does).
RedirectMatch 301 "^/manual(?:/($prefixes)){2,}(/.*)?\$" "/manual/\$1\$2"
# One tree under every language prefix and under none.
AliasMatch "^/manual(?:/(?:$prefixes))?(/.*)?\$" "$root\$1"

<Directory "$root">
  Options FollowSymLinks MultiViews
  AllowOverride None
  Require all granted
  AddDefaultCharset off
  # mime.types gives .es and .tr a type (JavaScript, troff): here they are languages.
  RemoveType$remove_type
$add_language  SetEnvIf Request_URI "^/manual/($prefixes)/" prefer-language=\$1
  LanguagePriority ${languages[*]}
  ForceLanguagePriority Prefer Fallback
</Directory>
EOF
}

start() { # [port]
  local port=${1:-} dir root
  ensure_installed
  [ -n "$port" ] || port="$(free_port)"
  dir="$(state_dir "$port")"
  if [ -f "$dir/apache2.pid" ] && kill -0 "$(cat "$dir/apache2.pid")" 2>/dev/null; then
    echo "serve-negotiated-manual: already serving on port $port ($dir)" >&2
    return 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir/logs" "$dir/run"
  # Apache's children (www-data) read the tree and the config through this folder.
  chmod 755 "$dir"
  root="$dir/root"
  lay_out_variants "$root"
  write_config "$dir" "$root" "$port"
  "$apache_bin" -f "$dir/apache2.conf" -k start ||
    { cat "$dir/logs/error.log" >&2 2>/dev/null; echo "serve-negotiated-manual: apache did not start" >&2; return 1; }
  local origin="http://127.0.0.1:$port"
  for _ in $(seq 50); do
    node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$origin/manual/en/" 2>/dev/null && break
    sleep 0.1
  done
  node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$origin/manual/en/" 2>/dev/null ||
    { cat "$dir/logs/error.log" >&2; echo "serve-negotiated-manual: apache does not answer on $origin" >&2; return 1; }
  : >"$dir/logs/access.log"
  printf 'origin=%q\nseed=%q\ndir=%q\nroot=%q\naccess_log=%q\npid=%q\n' \
    "$origin" "$origin/manual/" "$dir" "$root" "$dir/logs/access.log" "$(cat "$dir/apache2.pid")"
}

stop() { # port
  local port=${1:-} dir pid
  [ -n "$port" ] || usage
  dir="$(state_dir "$port")"
  [ -f "$dir/apache2.conf" ] || { echo "serve-negotiated-manual: nothing served on port $port" >&2; return 0; }
  if [ -f "$dir/apache2.pid" ]; then
    pid="$(cat "$dir/apache2.pid")"
    "$apache_bin" -f "$dir/apache2.conf" -k stop 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac
