#!/usr/bin/env bash
# e2e.sh: end-to-end tests with the real Claude Code CLI, offline, through the
# shared harness (../shared/harness/claude-real): installs the pinned CLI from the
# npm registry if it is not there yet, builds the plugin, runs e2e/ tests.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CLAUDE_REAL_HARNESS=${CLAUDE_REAL_HARNESS:-$(cd "$root/.." && pwd)/shared/harness/claude-real}
export CLAUDE_REAL_PREFIX=${CLAUDE_REAL_PREFIX:-/tmp/claude-real}
if [ ! -x "$CLAUDE_REAL_PREFIX/bin/claude" ] || [ ! -x "$CLAUDE_REAL_PREFIX/bin/fakeapi" ]; then
  "$CLAUDE_REAL_HARNESS/setup.sh" "$CLAUDE_REAL_PREFIX" >/dev/null
fi
"$root/scripts/build.sh"
cd "$root"
CML_E2E=1 go test -count=1 -timeout 15m ./e2e/ "$@"
