#!/usr/bin/env bash
# Measures rankmetrics and its peers in one run on the same generated data
# and prints the table of ratios (see bench/README.md).
#
#   bash bench/run.sh            # everything (a few minutes: ranx alone takes ~1.5 min)
#   SKIP_SLOW=1 bash bench/run.sh  # without ranx, trec_eval and TF-Ranking
#
# The trec_eval rows (bench/treceval.sh, text in $OUT/treceval.txt) come
# last; bench/README.md records them.
#
# Environment: QUERIES (default 100000 lists of 100 items), DATA (bench/data),
# OUT (bench/out), FLOOR (the shared floor programs, ../shared/bench/floor),
# TFR_PYTHON (the parity venv's python, parity/.venv/bin/python), REPS (5).
# One-core figures run under taskset -c 0; the others use the whole machine.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${DATA:-bench/data}
OUT=${OUT:-bench/out}
QUERIES=${QUERIES:-100000}
FLOOR=${FLOOR:-../shared/bench/floor}
TFR_PYTHON=${TFR_PYTHON:-parity/.venv/bin/python}
REPS=${REPS:-5}
SKIP_SLOW=${SKIP_SLOW:-0}
PEERS=bench/peers
VENV=bench/.venv
RES=$OUT/results.jsonl

say() { echo "== $*" >&2; }
one_core() { taskset -c 0 env GOMAXPROCS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 NUMBA_NUM_THREADS=1 "$@"; }

mkdir -p "$OUT" "$PEERS"
: > "$RES"

say "data"
[ -f "$DATA/data.bin" ] || go run ./bench/gen -out "$DATA" -queries "$QUERIES"
[ -f "$DATA/small/data.tsv" ] || go run ./bench/gen -out "$DATA/small" -queries $((QUERIES / 10)) -formats tsv

say "build"
go build -o "$PEERS/rankmetrics" ./cmd/rankmetrics
go build -o "$PEERS/mapbench" ./bench/mapbench
go build -o "$PEERS/linefloor" ./bench/linefloor
gcc -O3 -march=native "$FLOOR/sortbench.c" -o "$PEERS/sortbench"
rm -rf "$PEERS/gosort-src" && cp -r "$FLOOR/gosort" "$PEERS/gosort-src" && chmod -R u+w "$PEERS/gosort-src"
(cd "$PEERS/gosort-src" && go build -o ../gosort .)
if [ ! -x "$VENV/bin/python" ]; then
	python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q ranx pytrec-eval-terrier numpy
fi
PY="$VENV/bin/python"

say "compute only, one core"
one_core "$PEERS/mapbench" -data "$DATA/data.bin" -reps "$REPS" -cases one-core >> "$RES"
one_core "$PEERS/sortbench" "$DATA/data.bin" > "$OUT/sortbench.txt"
"$PY" bench/py/floor_parse.py floor-c "$OUT/sortbench.txt" >> "$RES"
one_core "$PEERS/gosort" "$DATA/data.bin" > "$OUT/gosort.txt"
"$PY" bench/py/floor_parse.py floor-go "$OUT/gosort.txt" >> "$RES"
for ties in stable random; do
	one_core "$PY" bench/py/numpy_tf.py compute --bin "$DATA/data.bin" --ties "$ties" --repeat "$REPS" >> "$RES"
done
if [ "$SKIP_SLOW" != 1 ] && [ -x "$TFR_PYTHON" ]; then
	for batch in 1024 100000; do
		one_core "$TFR_PYTHON" bench/py/tfr_peer.py --bin "$DATA/data.bin" --threads 1 --batch "$batch" >> "$RES" || say "TF-Ranking peer failed"
	done
else
	say "TF-Ranking peer skipped (no $TFR_PYTHON, or SKIP_SLOW=1)"
fi

say "compute only, 1 and 2 workers"
"$PEERS/mapbench" -data "$DATA/data.bin" -reps "$REPS" -cases scaling | sed 's/worker(s)"/worker(s)#scaling"/' >> "$RES"

