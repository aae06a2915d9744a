#!/usr/bin/env bash
# Live check against the real ir_measures 0.4.3: draws cases with a fresh
# seed (or SEED), records what ir_measures gives (generate.py: every
# measure; the providers' on numeric query ids) and what python -m
# ir_measures prints (cli.py), and runs the Go golden tests on them.
# Last line: "N passed, M failed" (a case is one measure on one qrels/run
# pair, or one command line).
#
# Usage: parity/irmeasures/check.sh [SEED] [CASES]
# Needs a venv with the reference (PY, default /tmp/irv/bin/python):
#   python3.11 -m venv /tmp/irv && /tmp/irv/bin/pip install "ir-measures==0.4.3" \
#       pytrec-eval-terrier cwl-eval pyndeval scipy statsmodels
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${1:-$(date +%s)}
CASES=${2:-4}
PY=${PY:-/tmp/irv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $CASES cases"
"$PY" parity/irmeasures/generate.py --seed "$SEED" --cases "$CASES" --out "$tmp/golden_live_all.jsonl.gz" 2>"$tmp/gen.err"
# The providers' measures on numeric query ids, which gdeval's format
# check takes.
"$PY" parity/irmeasures/generate.py --seed "$SEED" --cases "$CASES" --set providers --qids numeric \
	--out "$tmp/golden_live_providers.jsonl.gz" 2>>"$tmp/gen.err"
out=$(RANKMETRICS_IRMEASURES_GOLDEN="$tmp/golden_live_*.jsonl.gz" GOTOOLCHAIN=local \
	go test ./evaluate/ -run '^TestIRMeasuresGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'irmeasures_golden_test.go:[0-9]+: .*(query|summary|queries)' | head -20 || true
echo "$out" | grep -oE 'golden cases passed.*' | cut -c1-400 || true
values=$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
echo "values: $values"
# rankmetrics ir_measures against python -m ir_measures, byte for byte.
"$PY" parity/irmeasures/cli.py --seed "$SEED" --cases 2 --python "$PY" --out "$tmp/cli_live.jsonl.gz" 2>>"$tmp/gen.err"
out=$(RANKMETRICS_IRMEASURES_CLI="$tmp/cli_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./cmd/rankmetrics/ -run '^TestIRMeasuresCLIGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'irmeasures_golden_test.go:[0-9]+: seed' | head -10 || true
cli=$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
echo "ir_measures command: $cli"
set -- $values $cli
echo "$(($1 + $5)) passed, $(($3 + $7)) failed"
