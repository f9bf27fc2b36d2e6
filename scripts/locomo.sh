#!/usr/bin/env bash
# locomo.sh [RUNFILE]: the LoCoMo retrieval evaluation exactly as
# ../shared/eval/locomo/README.md describes it, through the CLI: for each
# conversation a fresh store, `import --dir`, then one `search --json --limit 10`
# per question; writes the run file and prints score.py's table.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval_dir=${LOCOMO_DIR:-$(cd "$root/.." && pwd)/shared/eval/locomo}
run=${1:-$(mktemp /tmp/locomo-run.XXXXXX.jsonl)}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$root/scripts/build.sh" "$bin" 2>/dev/null
cli="$bin/claude-memory-layer"
: > "$run"
for conv_dir in "$eval_dir"/dev/transcripts/*/; do
  conv=$(basename "$conv_dir")
  data=$(mktemp -d)
  start=$(date +%s.%N)
  CLAUDE_MEMORY_DIR=$data "$cli" import --dir "$conv_dir" >/dev/null
  echo "imported $conv in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s" >&2
  python3 - "$eval_dir/dev/questions.jsonl" "$conv" "$cli" "$data" >> "$run" <<'PY'
import json, os, subprocess, sys
questions, conv, cli, data = sys.argv[1:]
env = dict(os.environ, CLAUDE_MEMORY_DIR=data)
for line in open(questions, encoding="utf-8"):
    q = json.loads(line)
    if q["conv"] != conv:
        continue
    out = subprocess.run([cli, "search", q["question"], "--json", "--limit", "10"],
                         env=env, capture_output=True, text=True, check=True).stdout
    results = [r["source_uuids"] for r in json.loads(out)["results"]]
    print(json.dumps({"qid": q["qid"], "results": results}))
PY
  rm -rf "$data"
done
echo "run file: $run" >&2
python3 "$eval_dir/score.py" --questions "$eval_dir/dev/questions.jsonl" --run "$run" --ks 5,10
