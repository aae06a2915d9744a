#!/usr/bin/env bash
# Live check of the diversity measures (metric/ndeval) against the real
# ir_measures 0.4.3 and pyndeval 0.0.8: draws cases with a fresh seed (or
# SEED), records what ir_measures gives (generate_ndeval.py), and runs two
# Go tests on them: metric/ndeval's TestGolden and evaluate's
# TestIRMeasuresDiversityGolden (eval's engine, the measures parsed from
# their names). Last line: both added up, "N passed, M failed" (a case is
# one measure on one qrels/run pair, every value to the bit; measures
# ir_measures refuses must be refused, and are not counted).
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
pkg=$(RANKMETRICS_NDEVAL_GOLDEN="$tmp/ndeval_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./metric/ndeval/ -run '^TestGolden$' -count=1 -v 2>&1 || true)
eng=$(RANKMETRICS_NDEVAL_GOLDEN="$tmp/ndeval_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./evaluate/ -run '^TestIRMeasuresDiversityGolden$' -count=1 -v 2>&1 || true)
echo "$pkg$eng" | grep -E '_test.go:[0-9]+: ' | grep -vE 'passed, [0-9]+ failed' | head -20 || true
p=$(echo "$pkg" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
e=$(echo "$eng" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
echo "metric/ndeval (package): ${p:-no result}"
echo "evaluate (eval's engine, from the registry's names): ${e:-no result}"
# Last line: both checks added up (a missing result counts as a failure).
read -r p1 _ p2 _ <<<"${p:-0 passed, 1 failed}"
read -r e1 _ e2 _ <<<"${e:-0 passed, 1 failed}"
echo "$((p1 + e1)) passed, $((p2 + e2)) failed"
