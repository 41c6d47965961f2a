# Sourced by the bench scripts that crawl a real documentation tree: serve a folder
# with nginx on 127.0.0.1 (a port the OS picks) under /site/, logging each request's
# status, URI, connection, method and protocol, one line each, to $access_log.
#
#   serve_tree ROOT WORK_DIR                sets nginx_pid, port, site (http://127.0.0.1:PORT/site/), access_log
#   serve_tree ROOT WORK_DIR CERT KEY       the same over TLS with HTTP/2 offered (https://…); the caller
#                                           trusts CERT's CA first (NODE_EXTRA_CA_CERTS), the probe fetches
#   stop_tree                    stops it (safe to call twice)
#
# The caller checks that nginx exists first (nginx_binary prints its path, or nothing).

nginx_binary() {
  command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true
}

serve_tree() { # root work [cert key]
  local root=$1 work=$2 cert=${3:-} key=${4:-} nginx_bin mime_types listen scheme=http
  nginx_bin="$(nginx_binary)"
  port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  mime_types=/etc/nginx/mime.types
  [ -f "$mime_types" ] || mime_types=""
  mkdir -p "$work/nginx/tmp" "$work/nginx/logs"
  listen="listen 127.0.0.1:$port;"
  if [ -n "$cert" ]; then
    listen="listen 127.0.0.1:$port ssl http2; ssl_certificate $cert; ssl_certificate_key $key;"
    scheme=https
  fi
  cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  ${mime_types:+include $mime_types;}
  default_type application/octet-stream;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  log_format bench '\$status \$request_uri \$connection \$request_method \$server_protocol';
  access_log $work/nginx/logs/access.log bench;
  sendfile on;
  keepalive_requests 100000;
  server {
    $listen
    location /site/ { alias $root/; }
  }
}
EOF
  "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" &
  nginx_pid=$!
  site="$scheme://127.0.0.1:$port/site/"
  for _ in $(seq 50); do
    node -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$site" 2>/dev/null && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx/logs/error.log" >&2; echo "nginx did not start" >&2; return 1; }
    sleep 0.1
  done
  access_log="$work/nginx/logs/access.log"
  : >"$access_log"
}

stop_tree() {
  if [ -n "${nginx_pid:-}" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -QUIT "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  nginx_pid=""
}
