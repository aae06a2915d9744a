#!/usr/bin/env bash
# Live check of the C/W/L measures (metric/cwl) against the real
# ir_measures 0.4.3 and cwl-eval 1.0.12: draws cases with a fresh seed (or
# SEED), records what ir_measures gives (generate_cwl.py), and runs the Go
# golden test on them. Last line: "N passed, M failed" (a case is one
# measure on one qrels/run pair; per-topic values within 4 ulps, see
# metric/cwl's TestGolden).
#
# Usage: parity/irmeasures/check_cwl.sh [SEED] [CASES]
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${1:-$(date +%s)}
CASES=${2:-4}
PY=${PY:-/tmp/irv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $CASES cases"
"$PY" parity/irmeasures/generate_cwl.py --seed "$SEED" --cases "$CASES" --out "$tmp/cwl_live.jsonl.gz" 2>"$tmp/gen.err"
out=$(RANKMETRICS_CWL_GOLDEN="$tmp/cwl_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./metric/cwl/ -run '^TestGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'golden_test.go:[0-9]+: ' | grep -v 'passed, ' | head -20 || true
echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1
