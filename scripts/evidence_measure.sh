#!/bin/bash
# Re-measure the evidence contract over the corpus (README "Evidence contract"):
#   scripts/evidence_measure.sh [BIN] [OUTDIR]
# runs `byop check --playbook evidence_contract_v1` on every corpus output (one process
# each, as a user would) and counts the flagged findings per check with evidence_count.py.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "${1:-$here/../target/release/byop}")
out=$(realpath -m "${2:-/tmp/byop-evidence}")
corpus="$here/../../shared/corpus/contract-reviews"
mkdir -p "$out"; rm -f "$out"/*.json "$out/rc.txt" "$out/store.db"*
cd "$corpus"
for f in outputs/*.ai.md; do
  b=$(basename "$f" .ai.md)
  "$bin" check --mode deterministic --playbook evidence_contract_v1 --format json \
    --db "$out/store.db" --fail-on never "$f" > "$out/$b.json" 2> "$out/$b.err"
  echo "$b $?" >> "$out/rc.txt"
done
python3 "$here/evidence_count.py" "$out"
