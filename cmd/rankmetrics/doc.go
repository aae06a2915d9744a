// Command rankmetrics computes TF-Ranking's ranking metrics from the
// command line.
//
// Subcommands:
//
//	rankmetrics compute [--input FILE] [--max-line BYTES]
//
// compute reads JSON Lines cases (the cross-language parity interface, see
// package internal/cases and "rankmetrics compute -h" for the case schema)
// from stdin or FILE and writes one answer line per case, in order, each as
// soon as it is computed. A bad case, and a line over --max-line bytes, gets
// an {"id", "error"} answer and the next lines are still answered; on a read
// error or SIGINT compute stops with every earlier answer written.
//
//	rankmetrics eval [flags] QRELS RUN | FILE
//
// eval evaluates ranking outputs from files (TREC qrels and run, TSV, CSV,
// JSON Lines, Parquet, RKM1) with MAP, any metric of the family under
// TF-Ranking's names, and trec_eval's measures under trec_eval's names,
// computed by package metric/treceval as "rankmetrics trec_eval" computes
// them (--compat 10.0 or 9.0.8); run "rankmetrics eval -h".
//
//	rankmetrics compare [flags] QRELS RUN_A RUN_B [RUN...]
//
// compare evaluates each run with eval's engine and compares the per-query
// values of every run with a baseline, or of every pair, with paired
// significance tests (package significance), corrections, intervals and
// effect sizes; run "rankmetrics compare -h".
//
//	rankmetrics explain [--topn K] [--metrics LIST] [--ties POLICY] [--seed SEED] [--table] [--labels ROWS --predictions ROWS]
//
// explain computes one batch under each library profile (TF-Ranking 0.5.5,
// keras-rs 0.4.0, torchmetrics 1.9.0; package metric's Profile) and prints
// the overall values, then per list each profile's value and the rules that
// make them differ (tie order, normalisation of AP, gain, relevance
// threshold, lists without relevant items, a cutoff past the list's end,
// list weights). eval and compare take --profile to read map@K and the
// TF-Ranking keys under keras-rs or torchmetrics.
//
//	rankmetrics ir_measures QRELS RUN MEASURE... [-q] [-n] [-p PLACES] [-o tsv|jsonl] [--provider NAME]
//
// ir_measures is "python -m ir_measures" (ir_measures 0.4.3): the same
// command line and the same bytes on stdout, the values computed by
// eval's input layer and engine, the rows in ir_measures' order (README:
// what is not reproduced).
//
// "rankmetrics help COMMAND" (or "rankmetrics COMMAND -h") prints a
// command's help on stdout; "rankmetrics --version" prints the module's
// version, the Go version and the trec_eval versions "rankmetrics
// trec_eval" reproduces. eval and compare share their input, measure, tie
// and query flags with rankmetrics-beam (package cliflags): the
// tie seed is --ties-seed in all three, and compare's --seed is the seed of
// its Monte Carlo samples.
package main
