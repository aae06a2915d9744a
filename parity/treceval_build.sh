#!/usr/bin/env bash
# Builds trec_eval 10.0 and 9.0.8 from ../shared/reference (NIST's
# sources, never committed) into DIR (default /tmp/treceval-build) and
# prints nothing on success. The binaries are DIR/trec_eval-10.0/trec_eval
# and DIR/trec_eval-9.0.8/trec_eval.
set -eu
ref=${TRECEVAL_REFERENCE:-$(cd "$(dirname "$0")/../.." && pwd)/shared/reference}
[ -d "$ref" ] || ref=/work/shared/reference
out=${1:-/tmp/treceval-build}
mkdir -p "$out"
for v in 10.0 9.0.8; do
  if [ ! -x "$out/trec_eval-$v/trec_eval" ]; then
    tar xzf "$ref/trec_eval-$v.tar.gz" -C "$out"
    make -s -C "$out/trec_eval-$v" >/dev/null 2>&1
  fi
done
