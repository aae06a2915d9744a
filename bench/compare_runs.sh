#!/usr/bin/env bash
# Issue 23's compare target, in one run: rankmetrics compare over RUNS TREC
# runs of QUERIES x 100 lines against evaluating the same runs one after
# another with eval, on the same data, the two sides alternating.
#
#   bash bench/compare_runs.sh                    # 4 runs of 10M lines, 3 repetitions
#   QUERIES=10000 REPS=5 bash bench/compare_runs.sh
#
# Data (made once, in DATA, default bench/out/compare_runs): bench/gen's TREC
# pair (qrels.txt, run1.txt), and runs 2..RUNS with the same lines and the
# score column perturbed (awk, seeded by the run's number), so sorted by qid
# as run 1. Each eval runs with one worker (--workers 1: one core), compare
# with WORKERS (default: the number of CPUs); compare runs the t-test only
# (--test t), so that the statistics do not hide the reading. Figures:
# minimum and median of REPS repetitions for CPU (user+sys) and wall, the
# largest peak RSS; compare's output is checked to be the same bytes with
# --workers 1. The target: compare's wall <= 1.3 x the evals' wall /
# WORKERS. Its wall against the evals' CPU / WORKERS is printed beside it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
QUERIES=${QUERIES:-100000}
RUNS=${RUNS:-4}
REPS=${REPS:-3}
WORKERS=${WORKERS:-$(nproc)}
DATA=${DATA:-bench/out/compare_runs}
BIN=${BIN:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$BIN" ]; then
	BIN=$tmp/rankmetrics
	go build -o "$BIN" ./cmd/rankmetrics
fi
mkdir -p "$DATA"
if [ ! -s "$DATA/run$RUNS.txt" ] || [ "$(cat "$DATA/queries" 2>/dev/null)" != "$QUERIES" ]; then
	go run ./bench/gen -queries "$QUERIES" -items 100 -formats trec -out "$DATA" > /dev/null
	mv "$DATA/run.txt" "$DATA/run1.txt"
	for k in $(seq 2 "$RUNS"); do
		awk -v k="$k" 'BEGIN { srand(k) } { printf "%s %s %s %s %.3f r%d\n", $1, $2, $3, $4, $5 + (rand() - 0.5) * k * 0.5, k }' \
			"$DATA/run1.txt" > "$DATA/run$k.txt"
	done
	echo "$QUERIES" > "$DATA/queries"
fi
runs=()
for k in $(seq 1 "$RUNS"); do runs+=("$DATA/run$k.txt"); done
cat "$DATA/qrels.txt" "${runs[@]}" > /dev/null # page cache warm
echo "load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs of $QUERIES x 100 lines; eval --workers 1, compare --workers $WORKERS; $(nproc) CPUs"
: > "$tmp/t.eval"
: > "$tmp/t.compare"
for _ in $(seq "$REPS"); do
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" bash -c 'bin=$1 w=$2 q=$3; shift 3
		for r in "$@"; do "$bin" eval --quiet --workers "$w" -m map "$q" "$r" > /dev/null; done' _ "$BIN" 1 "$DATA/qrels.txt" "${runs[@]}"
	cat "$tmp/t" >> "$tmp/t.eval"
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$BIN" compare --workers "$WORKERS" -m map --test t "$DATA/qrels.txt" "${runs[@]}" > "$tmp/out.w"
	cat "$tmp/t" >> "$tmp/t.compare"
done
"$BIN" compare --workers 1 -m map --test t "$DATA/qrels.txt" "${runs[@]}" > "$tmp/out.1"
cmp -s "$tmp/out.1" "$tmp/out.w" && same="the same bytes" || same="DIFFERENT bytes"
# stats FILE: minimum and median of the wall and of the CPU, largest RSS (MB).
stats() {
	local w c
	w=$(awk '{ print $1 }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)] }')
	c=$(awk '{ print $2 + $3 }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)] }')
	echo "$w $c $(awk '$4 > r { r = $4 } END { print r / 1024 }' "$1")"
}
read -r ew ewm ec ecm er <<< "$(stats "$tmp/t.eval")"
read -r cw cwm cc ccm cr <<< "$(stats "$tmp/t.compare")"
printf '%-28s wall %6.2f s (median %6.2f)  CPU %6.2f s (median %6.2f)  peak RSS %6.1f MB\n' \
	"eval x $RUNS (1 core), one after another" "$ew" "$ewm" "$ec" "$ecm" "$er" \
	"compare of the $RUNS runs" "$cw" "$cwm" "$cc" "$ccm" "$cr"
awk -v cw="$cw" -v ew="$ew" -v ec="$ec" -v cc="$cc" -v w="$WORKERS" -v same="$same" 'BEGIN {
	t = 1.3 * ew / w
	printf "target: compare wall <= 1.3 x evals wall / %d = %.2f s: %.2f s, %.2fx the evals wall / %d: %s\n", w, t, cw, cw / (ew / w), w, (cw <= t ? "met" : "NOT met")
	printf "against the evals CPU / %d (their time on one core): %.2fx; compare CPU / evals CPU: %.2f\n", w, cw / (ec / w), cc / ec
	printf "compare --workers 1 and %d: %s\n", w, same }'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
