#!/usr/bin/env bash
# rankmetrics trec_eval against trec_eval 10.0 built with -O3 (upstream, and
# with its topic lookup made linear instead of quadratic), in one run on the
# same generated TREC pair (bench/gen: QUERIES lists of 100 documents, one
# qrels line per document). Prints CPU seconds (user+sys, the best of REPS),
# wall seconds, peak RSS and the ratios, and checks that rankmetrics prints
# what the reference build (-g, as NIST ships it, lookup made linear)
# prints.
#
#   bash bench/treceval.sh            # QUERIES=10000: a 1M-line run
#   QUERIES=100000 bash bench/treceval.sh   # the 10M-line pair of issue 12
#
# On 100,000 topics the upstream build's quadratic topic lookup takes
# minutes: UP_REPS (default REPS) sets its repetitions and UP_CPU_LIMIT
# (CPU seconds, ulimit -t; default none) stops it; a stopped run is printed
# as ">" its CPU time, a lower bound. BUILD (default /tmp/treceval-bench) holds the
# builds and outputs. BASE, a rankmetrics binary (say, built from main), is
# measured in the same run, right after this tree's, for a before and after:
#
#   go build -o /tmp/old/rankmetrics ./cmd/rankmetrics   # on main
#   BASE=/tmp/old/rankmetrics QUERIES=50000 bash bench/treceval.sh
set -euo pipefail
cd "$(dirname "$0")/.."
QUERIES=${QUERIES:-10000}
REPS=${REPS:-3}
UP_REPS=${UP_REPS:-$REPS}
UP_CPU_LIMIT=${UP_CPU_LIMIT:-unlimited}
BUILD=${BUILD:-/tmp/treceval-bench}
BASE=${BASE:-}
DATA=${DATA:-$BUILD/data-$QUERIES}
REF=${TRECEVAL_REFERENCE:-$(cd .. && pwd)/shared/reference}
[ -d "$REF" ] || REF=/work/shared/reference
mkdir -p "$BUILD"
[ -f "$DATA/run.txt" ] || go run ./bench/gen -out "$DATA" -queries "$QUERIES" -formats trec >&2
# o3-upstream, o3-linear: timed. g-linear: NIST's flags (-g) with the
# linear lookup, whose output is the reference rankmetrics must print (the
# -g build of ref/ has the quadratic lookup: minutes on 100,000 topics).
for variant in upstream linear g-linear; do
	d=$BUILD/o3-$variant
	[ $variant = g-linear ] && d=$BUILD/g-linear
	if [ ! -x "$d/trec_eval" ]; then
		rm -rf "$d" && mkdir -p "$d"
		tar xzf "$REF/trec_eval-10.0.tar.gz" -C "$d" --strip-components=1
		if [ $variant != upstream ]; then
			# Judged and run topics are both sorted: resume each lookup
			# where the previous one matched.
			sed -i -e 's/for (j = 0; j < all_results.num_q_results; j++) {/for (j = te_resume; j < all_results.num_q_results; j++) {/' \
				-e 's/this_result = &all_results.results\[j\];/this_result = \&all_results.results[j]; te_resume = j;/' \
				-e 's/^int main(int argc, char \* argv\[\])/static long te_resume = 0;\nint main(int argc, char * argv[])/' "$d/trec_eval.c"
			grep -q te_resume "$d/trec_eval.c"
		fi
		if [ $variant = g-linear ]; then
			make -s -C "$d" >/dev/null 2>&1
		else
			make -s -C "$d" CFLAGS='-O3 -I. -w -DVERSIONID=\"10.0\"' >/dev/null
		fi
	fi
done
go build -o "$BUILD/rankmetrics" ./cmd/rankmetrics

