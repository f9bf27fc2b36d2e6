#!/usr/bin/env bash
# e2e.sh [go test flags]: end-to-end tests with the real Claude Code CLI,
# offline: scripts/setup-claude.sh installs the pinned CLI from the npm
# registry when it is not there yet, the plugin is built, and the e2e/ tests
# (and the claude extractor's real-CLI test) run it against internal/fakeapi.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CML_CLAUDE=${CML_CLAUDE:-$("$root/scripts/setup-claude.sh")}
export CML_CLAUDE
"$root/scripts/build.sh"
cd "$root"
CML_E2E=1 go test -count=1 -timeout 15m ./e2e/ "$@"
CML_E2E=1 go test -count=1 -timeout 5m -run 'TestClaudeRealCLI' ./internal/llm/
