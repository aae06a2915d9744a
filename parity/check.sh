#!/usr/bin/env bash
# Live parity check: N fresh cases with a new seed, through the real TF-Ranking
# and through `rankmetrics compute`, compared by compare.py.
#   parity/check.sh N [SEED]
# N counts every compared case: about 1 in 30 is a tie case (run in TF under
# 200 seeds, sent to compute with ties "expected"), 1 in 100 has NaN or Inf
# weights (an error by design, or TF's bits), the rest are tie-free and must
# match float32 bit for bit. The last line is exactly "N passed, M failed".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
n="${1:-200}"
seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
case "$n" in ''|*[!0-9]*) echo "usage: parity/check.sh N [SEED]" >&2; exit 2 ;; esac

"$here/setup.sh" >&2
py="$here/.venv/bin/python"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ties=$(( n / 30 ))
nonfinite=$(( n / 100 ))
exact=$(( n - ties - nonfinite ))
echo "check.sh: seed $seed, $exact tie-free + $nonfinite NaN/Inf-weight + $ties tie cases" >&2
start=$(date +%s)
"$py" "$here/generate.py" --exact "$exact" --ties "$ties" --nonfinite-weights "$nonfinite" --nan-scores 0 --no-edge \
	--seed "$seed" --out "$tmp/cases.jsonl" >&2
echo "check.sh: TF side took $(( $(date +%s) - start )) s" >&2

# compute ignores "expect"; dropping it just keeps the input small. Tie cases
# are answered with the closed-form Expected policy.
"$py" - "$tmp/cases.jsonl" "$tmp/in.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        c = json.loads(line)
        c.pop("expect", None)
        if c.get("ties") == "random":
            c["ties"] = "expected"
        out.write(json.dumps(c, separators=(",", ":")) + "\n")
PY
(cd "$root" && go run ./cmd/rankmetrics compute --input "$tmp/in.jsonl") > "$tmp/out.jsonl" || true
"$py" "$here/compare.py" "$tmp/cases.jsonl" "$tmp/out.jsonl"
