#!/usr/bin/env bash
# hostile.sh: runs every hostile hook input (internal/handler/hostile_test.go)
# through the five hook binaries built from cmd/, and prints the table: case,
# exit code, wall time, then the exit-code counts and the slowest run per hook.
# Fails if any hook exits non-zero or prints anything but one JSON object.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
go test ./internal/handler -run '^TestHostileInputs$' -count=1 -v 2>&1 |
  sed -n '/^ *hook  *case/,/^ *max wall time/p' | sed 's/^        //'
test "${PIPESTATUS[0]}" -eq 0
