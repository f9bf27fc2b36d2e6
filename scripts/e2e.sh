#!/usr/bin/env bash
# e2e.sh [go test flags]: end-to-end tests with the real Claude Code CLI,
# offline: scripts/setup-claude.sh installs the pinned CLI from the npm
# registry when it is not there yet, the plugin is built, and the e2e/ tests
# (and the claude extractor's real-CLI test) run it against internal/fakeapi.
# Then the dashboard's real-browser test: scripts/setup-chromium.sh installs
# Debian's chromium when missing; screenshots go to $CML_SCREENSHOTS (default:
# a fresh temporary directory, printed).
#
# Each part is reported (parts.sh); a part whose setup failed is skipped with
# the reason. test.sh sources this file after its own parts.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  . "$root/scripts/parts.sh"
fi

e2e_parts() {
  local built=1 claude=${CML_CLAUDE:-} chromium=${CML_CHROMIUM:-}
  part "build the plugin" "$root/scripts/build.sh" || built=0
  # The setup scripts print the executable's path; run as a part (in this
  # shell), the function sets the variable.
  setup_claude() { claude=$("$root/scripts/setup-claude.sh"); }
  setup_chromium() { chromium=$("$root/scripts/setup-chromium.sh"); }
  if [ -z "$claude" ]; then
    part "install Claude Code (setup-claude.sh)" setup_claude || claude=
  fi
  if [ "$built" = 0 ]; then
    skip "end-to-end with the real Claude Code" "the plugin did not build"
  elif [ -z "$claude" ]; then
    skip "end-to-end with the real Claude Code" "no Claude Code CLI"
  else
    part "end-to-end with the real Claude Code" env CML_CLAUDE="$claude" CML_E2E=1 go test -count=1 -timeout 30m ./e2e/ "$@"
  fi
  if [ -z "$claude" ]; then
    skip "claude extractor with the real CLI" "no Claude Code CLI"
  else
    part "claude extractor with the real CLI" env CML_CLAUDE="$claude" CML_E2E=1 go test -count=1 -timeout 5m -run 'TestClaudeRealCLI' ./internal/llm/
  fi
  if [ -z "$chromium" ]; then
    part "install Chromium (setup-chromium.sh)" setup_chromium || chromium=
  fi
  if [ -z "$chromium" ]; then
    skip "dashboard in a real browser" "no Chromium"
  else
    local shots=${CML_SCREENSHOTS:-$(mktemp -d)/dashboard-screenshots}
    echo "dashboard screenshots: $shots"
    part "dashboard in a real browser" env CML_CHROMIUM="$chromium" CML_SCREENSHOTS="$shots" CML_BROWSER=1 go test -count=1 -timeout 10m -run 'TestBrowser' ./internal/dashboard/
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  e2e_parts "$@"
  parts_summary
fi
