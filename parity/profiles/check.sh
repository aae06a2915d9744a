#!/usr/bin/env bash
# Live check of the keras-rs and torchmetrics profiles against the real
# keras-rs 0.4.0 (JAX on CPU) and torchmetrics 1.9.0 (CPU torch): draws
# batches with a fresh seed (or SEED), records what the libraries compute
# (generate.py), and runs the Go golden test on them. Last line:
# "N passed, M failed" (a case is one metric, cutoff and option set on one
# batch; per-list values must be equal to the bit, overall values within
# the test's bound).
#
# Usage: parity/profiles/check.sh [SEED] [BATCHES]
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
KERAS_BACKEND=jax "$PY" parity/profiles/generate.py --seed "$SEED" --batches "$BATCHES" --out "$tmp/golden_live.jsonl.gz" 2>"$tmp/gen.err" || { cat "$tmp/gen.err" >&2; exit 1; }
out=$(RANKMETRICS_PROFILES_GOLDEN="$tmp/golden_live.jsonl.gz" GOTOOLCHAIN=local \
	go test ./metric/ -run '^TestProfileGolden$' -count=1 -v 2>&1 || true)
echo "$out" | grep -E 'golden_live.jsonl.gz:[0-9]+: ' | head -20 || true
echo "$out" | grep -oE '(keras-rs|torchmetrics)( \(rows > 32 items\))?: [0-9]+ passed, [0-9]+ failed' || true
echo "$out" | grep -oE '(every value at 0 ulp|keras-rs, rows > 32 items: every).*' || true
echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1
