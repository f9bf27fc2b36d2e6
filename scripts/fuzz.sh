#!/usr/bin/env bash
# fuzz.sh: run every fuzz target of the module in turn for FUZZTIME each
# (default 10m), with FUZZPAR workers (default: GOMAXPROCS). A failure stops
# the run; its input is left under the package's testdata/fuzz/ for the
# corpus replay that `go test` (and so CI) does.
#
#   ./scripts/fuzz.sh                 # every target, 10 minutes each
#   FUZZTIME=30s ./scripts/fuzz.sh FuzzFilter FuzzDecode
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
fuzztime=${FUZZTIME:-10m}
par=()
if [ -n "${FUZZPAR:-}" ]; then par=(-parallel "$FUZZPAR"); fi

# Every "func FuzzX(" in a _test.go file, as "package-dir target".
mapfile -t targets < <(grep -rl --include='*_test.go' '^func Fuzz' . |
  while read -r f; do
    grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed "s|^func ||; s|^|$(dirname "$f") |"
  done | sort)

want=" $* "
for t in "${targets[@]}"; do
  dir=${t% *}; name=${t#* }
  if [ $# -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
  echo "== $name ($dir, $fuzztime)"
  start=$(date +%s)
  out=$(go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" "${par[@]}" "$dir" 2>&1) || {
    echo "$out" | tail -40
    echo "FAIL $name"
    exit 1
  }
  execs=$(echo "$out" | grep -o 'execs: [0-9]*' | tail -1 | grep -o '[0-9]*' || true)
  echo "ok   $name: ${execs:-?} execs in $(( $(date +%s) - start ))s"
done
