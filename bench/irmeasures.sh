#!/usr/bin/env bash
# rankmetrics ir_measures against python -m ir_measures 0.4.3 with the same
# twenty measures (pytrec_eval's, and those of the judged, msmarco,
# gdeval, compat and cwl_eval providers), in one run on the same generated
# TREC pair (bench/gen: QUERIES lists of 100 documents, one qrels line per
# document, labels 0 to 4). Prints, per tool, CPU seconds (user+sys) and
# wall seconds (the best of its repetitions) and peak RSS, the ratios, and
# checks that both print the same bytes (the twenty summaries).
#
#   bash bench/irmeasures.sh                   # QUERIES=10000: a 1M-line run
#   QUERIES=100000 PY_REPS=1 bash bench/irmeasures.sh   # the 10M-line pair of issue 21
#
# REPS (default 3) and PY_REPS (default 1) are the repetitions of each;
# PY (default /tmp/irv/bin/python) has ir_measures and its providers
# (parity/irmeasures/README.md: Install); BUILD (default
# /tmp/irmeasures-bench) holds the data, the binary and the outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
QUERIES=${QUERIES:-10000}
REPS=${REPS:-3}
PY_REPS=${PY_REPS:-1}
PY=${PY:-/tmp/irv/bin/python}
BUILD=${BUILD:-/tmp/irmeasures-bench}
DATA=${DATA:-$BUILD/data-$QUERIES}
MEASURES=(AP AP@100 "nDCG@10" nDCG P@10 "P(rel=2)@10" R@100 RR Rprec Bpref Success@10 IPrec@0.5
	"Judged@10" "RR@10" "ERR@20" "nDCG(dcg='exp-log2')@10" Compat "RBP(rel=1)" "SDCG(max_rel=4)@10" "NERR8(max_rel=4)@10")
mkdir -p "$BUILD"
[ -f "$DATA/run.txt" ] || go run ./bench/gen -out "$DATA" -queries "$QUERIES" -formats trec >&2
GOTOOLCHAIN=local go build -o "$BUILD/rankmetrics" ./cmd/rankmetrics
echo "pair: $(wc -l <"$DATA/run.txt") run lines, $(wc -l <"$DATA/qrels.txt") qrels lines ($QUERIES queries); ${#MEASURES[@]} measures"
# best NAME REPS CMD...: runs CMD REPS times, stdout to $BUILD/out.NAME;
# sets cpu, wall (the best of each) and rss (KiB, the largest).
best() {
	local name=$1 reps=$2
	shift 2
	cpu="" wall="" rss=0
	for _ in $(seq "$reps"); do
		/usr/bin/time -f '%e %U %S %M' -o "$BUILD/time" "$@" >"$BUILD/out.$name"
		read -r w u s kb < <(tail -1 "$BUILD/time")
		c=$(echo "$u + $s" | bc)
		if [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc)" = 1 ]; then cpu=$c; fi
		if [ -z "$wall" ] || [ "$(echo "$w < $wall" | bc)" = 1 ]; then wall=$w; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	printf '%-28s cpu %8.2f s  wall %8.2f s  peak RSS %6d MiB  (best of %d)\n' "$name" "$cpu" "$wall" $((rss / 1024)) "$reps"
}
best "rankmetrics ir_measures" "$REPS" "$BUILD/rankmetrics" ir_measures "$DATA/qrels.txt" "$DATA/run.txt" "${MEASURES[@]}"
rm_cpu=$cpu rm_wall=$wall
best "python -m ir_measures" "$PY_REPS" env PYTHONHASHSEED=0 "$PY" -m ir_measures "$DATA/qrels.txt" "$DATA/run.txt" "${MEASURES[@]}"
py_cpu=$cpu py_wall=$wall
if cmp -s "$BUILD/out.rankmetrics ir_measures" "$BUILD/out.python -m ir_measures"; then
	echo "outputs: the same bytes ($(wc -l <"$BUILD/out.python -m ir_measures") lines)"
else
	echo "outputs DIFFER:"
	diff "$BUILD/out.rankmetrics ir_measures" "$BUILD/out.python -m ir_measures" | head -20 || true
fi
printf 'ratio (ir_measures / rankmetrics): cpu %.1fx, wall %.1fx\n' "$(echo "$py_cpu / $rm_cpu" | bc -l)" "$(echo "$py_wall / $rm_wall" | bc -l)"
