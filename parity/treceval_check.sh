#!/usr/bin/env bash
# Live check of rankmetrics trec_eval against the real trec_eval 10.0 and
# 9.0.8: builds both from ../shared/reference, generates the data sets of
# internal/trecgen N times (default 3) with fresh seeds from SEED (default:
# the clock), adds testdata/treceval/hostile once, runs every flag set of
# parity/treceval_cases.txt on each with both versions, compares standard
# output byte for byte and the exit status, and prints "N passed, M failed"
# last. usage: parity/treceval_check.sh [N] [SEED]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
n=${1:-3}
seed=${2:-$(date +%s)}
build=/tmp/treceval-build
"$here/treceval_build.sh" "$build" || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/rankmetrics" ./cmd/rankmetrics) || exit 1
passed=0 failed=0
for i in $(seq 1 "$n"); do
  s=$((seed + i * 7919))
  d=$work/data$i
  mkdir -p "$d"
  (cd "$root" && go run ./internal/trecgen/cmd/trecgen -seed "$s" -out "$d") || exit 1
  # The hand-made hostile inputs once (malformed lines, duplicates, NaN
  # scores, CRLF, comments, bad measure parameters).
  [ "$i" = 1 ] && cp -r "$root/testdata/treceval/hostile" "$d/"
  "$here/treceval_run_cases.sh" "$d" "$build/trec_eval-10.0/trec_eval" "$build/trec_eval-9.0.8/trec_eval" > "$work/ref$i"
  "$here/treceval_run_cases.sh" "$d" "$work/rankmetrics trec_eval --compat 10.0" "$work/rankmetrics trec_eval --compat 9.0.8" > "$work/got$i"
  # Split both streams into records and compare record by record.
  python3 - "$work/ref$i" "$work/got$i" "$s" > "$work/res$i" <<'PY'
import sys
def records(path):
    data = open(path, 'rb').read()
    out, i = [], 0
    while i < len(data):
        j = data.index(b'\n', i)
        h = data[i:j].decode().split('\t')
        n = int(h[4])
        out.append((h, data[j+1:j+1+n]))
        i = j + 1 + n
    return out
ref, got = records(sys.argv[1]), records(sys.argv[2])
p = f = 0
for (hr, br), (hg, bg) in zip(ref, got):
    if hr[3] == hg[3] and br == bg:
        p += 1
    else:
        f += 1
        print(f"FAIL seed {sys.argv[3]} {hr[2]} {hr[1]} {hr[5]}: exit {hr[3]} vs {hg[3]}", file=sys.stderr)
f += abs(len(ref) - len(got))
print(p, f)
PY
  read -r p f < "$work/res$i"
  passed=$((passed + p)) failed=$((failed + f))
done
echo "seed $seed: $n generations of the $(ls "$work/data1"/*.qrels | wc -l) data sets, hostile inputs once, both versions"
echo "$passed passed, $failed failed"
