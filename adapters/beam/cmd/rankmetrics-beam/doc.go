// Command rankmetrics-beam evaluates ranking outputs on Apache Beam: the
// distributed counterpart of `rankmetrics eval`, for evaluation sets that
// outgrow one machine.
//
// It reads TSV, CSV, JSON Lines, Parquet or RKM1 files, or TREC qrels and
// run files, from any file system Beam knows (local paths, gs://, ...),
// groups the rows by query, computes every measure of `rankmetrics eval`
// (the same evaluation plan: map, ndcg@5, mrr, map@10:treceval, P_10,
// ndcg_cut_10...) per query, and combines the queries with an exact
// accumulator, so that the result is the
// same to the bit for any sharding of the input, any runner and any number
// of workers. Malformed rows go to a dead-letter file with the reason; the
// exit status is 1, and no report is written, when there are more of them
// than --max-dead-letters.
//
// It runs on prism, in process, by default; --runner=dataflow or
// --runner=flink (with the usual Beam flags) submits it to a cluster. See
// the module's README.
//
// Usage:
//
//	rankmetrics-beam [flags] --input 'data/part-*.tsv'
//	rankmetrics-beam [flags] --qrels qrels.txt --run 'runs/*.run'
package main
