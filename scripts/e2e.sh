#!/usr/bin/env bash
# e2e.sh [go test flags]: end-to-end tests with the real Claude Code CLI,
# offline: scripts/setup-claude.sh installs the pinned CLI from the npm
# registry when it is not there yet, the plugin is built, and the e2e/ tests
# (and the claude extractor's real-CLI test) run it against internal/fakeapi.
# Then the dashboard's real-browser test: scripts/setup-chromium.sh installs
# Debian's chromium when missing; screenshots go to $CML_SCREENSHOTS (default:
# a fresh temporary directory, printed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CML_CLAUDE=${CML_CLAUDE:-$("$root/scripts/setup-claude.sh")}
export CML_CLAUDE
"$root/scripts/build.sh"
cd "$root"
CML_E2E=1 go test -count=1 -timeout 15m ./e2e/ "$@"
CML_E2E=1 go test -count=1 -timeout 5m -run 'TestClaudeRealCLI' ./internal/llm/
CML_CHROMIUM=${CML_CHROMIUM:-$("$root/scripts/setup-chromium.sh")}
CML_SCREENSHOTS=${CML_SCREENSHOTS:-$(mktemp -d)/dashboard-screenshots}
export CML_CHROMIUM CML_SCREENSHOTS
echo "dashboard screenshots: $CML_SCREENSHOTS"
CML_BROWSER=1 go test -count=1 -timeout 10m -run 'TestBrowser' ./internal/dashboard/
