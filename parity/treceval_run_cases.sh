#!/usr/bin/env bash
# Runs every (data set, flag set, version) of parity/treceval_cases.txt
# with one trec_eval-like program and writes length-prefixed records
#   #case<TAB>VERSION<TAB>DATASET<TAB>EXIT<TAB>NBYTES<TAB>FLAGS
# followed by NBYTES of standard output, to standard output.
# usage: treceval_run_cases.sh DATADIR PROGRAM-FOR-10.0 PROGRAM-FOR-9.0.8
# (a PROGRAM may have arguments, e.g. "rankmetrics trec_eval --compat 10.0")
set -u
dir=$1 prog10=$2 prog908=$3
cases=$(dirname "$0")/treceval_cases.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for data in $(cd "$dir" && ls *.qrels 2>/dev/null | sed 's/\.qrels$//' | sort); do
  while IFS=$'\t' read -r versions flags; do
    case "$versions" in ''|'#'*) continue ;; esac
    for v in 10.0 9.0.8; do
      [ "$versions" = both ] || [ "$versions" = "$v" ] || continue
      prog=$prog10; [ "$v" = 9.0.8 ] && prog=$prog908
      if [[ $flags == STDIN* ]]; then
        (cd "$dir" && timeout 120 $prog ${flags#STDIN} "$data.qrels" - < "$data.run") > "$tmp" 2>/dev/null
      else
        (cd "$dir" && timeout 120 $prog $flags "$data.qrels" "$data.run") > "$tmp" 2>/dev/null
      fi
      rc=$?
      printf '#case\t%s\t%s\t%d\t%d\t%s\n' "$v" "$data" "$rc" "$(wc -c < "$tmp")" "$flags"
      cat "$tmp"
    done
  done < "$cases"
done
# The hand-made hostile inputs, when DATADIR has them.
if [ -d "$dir/hostile" ]; then
  while IFS=$'\t' read -r q r flags; do
    case "$q" in ''|'#'*) continue ;; esac
    for v in 10.0 9.0.8; do
      prog=$prog10; [ "$v" = 9.0.8 ] && prog=$prog908
      if [[ $flags == STDIN* ]]; then
        (cd "$dir/hostile" && timeout 120 $prog ${flags#STDIN} "$q" - < "$r") > "$tmp" 2>/dev/null
      else
        (cd "$dir/hostile" && timeout 120 $prog $flags "$q" "$r") > "$tmp" 2>/dev/null
      fi
      rc=$?
      printf '#case\t%s\thostile/%s:%s\t%d\t%d\t%s\n' "$v" "$q" "$r" "$rc" "$(wc -c < "$tmp")" "$flags"
      cat "$tmp"
    done
  done < "$(dirname "$0")/treceval_hostile.txt"
fi
