#!/usr/bin/env bash
# Live check of every ir_measures measure against the real ir_measures
# 0.4.3 and its providers, with a fresh seed (or SEED). Five parts, each
# drawing its cases with the seed:
#   1. pytrec_eval's and the other measures (generate.py): eval's engine,
#      evaluate's TestIRMeasuresGolden;
#   2. the judged, msmarco, gdeval, compat and accuracy providers on
#      numeric query ids, which gdeval's format check takes (generate.py
#      --set providers): the same test;
#   3. rankmetrics ir_measures against python -m ir_measures, byte for
#      byte (cli.py, cmd/rankmetrics' TestIRMeasuresCLIGolden);
#   4. the C/W/L measures (check_family.sh cwl: metric/cwl and eval's engine);
#   5. the diversity measures (check_family.sh ndeval: metric/ndeval and eval's
#      engine).
# Last line: all parts added up, "N passed, M failed" (a case is one
# measure on one qrels/run pair, or one command line; a part that gives
# no result line counts as one failure).
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
export PY
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $CASES cases"
total_p=0 total_f=0
# add LABEL "N passed, M failed": prints the part's line and adds it up.
add() {
	local r=${2:-}
	if [[ ! $r =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		echo "$1: no result"
		r="0 passed, 1 failed"
	else
		echo "$1: $r"
	fi
	read -r p _ f _ <<<"$r"
	total_p=$((total_p + p))
	total_f=$((total_f + f))
}
"$PY" parity/irmeasures/generate.py --seed "$SEED" --cases "$CASES" --out "$tmp/golden_live_all.jsonl.gz" 2>"$tmp/gen.err" || tail -3 "$tmp/gen.err"
"$PY" parity/irmeasures/generate.py --seed "$SEED" --cases "$CASES" --set providers --qids numeric \
	--out "$tmp/golden_live_providers.jsonl.gz" 2>>"$tmp/gen.err" || tail -3 "$tmp/gen.err"
out=$(RANKMETRICS_IRMEASURES_GOLDEN="$tmp/golden_live_*.jsonl.gz" GOTOOLCHAIN=local \
	go test ./evaluate/ -run '^TestIRMeasuresGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'irmeasures_golden_test.go:[0-9]+: .*(query|summary|queries|golden)' | head -20 || true
echo "$out" | grep -oE 'golden cases passed.*' | cut -c1-400 || true
add "pytrec_eval and providers (eval's engine)" "$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)"
"$PY" parity/irmeasures/cli.py --seed "$SEED" --cases 2 --python "$PY" --out "$tmp/cli_live.jsonl.gz" 2>>"$tmp/gen.err" || tail -3 "$tmp/gen.err"
out=$(RANKMETRICS_IRMEASURES_CLI="$tmp/cli_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./cmd/rankmetrics/ -run '^TestIRMeasuresCLIGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'irmeasures_golden_test.go:[0-9]+: seed' | head -10 || true
add "rankmetrics ir_measures (bytes)" "$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)"
out=$(parity/irmeasures/check_family.sh cwl "$SEED" "$CASES" 2>&1 || true)
echo "$out" | sed -n '2,$p' | sed '$d'
add "C/W/L (check_family.sh cwl)" "$(echo "$out" | tail -1)"
out=$(parity/irmeasures/check_family.sh ndeval "$SEED" "$CASES" 2>&1 || true)
echo "$out" | sed -n '2,$p' | sed '$d'
add "diversity (check_family.sh ndeval)" "$(echo "$out" | tail -1)"
echo "$total_p passed, $total_f failed"
