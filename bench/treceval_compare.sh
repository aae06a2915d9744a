#!/usr/bin/env bash
# Compares two rankmetrics binaries' trec_eval command on one TREC pair:
# the binaries alternate, each figure is the fastest CPU (user+sys) and
# wall of REPS runs (and the median CPU) and the largest peak RSS, and the
# outputs must match.
#
#   bash bench/treceval_compare.sh OLD NEW DATA   # DATA holds qrels.txt, run.txt
set -euo pipefail
old=$1 new=$2 data=$3
REPS=${REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
for args in "-m map" "-m all_trec" "-q -m all_trec"; do
	: > "$tmp/t.old"
	: > "$tmp/t.new"
	for _ in $(seq "$REPS"); do
		for w in old new; do
			bin=$old
			[ $w = new ] && bin=$new
			# shellcheck disable=SC2086 # args holds several flags
			/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$bin" trec_eval $args "$data/qrels.txt" "$data/run.txt" > "$tmp/out.$w"
			cat "$tmp/t" >> "$tmp/t.$w"
		done
	done
	cmp -s "$tmp/out.old" "$tmp/out.new" && same=same || same=DIFFERENT
	for w in old new; do
		# CPU: the fastest run and the median (sort -n of user+sys).
		med=$(awk '{ print $2 + $3 }' "$tmp/t.$w" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
		awk -v w=$w -v a="$args" -v s=$same -v med="$med" 'BEGIN { c = 1e9; wl = 1e9; r = 0 }
			{ if ($2 + $3 < c) c = $2 + $3; if ($1 < wl) wl = $1; if ($4 > r) r = $4 }
			END { printf "%-16s %-4s cpu %.2f s (median %.2f)  wall %.2f s  RSS %.1f MB  (outputs %s)\n", a, w, c, med, wl, r / 1024, s }' "$tmp/t.$w"
	done
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
