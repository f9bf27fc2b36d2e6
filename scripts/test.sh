#!/usr/bin/env bash
# test.sh: the whole test suite: unit and binary tests, fuzz corpus replay, and
# the end-to-end test against the real Claude Code CLI (installed by the harness's
# setup.sh from the npm registry when missing). SKIP_E2E=1 skips the last part.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
go test -count=1 ./...
if [ "${SKIP_E2E:-0}" != 1 ]; then
  "$root/scripts/e2e.sh"
fi
