#!/usr/bin/env bash
# team-server.sh: starts a PostgreSQL server in a folder, for a trial of team
# memory on one machine or a small LAN, and sets up a team on it.
#
#   scripts/team-server.sh DIR [TEAM] [MEMBER...]     start (initialising DIR the first time)
#   scripts/team-server.sh --stop DIR                  stop it
#
# The first run creates the server in DIR/data with password (SCRAM)
# authentication, listening on 127.0.0.1 only (PORT, default 54329), the
# team TEAM (default "devs") and a login role for each MEMBER (default: your
# user name), each with a random password written to DIR/pgpass (mode 0600).
# It prints the commands each member runs. Later runs start the same server.
# Needs PostgreSQL's server binaries (Debian: apt-get install postgresql).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
here=$PWD

bin=${PG_BIN:-}
if [ -z "$bin" ]; then
  if command -v initdb >/dev/null 2>&1; then
    bin=$(dirname "$(readlink -f "$(command -v initdb)")")
  else
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  fi
fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "team-server: PostgreSQL's server binaries are missing (Debian: apt-get install postgresql; or set PG_BIN)" >&2
  exit 1
fi

stop=0
if [ "${1:-}" = "--stop" ]; then stop=1; shift; fi
[ $# -ge 1 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
team=${1:-devs}
[ $# -ge 1 ] && shift
members=("$@")
[ ${#members[@]} -gt 0 ] || members=("$(id -un | tr 'A-Z.-' 'a-z__')")
port=${PORT:-54329}

# The server refuses to run as root: run it as the postgres user then.
as=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "team-server: as root, the server runs as the postgres user, which does not exist" >&2; exit 1; }
  as=(runuser -u postgres --)
fi

if [ ${#as[@]} -gt 0 ] && ! "${as[@]}" test -x "$dir"; then
  echo "team-server: the postgres user cannot reach $dir (a parent folder is private): choose another folder" >&2
  exit 1
fi

if [ $stop = 1 ]; then
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop
  exit 0
fi

first=0
if [ ! -f "$dir/data/PG_VERSION" ]; then
  first=1
  mkdir -p "$dir/data" "$dir/sock"
  chmod 700 "$dir/data"
  [ "$(id -u)" = 0 ] && chmod 755 "$dir" && chown postgres: "$dir/data" "$dir/sock"
  su_pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  pwfile=$(mktemp)
  echo "$su_pw" >"$pwfile"
  [ "$(id -u)" = 0 ] && chown postgres "$pwfile"
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=scram-sha-256 --pwfile="$pwfile" -E UTF8 --locale=C >/dev/null
  rm -f "$pwfile"
  umask 077
  echo "127.0.0.1:$port:*:postgres:$su_pw" >"$dir/pgpass"
fi
touch "$dir/server.log"
[ "$(id -u)" = 0 ] && chown postgres "$dir/server.log"
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -h 127.0.0.1 -k $dir/sock" start >/dev/null
echo "PostgreSQL is running on 127.0.0.1:$port (data in $dir/data, log in $dir/server.log)"

if [ $first = 1 ]; then
  export PGPASSFILE="$dir/pgpass"
  cli=bin/claude-memory-layer
  [ -x "$cli" ] || { echo "building $cli"; CGO_ENABLED=0 go build -o bin/ ./cmd/claude-memory-layer; }
  admin="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
  "$cli" team init --url "$admin" --team "$team"
  for m in "${members[@]}"; do
    pw=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
      -c "CREATE ROLE \"$m\" LOGIN PASSWORD '$pw'"
    echo "127.0.0.1:$port:*:$m:$pw" >>"$dir/pgpass"
    "$cli" team add-member --url "$admin" --team "$team" "$m"
  done
  echo
  echo "Each member, in a checkout of the project (passwords are in $dir/pgpass):"
  for m in "${members[@]}"; do
    echo "  $here/$cli team join --url 'postgres://$m:PASSWORD@127.0.0.1:$port/postgres?sslmode=disable' --team $team"
  done
  echo "join writes the password to ~/.pgpass (or \$PGPASSFILE); the data directory keeps the URL without it."
fi
