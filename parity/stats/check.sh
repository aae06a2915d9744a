#!/usr/bin/env bash
# Live check of the significance package against scipy and statsmodels
# (tests, intervals, BCa, noncentral t, power, topic counts, risk) with a
# fresh seed:
# makes the venv if needed, writes new golden values to a temporary file and
# runs TestScipyGolden on it. The last line is "N passed, M failed".
#   bash parity/stats/check.sh [SEED]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
seed="${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "seed $seed"
"$venv/bin/python" -W ignore "$here/golden.py" --seed "$seed" --out "$tmp/golden.json"
cd "$root"
out="$(RANKMETRICS_SCIPY_GOLDEN="$tmp/golden.json" go test -count=1 -run 'TestScipyGolden$' -v ./significance 2>&1 || true)"
echo "$out" | grep -E 'golden_test.go|FAIL|panic' | grep -v ' passed, ' || true
line="$(echo "$out" | grep -Eo '[0-9]+ passed, [0-9]+ failed' | tail -1)"
if [ -z "$line" ]; then
	echo "$out" | tail -20
	echo "0 passed, 1 failed"
	exit 1
fi
echo "$line"
case "$line" in *", 0 failed") ;; *) exit 1 ;; esac
