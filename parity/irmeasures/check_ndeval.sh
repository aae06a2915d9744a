#!/usr/bin/env bash
# Live check of the diversity measures (metric/ndeval) against the real
# ir_measures 0.4.3 and pyndeval 0.0.8: draws cases with a fresh seed (or
# SEED), records what ir_measures gives (generate_ndeval.py), and runs the
# Go golden test on them. Last line: "N passed, M failed" (a case is one
# measure on one qrels/run pair, every value to the bit; measures
# ir_measures refuses are counted apart).
#
# Usage: parity/irmeasures/check_ndeval.sh [SEED] [CASES]
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${1:-$(date +%s)}
CASES=${2:-4}
PY=${PY:-/tmp/irv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $CASES cases"
"$PY" parity/irmeasures/generate_ndeval.py --seed "$SEED" --cases "$CASES" --out "$tmp/ndeval_live.jsonl.gz" 2>"$tmp/gen.err"
out=$(RANKMETRICS_NDEVAL_GOLDEN="$tmp/ndeval_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./metric/ndeval/ -run '^TestGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'golden_test.go:[0-9]+: ' | grep -v 'passed, ' | head -20 || true
echo "$out" | grep -oE '[0-9]+ refused.*' | tail -1 | sed 's/; [0-9]* passed.*//'
echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1