# measure NAME REPS CPULIMIT CMD...: best CPU and wall over REPS runs, peak
# RSS; a run stopped by CPULIMIT (ulimit -t) prints its CPU time as a lower
# bound (">" before the figures).
measure() {
	local name=$1 reps=$2 limit=$3; shift 3
	local best_cpu= best_wall= rss=0 mark=
	for _ in $(seq "$reps"); do
		if ! /usr/bin/time -f '%e %U %S %M' -o "$BUILD/time" bash -c 'ulimit -t "$0"; exec "$@"' "$limit" "$@" > "$BUILD/out.$name"; then
			mark=">"
		fi
		read -r wall user sys kb < <(tail -1 "$BUILD/time")
		cpu=$(echo "$user + $sys" | bc)
		if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc)" = 1 ]; then best_cpu=$cpu; fi
		if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc)" = 1 ]; then best_wall=$wall; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	echo "$name $best_cpu $best_wall $rss $mark"
}
q=$DATA/qrels.txt r=$DATA/run.txt
echo "data: $(wc -l < "$r") run lines, $(wc -l < "$q") qrels lines; best of $REPS; load $(cut -d' ' -f1-3 /proc/loadavg)"
for m in all_trec map; do
	"$BUILD/g-linear/trec_eval" -m $m "$q" "$r" > "$BUILD/expect.$m"
	res=$(measure up "$UP_REPS" "$UP_CPU_LIMIT" "$BUILD/o3-upstream/trec_eval" -m $m "$q" "$r"
		measure lin "$REPS" unlimited "$BUILD/o3-linear/trec_eval" -m $m "$q" "$r"
		measure rm "$REPS" unlimited "$BUILD/rankmetrics" trec_eval -m $m "$q" "$r"
		[ -z "$BASE" ] || measure base "$REPS" unlimited "$BASE" trec_eval -m $m "$q" "$r")
	cmp -s "$BUILD/out.rm" "$BUILD/expect.$m" && same=identical || same=DIFFERENT
	[ -z "$BASE" ] || cmp -s "$BUILD/out.base" "$BUILD/expect.$m" || same="$same (BASE's DIFFERENT)"
	echo "$res" | awk -v m=$m -v same=$same '
		{ cpu[$1]=$2; wall[$1]=$3; rss[$1]=$4; mark[$1]=$5 }
		END {
			printf "-m %s (rankmetrics output %s to trec_eval 10.0'\''s)\n", m, same
			printf "  %-26s %8s %8s %9s\n", "", "cpu s", "wall s", "RSS MB"
			printf "  %-26s %1s%7.2f %1s%7.2f %9.1f\n", "trec_eval -O3 upstream", mark["up"], cpu["up"], mark["up"], wall["up"], rss["up"]/1024
			printf "  %-26s %8.2f %8.2f %9.1f\n", "trec_eval -O3 linear", cpu["lin"], wall["lin"], rss["lin"]/1024
			printf "  %-26s %8.2f %8.2f %9.1f\n", "rankmetrics trec_eval", cpu["rm"], wall["rm"], rss["rm"]/1024
			printf "  cpu ratio %s%.1fx (upstream) %.1fx (linear); RSS ratio %.3f (linear)\n", mark["up"], cpu["up"]/cpu["rm"], cpu["lin"]/cpu["rm"], rss["rm"]/rss["lin"]
			if ("base" in cpu) {
				printf "  %-26s %8.2f %8.2f %9.1f\n", "rankmetrics BASE", cpu["base"], wall["base"], rss["base"]/1024
				printf "  BASE cpu ratio %.1fx (upstream) %.1fx (linear); this tree %.2fx less CPU than BASE\n", cpu["up"]/cpu["base"], cpu["lin"]/cpu["base"], cpu["base"]/cpu["rm"]
			}
		}'
done
# Streaming -q: per-topic lines of a run whose topics are in blocks.
"$BUILD/g-linear/trec_eval" -q -m all_trec "$q" "$r" > "$BUILD/expect.q"
res=$(measure rmq "$REPS" unlimited "$BUILD/rankmetrics" trec_eval -q -m all_trec "$q" "$r")
cmp -s "$BUILD/out.rmq" "$BUILD/expect.q" && same=identical || same=DIFFERENT
echo "$res" | awk -v same=$same '{ printf "-q -m all_trec (output %s): rankmetrics cpu %.2f s, wall %.2f s, RSS %.1f MB\n", same, $2, $3, $4/1024 }'