say "end to end"
RM="${RANKMETRICS:-$PEERS/rankmetrics}"
if ! "$RM" eval -h > /dev/null 2>&1; then
	echo "run.sh: $RM has no eval command (cmd/rankmetrics/main.go must dispatch \"eval\" to runEval)" >&2
	exit 1
fi
E2E=("$PY" bench/py/e2e.py --repeat 3 --map-json map)
# The I/O floor (issue 23): one core reads the input files and finds every
# line end, page cache warm; every end-to-end figure is also given as a
# ratio to the floor of its files, measured here, in the same run.
floors() {
	one_core "$PEERS/linefloor" -what "floor trec pair" -reps "$REPS" "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
	"$PY" bench/py/e2e.py --repeat 3 --peer "wc -l" --what "floor trec pair" -- taskset -c 0 wc -l "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
	one_core "$PEERS/linefloor" -what "floor tsv" -reps "$REPS" "$DATA/data.tsv" >> "$RES"
	one_core "$PEERS/linefloor" -what "floor tsv, 1/10 size" -reps "$REPS" "$DATA/small/data.tsv" >> "$RES"
	one_core "$PEERS/linefloor" -what "floor parquet" -reps "$REPS" "$DATA/data.parquet" >> "$RES"
	one_core "$PEERS/linefloor" -what "floor rkm1" -reps "$REPS" "$DATA/data.bin" >> "$RES"
}
floors
MAP1=("${E2E[@]}")
MAP1[3]=5 # --repeat 5 for the rows with targets
"${MAP1[@]}" --peer rankmetrics --what "e2e trec -m map, 1 worker" -- "$RM" eval --quiet --format json -m map --workers 1 "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
"${MAP1[@]}" --peer rankmetrics --what "e2e trec -m map, 2 workers" -- "$RM" eval --quiet --format json -m map --workers 2 "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
"${MAP1[@]}" --peer rankmetrics --what "e2e trec -m map, 1 worker, --unsorted error" -- "$RM" eval --quiet --format json -m map --workers 1 --unsorted error "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e trec" -- "$RM" eval --quiet --format json --ties stable "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e trec, random ties" -- "$RM" eval --quiet --format json "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e sorted tsv" -- "$RM" eval --quiet --format json --ties stable "$DATA/data.tsv" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e sorted tsv, 1/10 size" -- "$RM" eval --quiet --format json --ties stable "$DATA/small/data.tsv" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e parquet" -- "$RM" eval --quiet --format json --ties stable "$DATA/data.parquet" >> "$RES"
"${E2E[@]}" --peer rankmetrics --what "e2e rkm1" -- "$RM" eval --quiet --format json --ties stable "$DATA/data.bin" >> "$RES"
floors # again after the rankmetrics rows: table.py takes the smaller figure
"$PY" bench/py/numpy_tf.py e2e-tsv --tsv "$DATA/data.tsv" --repeat 3 >> "$RES"
if [ "$SKIP_SLOW" != 1 ]; then
	"$PY" bench/py/trec_eval_peer.py "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES"
	"$PY" bench/py/ranx_peer.py "$DATA/qrels.txt" "$DATA/run.txt" >> "$RES" 2> "$OUT/ranx.log"
fi

if [ "$SKIP_SLOW" != 1 ]; then
	# The trec_eval command line against trec_eval 10.0 -O3 on the same
	# TREC pair (issue 12; upstream stopped after 100 CPU seconds).
	say "rankmetrics trec_eval against trec_eval 10.0"
	DATA="$DATA" QUERIES="$QUERIES" REPS=3 UP_REPS="${UP_REPS:-1}" UP_CPU_LIMIT="${UP_CPU_LIMIT:-100}" \
		bash bench/treceval.sh | tee "$OUT/treceval.txt" >&2
fi

say "results in $RES"
"$PY" bench/py/table.py "$RES"
