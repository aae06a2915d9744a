#!/usr/bin/env bash
# Live check of the keras-rs and torchmetrics profiles against the real
# keras-rs 0.4.0 (JAX on CPU) and torchmetrics 1.9.0 (CPU torch): draws
# batches with a fresh seed (or SEED), records what the libraries compute
# (generate.py), and runs the Go golden test on them. Last line:
# "N passed, M failed" (a case is one metric, cutoff and option set on one
# batch; every value, per list, list weights, totals and overall, must be
# equal to the library's to the bit).
#
# Usage: parity/profiles/check.sh [SEED] [BATCHES]
# KEEP=FILE keeps the generated cases in FILE, and reuses FILE when it
# exists (the Go test run again on the same cases, without Python).
# Needs a venv with the libraries (PY, default /tmp/prof/bin/python):
#   python3.11 -m venv /tmp/prof && /tmp/prof/bin/pip install keras-rs==0.4.0 "jax[cpu]" torchmetrics==1.9.0 torch
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${1:-$(date +%s)}
BATCHES=${2:-45}
PY=${PY:-/tmp/prof/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "seed $SEED, $BATCHES batches per profile"
if [ -n "${KEEP:-}" ] && [ -f "$KEEP" ]; then
	echo "reusing $KEEP (made by generate.py --seed $SEED --batches $BATCHES)"
	cp "$KEEP" "$tmp/golden_live.jsonl.gz"
else
	KERAS_BACKEND=jax "$PY" parity/profiles/generate.py --seed "$SEED" --batches "$BATCHES" --out "$tmp/golden_live.jsonl.gz" 2>"$tmp/gen.err" || { cat "$tmp/gen.err" >&2; exit 1; }
	if [ -n "${KEEP:-}" ]; then cp "$tmp/golden_live.jsonl.gz" "$KEEP"; fi
fi
out=$(RANKMETRICS_PROFILES_GOLDEN="$tmp/golden_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./metric/ -run '^TestProfileGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'golden_live.jsonl.gz:[0-9]+: ' | head -20 || true
echo "$out" | grep -oE '(keras-rs|torchmetrics)( float64)?( \(rows or batch > 32\))?: [0-9]+ passed, [0-9]+ failed' || true
echo "$out" | grep -oE 'every value at 0 ulp.*' || true
echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1
