#!/usr/bin/env bash
# Creates parity/.venv with the real TensorFlow + TF-Ranking used for the parity
# golden file. Idempotent: does nothing (but verify) when the venv already has
# the pinned versions. Prints the wall time it took.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
py="${PYTHON:-python3.11}"
command -v "$py" >/dev/null 2>&1 || py=python3
start=$(date +%s)

check() {
	"$venv/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m
want = {"tensorflow": "2.15.1", "tensorflow-ranking": "0.5.5"}
for name, ver in want.items():
    if m.version(name) != ver:
        raise SystemExit(1)
if int(m.version("numpy").split(".")[0]) >= 2:
    raise SystemExit(1)
try:
    m.version("tensorflow-cpu")
    raise SystemExit(1)  # overlapping wheel from an older requirements.txt
except m.PackageNotFoundError:
    pass
PY
}

if [ -x "$venv/bin/python" ] && check; then
	echo "parity/.venv is up to date"
else
	rm -rf "$venv"
	"$py" -m venv "$venv"
	"$venv/bin/pip" install --quiet -r "$here/requirements.txt"
	check || { echo "setup.sh: installed versions do not match requirements.txt" >&2; exit 1; }
fi
"$venv/bin/python" -c 'import tensorflow as tf, tensorflow_ranking as tfr, numpy as np; print("tensorflow", tf.__version__, "tensorflow_ranking", tfr.__version__, "numpy", np.__version__)' 2>/dev/null
echo "setup.sh took $(( $(date +%s) - start )) s"
