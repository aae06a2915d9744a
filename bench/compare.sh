#!/usr/bin/env bash
# rankmetrics compare's statistics against ranx's compare on the same values,
# in the same run: all pairs of COMPARE runs (default 6: 15 pairs) of 10,000
# queries, Fisher's randomization test with SAMPLES (10,000) samples. The
# full benchmark of issue 13 is COMPARE=100 (4,950 pairs); ranx needs hours
# for it, so the default compares fewer runs: both sides' cost is per pair.
#   bash bench/compare.sh            # prints both JSON lines and the ratios
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
COMPARE=${COMPARE:-6}
SAMPLES=${SAMPLES:-10000}
QUERIES=${QUERIES:-10000}
VENV=bench/.venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import ranx' 2>/dev/null; then
	python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q ranx numpy
fi
mkdir -p bench/out
vals=bench/out/compare_values.f64
go run ./bench/comparebench -runs 100 -queries "$QUERIES" -samples "$SAMPLES" -compare "$COMPARE" -values "$vals" | tee bench/out/compare_rankmetrics.json
(cd bench/py && ../../"$VENV"/bin/python ranx_compare_peer.py ../../"$vals" 100 "$QUERIES" --compare "$COMPARE" --samples "$SAMPLES") | tee bench/out/compare_ranx.json
python3 - <<'PY'
import json
a = json.load(open("bench/out/compare_rankmetrics.json"))
b = json.load(open("bench/out/compare_ranx.json"))
print(f"{a['pairs']} pairs x {a['queries']} queries x {a['samples']} samples: "
      f"rankmetrics {a['seconds']:.2f} s wall / {a['cpu_seconds']:.2f} s CPU, "
      f"ranx {b['seconds']:.2f} s wall / {b['cpu_seconds']:.2f} s CPU; "
      f"ratio {b['seconds']/a['seconds']:.0f}x wall, {b['cpu_seconds']/a['cpu_seconds']:.0f}x CPU")
PY
