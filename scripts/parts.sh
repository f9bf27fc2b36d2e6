# parts.sh, sourced by test.sh and e2e.sh: run a suite part by part, keep
# going after a part fails, and end with one line per part: passed, FAILED
# or skipped with the reason. A failure no longer hides the parts after it
# (set -e used to end the run there without a word about them).
parts_report=()
parts_failed=0

# part NAME CMD...: runs CMD as the part NAME and records how it went.
part() {
  local name=$1
  shift
  echo "=== $name"
  if "$@"; then
    parts_report+=("passed   $name")
    return 0
  else
    local code=$?
    parts_report+=("FAILED   $name (exit $code)")
    parts_failed=1
    return "$code"
  fi
}

# skip NAME REASON: records the part NAME as not run, and why.
skip() {
  echo "=== $1: skipped: $2"
  parts_report+=("skipped  $1: $2")
}

# parts_summary prints the report and returns 1 if any part failed.
parts_summary() {
  echo
  echo "=== summary"
  printf '%s\n' "${parts_report[@]}"
  return "$parts_failed"
}
