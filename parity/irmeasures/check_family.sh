#!/usr/bin/env bash
# Live check of one family of ir_measures measures that rankmetrics
# computes in a package of its own, against the real ir_measures 0.4.3 and
# the provider: draws cases with a fresh seed (or SEED), records what
# ir_measures gives, and runs two Go tests on them: the package's
# TestGolden (the package on the pairs joined as ir_measures joins them)
# and eval's engine (the measures parsed from their names). Last line:
# both added up, "N passed, M failed" (a case is one measure on one
# qrels/run pair; a missing result counts as a failure).
#
#   cwl     the C/W/L measures (metric/cwl, cwl-eval 1.0.12, generate_cwl.py;
#           per-topic values within 4 ulps, see metric/cwl's TestGolden)
#   ndeval  the diversity measures (metric/ndeval, pyndeval 0.0.8,
#           generate_ndeval.py; every value to the bit; measures
#           ir_measures refuses must be refused, and are not counted)
#
# Usage: parity/irmeasures/check_family.sh cwl|ndeval [SEED] [CASES]
# (parity/irmeasures/check.sh runs both, with the other measures.)
set -euo pipefail
cd "$(dirname "$0")/../.."
FAMILY=${1:?usage: check_family.sh cwl|ndeval [SEED] [CASES]}
SEED=${2:-$(date +%s)}
CASES=${3:-4}
PY=${PY:-/tmp/irv/bin/python}
case "$FAMILY" in
cwl) pkgenv=RANKMETRICS_CWL_GOLDEN engenv=RANKMETRICS_IRMEASURES_GOLDEN engtest=TestIRMeasuresGolden ;;
ndeval) pkgenv=RANKMETRICS_NDEVAL_GOLDEN engenv=RANKMETRICS_NDEVAL_GOLDEN engtest=TestIRMeasuresDiversityGolden ;;
*) echo "check_family.sh: unknown family $FAMILY (cwl or ndeval)" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $CASES cases"
live="$tmp/${FAMILY}_live.jsonl.gz"
"$PY" "parity/irmeasures/generate_$FAMILY.py" --seed "$SEED" --cases "$CASES" --out "$live" 2>"$tmp/gen.err"
pkg=$(env "$pkgenv=$live" GOTOOLCHAIN=local \
	go test "./metric/$FAMILY/" -run '^TestGolden$' -count=1 -v 2>&1 || true)
eng=$(env "$engenv=$live" GOTOOLCHAIN=local \
	go test ./evaluate/ -run "^$engtest\$" -count=1 -v 2>&1 || true)
echo "$pkg$eng" | grep -E '_test.go:[0-9]+: ' | grep -vE 'passed, [0-9]+ failed' | head -20 || true
p=$(echo "$pkg" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
e=$(echo "$eng" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
echo "metric/$FAMILY (package): ${p:-no result}"
echo "evaluate (eval's engine, from the registry's names): ${e:-no result}"
read -r p1 _ p2 _ <<<"${p:-0 passed, 1 failed}"
read -r e1 _ e2 _ <<<"${e:-0 passed, 1 failed}"
echo "$((p1 + e1)) passed, $((p2 + e2)) failed"
