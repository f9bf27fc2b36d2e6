#!/usr/bin/env bash
# bench.sh [flags]: builds the binaries and prints the benchmark table (see scripts/bench/main.go;
# flags: -runs N, -events 0,10000,100000; -mcp measures only the MCP server; -hooks only the hook table;
# -compare OLDBIN compares an older build's hooks with these, call by call; -shape uniform for the older stores;
# -team compares the prompt hook with n/10 own + n teammates' memories against n + n/10 own;
# -rss DATADIR -prompts FILE -cwd DIR: the prompt hook's peak RSS over your own prompts on a real store).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./scripts/build.sh "$out" 2>/dev/null
go run ./scripts/bench -bin "$out" "$@"
