#!/usr/bin/env bash
# Issue 23's eval targets in one run: `rankmetrics eval -m map` on a TREC
# pair against the I/O floor of the same files (bench/linefloor: one core
# reads them and counts their line ends) and against the work floor
# (bench/workfloor, C at -O3 when gcc is there, and its Go port gofloor:
# one core does only the work MAP needs, checking nothing), with --workers 1
# (one core) and --workers 2, the plain and the gzipped pair. The commands alternate, REPS
# rounds; each row gives the min and median wall and CPU (user+sys) time
# and the peak RSS (/usr/bin/time), and the ratios use the minima. The
# outputs of every --workers are checked to be the same bytes.
#
#   bash bench/input.sh                  # QUERIES=50000: 5M run lines, 5M qrels lines
#   QUERIES=100000 REPS=7 bash bench/input.sh
#
# BUILD (default /tmp/rankmetrics-input) holds the binary, the data (DATA)
# and the outputs. Run it on an idle machine: the 2-worker ratio needs the
# second core.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
QUERIES=${QUERIES:-50000}
REPS=${REPS:-5}
BUILD=${BUILD:-/tmp/rankmetrics-input}
DATA=${DATA:-$BUILD/data-$QUERIES}
mkdir -p "$BUILD"
[ -f "$DATA/run.txt" ] || go run ./bench/gen -out "$DATA" -queries "$QUERIES" -formats trec >&2
for f in qrels run; do
	[ -f "$DATA/$f.txt.gz" ] || gzip -1 -c "$DATA/$f.txt" > "$DATA/$f.txt.gz"
done
go build -o "$BUILD/rankmetrics" ./cmd/rankmetrics
go build -o "$BUILD/linefloor" ./bench/linefloor
go build -o "$BUILD/gofloor" ./bench/workfloor/gofloor
WORKFLOOR=
if command -v gcc > /dev/null; then
	gcc -O3 -march=native bench/workfloor/workfloor.c -o "$BUILD/workfloor" && WORKFLOOR=$BUILD/workfloor
fi
RM=$BUILD/rankmetrics
LOG=$BUILD/input.log
: > "$LOG"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

timed() { # NAME CMD...: one run, appended to the log as NAME wall user sys maxrss_kb
	local name=$1
	shift
	/usr/bin/time -o "$BUILD/time.txt" -f "%e %U %S %M" "$@" > "$BUILD/out-${name// /_}.txt"
	echo "$name $(cat "$BUILD/time.txt")" >> "$LOG"
}
for r in $(seq "$REPS"); do
	taskset -c 0 "$BUILD/linefloor" -what floor -reps 3 "$DATA/qrels.txt" "$DATA/run.txt" |
		python3 -c 'import json,sys; print("floor", json.load(sys.stdin)["seconds"], 0, 0, 0)' >> "$LOG"
	if [ -n "$WORKFLOOR" ]; then
		taskset -c 0 "$WORKFLOOR" "$DATA/qrels.txt" "$DATA/run.txt" 3 |
			python3 -c 'import json,sys; print("workfloor", json.load(sys.stdin)["seconds"], 0, 0, 0)' >> "$LOG"
	fi
	taskset -c 0 "$BUILD/gofloor" "$DATA/qrels.txt" "$DATA/run.txt" 3 |
		python3 -c 'import json,sys; print("gofloor", json.load(sys.stdin)["seconds"], 0, 0, 0)' >> "$LOG"
	for w in 1 2; do
		timed "plain w$w" "$RM" eval --quiet --format json -m map --workers $w "$DATA/qrels.txt" "$DATA/run.txt"
		timed "gzip w$w" "$RM" eval --quiet --format json -m map --workers $w "$DATA/qrels.txt.gz" "$DATA/run.txt.gz"
	done
done
for f in plain gzip; do
	cmp -s "$BUILD/out-${f}_w1.txt" "$BUILD/out-${f}_w2.txt" || { echo "input.sh: $f: --workers 1 and 2 print different bytes" >&2; exit 1; }
done
# The same values from the gzipped pair (the JSON names the input paths).
cmp -s <(grep -v '"paths"' "$BUILD/out-plain_w1.txt") <(grep -v '"paths"' "$BUILD/out-gzip_w1.txt") ||
	{ echo "input.sh: the gzipped pair gives other values" >&2; exit 1; }
python3 - "$LOG" "$REPS" <<'PY'
import collections, statistics as st, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    name = " ".join(f[:-4])
    wall, user, sys_, rss = map(float, f[-4:])
    rows[name].append((wall, user + sys_, rss / 1024))
floor = min(w for w, _, _ in rows["floor"])
print(f"| REPS={sys.argv[2]} | wall min / median s | CPU min / median s | peak RSS MB | wall / floor | CPU / floor |")
print("|---|---|---|---|---|---|")
print(f"| I/O floor (1 core: read + line ends) | {floor:.3f} / {st.median(w for w, _, _ in rows['floor']):.3f} | | | 1x | |")
if rows["workfloor"]:
    wf = [w for w, _, _ in rows["workfloor"]]
    print(f"| work floor (bench/workfloor: C -O3, 1 core, MAP's work, no checks) | {min(wf):.3f} / {st.median(wf):.3f} | | | {min(wf)/floor:.1f}x | |")
gf = [w for w, _, _ in rows["gofloor"]]
print(f"| the same work in Go (bench/workfloor/gofloor) | {min(gf):.3f} / {st.median(gf):.3f} | | | {min(gf)/floor:.1f}x | |")
for name in ["plain w1", "plain w2", "gzip w1", "gzip w2"]:
    v = rows[name]
    w = [x[0] for x in v]; c = [x[1] for x in v]; m = max(x[2] for x in v)
    print(f"| eval -m map, {name.replace('w', '--workers ')} | {min(w):.3f} / {st.median(w):.3f} | {min(c):.3f} / {st.median(c):.3f} | {m:.1f} | {min(w)/floor:.1f}x | {min(c)/floor:.1f}x |")
def best(n): return min(x[0] for x in rows[n])
w1 = best("plain w1")
print()
print("| issue 23 target | measured | met |")
print("|---|---|---|")
print(f"| eval -m map --workers 1 <= 6x the floor | {w1:.3f} s = {w1/floor:.1f}x | {'yes' if w1 <= 6*floor else 'no'} |")
for f in ["plain", "gzip"]:
    s = best(f + " w1") / best(f + " w2")
    print(f"| --workers 2 >= 1.7x the throughput of --workers 1 ({f}) | {s:.2f}x | {'yes' if s >= 1.7 else 'no'} |")
PY
