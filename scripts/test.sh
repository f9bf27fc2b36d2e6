#!/usr/bin/env bash
# test.sh: the whole test suite: unit and binary tests, fuzz corpus replay, and
# the end-to-end tests against the real Claude Code CLI and a real browser
# (e2e.sh; SKIP_E2E=1 skips them). Every part runs even when one before it
# failed; the run ends with one line per part (passed, FAILED, or skipped
# and why) and exits 1 if any part failed.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
. "$root/scripts/parts.sh"
. "$root/scripts/e2e.sh"
part "unit and binary tests (go test ./...)" go test -count=1 -timeout 40m ./...
if [ "${SKIP_E2E:-0}" = 1 ]; then
  skip "end-to-end tests (e2e.sh)" "SKIP_E2E=1"
else
  e2e_parts
fi
parts_summary
