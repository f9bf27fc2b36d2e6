#!/usr/bin/env bash
# install.sh: builds the plugin's binaries into bin/ and registers the plugin with
# your Claude Code: through `claude plugin marketplace add` + `claude plugin install`
# when the claude CLI is on PATH, else by merging the hooks into ~/.claude/settings.json
# (your other settings and hooks are kept; a .bak copy of an existing file is written first).
# Extra arguments go to `claude-memory-layer install` (e.g. --mode settings, --dry-run).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v go >/dev/null 2>&1 || { echo "install: Go is needed to build the plugin (https://go.dev/dl/)" >&2; exit 1; }
# The first build fetches and compiles the dependencies (SQLite in Go among
# them): a minute or more in which go prints nothing. Say so, and that it
# is still going.
echo "install: building the plugin into $root/bin (the first build takes a minute or two)..."
start=$SECONDS
(while sleep 10; do echo "install: still building ($((SECONDS - start)) s)"; done) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null' EXIT
"$root/scripts/build.sh"
kill "$ticker" 2>/dev/null
trap - EXIT
echo "install: built in $((SECONDS - start)) s"
exec "$root/bin/claude-memory-layer" install --plugin-dir "$root" "$@"
