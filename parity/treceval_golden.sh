#!/usr/bin/env bash
# Regenerates testdata/treceval: the generated inputs (fixed seed) and
# golden.gz, the outputs and exit statuses of the real trec_eval 10.0 and
# 9.0.8 (built in /tmp from ../shared/reference) for every flag set of
# parity/treceval_cases.txt. go test (cmd/rankmetrics) checks them byte for
# byte. usage: parity/treceval_golden.sh [SEED]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
seed=${1:-20260601}
build=/tmp/treceval-build
"$here/treceval_build.sh" "$build"
out=$root/testdata/treceval
mkdir -p "$out"
(cd "$root" && go run ./internal/trecgen/cmd/trecgen -seed "$seed" -out "$out")
"$here/treceval_run_cases.sh" "$out" "$build/trec_eval-10.0/trec_eval" "$build/trec_eval-9.0.8/trec_eval" | gzip -n -9 > "$out/golden.gz"
echo "seed $seed: $(zcat "$out/golden.gz" | grep -c '^#case') cases in $out/golden.gz ($(wc -c < "$out/golden.gz") bytes)"
