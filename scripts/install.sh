#!/usr/bin/env bash
# install.sh: builds the plugin's binaries into bin/ and registers the plugin with
# your Claude Code: through `claude plugin marketplace add` + `claude plugin install`
# when the claude CLI is on PATH, else by merging the hooks into ~/.claude/settings.json
# (your other settings and hooks are kept; a .bak copy is written first).
# Extra arguments go to `claude-memory-layer install` (e.g. --mode settings, --dry-run).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v go >/dev/null 2>&1 || { echo "install: Go is needed to build the plugin (https://go.dev/dl/)" >&2; exit 1; }
"$root/scripts/build.sh"
exec "$root/bin/claude-memory-layer" install --plugin-dir "$root" "$@"
