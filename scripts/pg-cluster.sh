#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests and benchmarks of the PostgreSQL store
# (docs/shared-sandbox.md): Debian's server, a fresh cluster in a temporary folder, fsync on,
# listening on 127.0.0.1 only, trust authentication for the one local user.
#
#   scripts/pg-cluster.sh start DIR   initdb + start; prints the connection URL on stdout
#   scripts/pg-cluster.sh stop DIR    fast shutdown, then removes DIR
#   scripts/pg-cluster.sh url DIR     the URL of a cluster started in DIR
#   scripts/pg-cluster.sh restart DIR fast shutdown, then start again on the same port
#   scripts/pg-cluster.sh halt DIR    fast shutdown, keeping DIR (the database is down)
#   scripts/pg-cluster.sh resume DIR  start a halted cluster again on the same port
#
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user
# (runuser); as anyone else it runs as that user. The package is installed when missing
# (root only: apt-get).
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop|url|restart|halt|resume DIR" >&2
  exit 2
fi

find_bin() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  if [[ -z "$found" && "$(id -u)" == 0 ]]; then
    echo "pg-cluster: installing Debian's postgresql package" >&2
    (apt-get install -y postgresql >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y postgresql >/dev/null 2>&1; })
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  fi
  if [[ -z "$found" ]]; then
    echo "pg-cluster: no PostgreSQL server found (apt-get install postgresql)" >&2
    exit 1
  fi
  echo "$found"
}

as_owner() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# fsync stays on (the default): the store's durability tests kill servers and restart
# PostgreSQL. Loopback only; the socket lives in the cluster's own folder.
start_server() {
  as_owner "$1/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $2 -c unix_socket_directories=$dir -c max_connections=300 -c fsync=on" start >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }
}

free_port() {
  node -e 'const s=require("node:net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

case "$cmd" in
  start)
    bin="$(find_bin)"
    mkdir -p "$dir"
    if [[ "$(id -u)" == 0 ]]; then
      chown postgres: "$dir"
      if ! runuser -u postgres -- test -w "$dir"; then
        echo "pg-cluster: the postgres user cannot reach $dir (a folder above it is private); use a folder it can traverse" >&2
        exit 1
      fi
    fi
    chmod 700 "$dir"
    port="$(free_port)"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    start_server "$bin" "$port"
    echo "postgres://postgres@127.0.0.1:$port/postgres" | as_owner tee "$dir/url" >/dev/null
    cat "$dir/url"
    ;;
  stop)
    bin="$(find_bin)"
    if [[ -d "$dir/data" ]]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  url)
    cat "$dir/url"
    ;;
  restart)
    bin="$(find_bin)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    ;;
  halt)
    bin="$(find_bin)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    ;;
  resume)
    bin="$(find_bin)"
    url="$(cat "$dir/url")"
    port="${url##*:}"
    start_server "$bin" "${port%%/*}"
    ;;
  *)
    echo "usage: $0 start|stop|url|restart|halt|resume DIR" >&2
    exit 2
    ;;
esac
