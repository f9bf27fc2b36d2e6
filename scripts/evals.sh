#!/usr/bin/env bash
# evals.sh [BINDIR]: every recall evaluation of ../shared/eval in one table,
# the way docs/recall.md reports them: real-sessions-2 by fold (tune on one,
# check on the other), real-sessions, the reversal-tagged follow-ups flagged
# with both sides, and the conflict sets (dev, renamed, made up). Without
# BINDIR it builds this checkout. A developer's tool: the evaluation sets
# are third-party data kept beside the repository, never in it, so a clone
# without ../shared has nothing to run (the tests do not use this).
#
# Per-prompt results go to $OUT (default a temporary folder, printed):
# A.json, B.json, rs.json as score_hook.py --json writes them.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
eval_dir=${EVAL_DIR:-$(cd "$root/.." && pwd)/shared/eval}
if [ ! -d "$eval_dir/real-sessions-2" ]; then
  echo "evals.sh: no evaluation sets at $eval_dir (set EVAL_DIR)" >&2
  exit 1
fi
bin=${1:-}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  trap 'rm -rf "$bin"' EXIT
  "$root/scripts/build.sh" "$bin"
fi
bin=$(cd "$bin" && pwd)
out=${OUT:-$(mktemp -d /tmp/evals.XXXXXX)}
mkdir -p "$out"
s2=$eval_dir/real-sessions-2
# The folds as real-sessions-2/README.md names them.
fold_a=(10-box-os GamePlanPro cdev llm-guard nexus-dmeo start teamwork week3-ticket-booking-system)
fold_b=(EchoContext-Factory casacolinacare-v2 harness-lab myblog outreachiq_hack storia-mobile website-1-wun-production will-pre-launch)
projects() { for p in "$@"; do printf -- '--project\n%s\n' "$p"; done; }
cd "$root"
# The two folds run side by side (one core each); real-sessions after.
mapfile -t a_args < <(projects "${fold_a[@]}")
mapfile -t b_args < <(projects "${fold_b[@]}")
python3 "$s2/score_hook.py" "$bin" "$s2" "${a_args[@]}" --json "$out/A.json" -q > "$out/A.txt" &
python3 "$s2/score_hook.py" "$bin" "$s2" "${b_args[@]}" --json "$out/B.json" -q > "$out/B.txt" &
wait
python3 "$eval_dir/real-sessions/score_hook.py" "$bin" "$eval_dir/real-sessions" --json "$out/rs.json" -q > "$out/rs.txt"
renamed=$out/conflicts-renamed.jsonl
python3 "$root/testdata/conflicts-renamed/rename.py" "$eval_dir/conflicts/dev.jsonl" > "$renamed"
for set in dev:"$eval_dir/conflicts/dev.jsonl" renamed:"$renamed" made-up:"$root/testdata/conflicts-renamed/made-up.jsonl"; do
  python3 "$eval_dir/conflicts/run.py" "$bin" "${set#*:}" > "$out/conflicts-${set%%:*}.txt" 2>&1 ||
    echo "run.py failed: see $out/conflicts-${set%%:*}.txt" >> "$out/conflicts-${set%%:*}.txt"
done
python3 - "$out" "$eval_dir" <<'PY'
import json, os, re, sys
out, eval_dir = sys.argv[1:]

def norm(s):  # score_hook.py's matching
    return re.sub(r"\s+", " ", s.lower().replace("`", "").replace("*", ""))

questions = {}
for name in ("real-sessions-2", "real-sessions"):
    for line in open(os.path.join(eval_dir, name, "followups.jsonl"), encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("//"):
            q = json.loads(line)
            questions[q["id"]] = q

def last(path):
    lines = [l for l in open(path, encoding="utf-8").read().splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"

print(f"{'set':<22} {'follow-ups':>10} {'unrelated':>10} {'reversals':>10}")
for label, name in (("real-sessions-2 fold A", "A"), ("real-sessions-2 fold B", "B"), ("real-sessions", "rs")):
    rows = json.load(open(os.path.join(out, name + ".json"), encoding="utf-8"))
    fu = [r for r in rows if r["kind"] == "followup"]
    un = [r for r in rows if r["kind"] == "unrelated"]
    # A reversal is flagged with both sides when the context holds the
    # conflict block, a gold phrase (the newer side) and a stale one.
    rev = [r for r in fu if "reversal" in questions[r["id"]].get("tags", [])]
    flagged = [r for r in rev if r["hit"] and "[CONFLICT WARNINGS]" in r["context"]
               and any(norm(s) in norm(r["context"]) for s in questions[r["id"]].get("stale", []))]
    print(f"{label:<22} {sum(r['hit'] for r in fu):>4}/{len(fu):<5} {sum(r['false'] for r in un):>4}/{len(un):<5} {len(flagged):>4}/{len(rev):<5}")
    misses = [r["id"] for r in fu if not r["hit"]]
    falses = [r["id"] for r in un if r["false"]]
    print(f"  missed {' '.join(misses) or '-'}; injected for unrelated {' '.join(falses) or '-'}")
for name in ("dev", "renamed", "made-up"):
    print(f"conflicts {name:<12} {last(os.path.join(out, 'conflicts-' + name + '.txt'))}")
print(f"(per-prompt results in {out})")
PY
