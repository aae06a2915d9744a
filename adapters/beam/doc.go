// Package beam evaluates ranking outputs on Apache Beam
// (github.com/apache/beam/sdks/v2, the Go SDK), so that an evaluation set
// too large for one machine runs on Dataflow, Flink or Spark, or in
// process on prism, and gives the same value as one process, to the bit.
//
// It is a Go module of its own, so the core rankmetrics module does not
// depend on Beam. Import it under another name than Beam's own package,
// for instance rmbeam.
//
// # Transforms
//
// The pipeline has three steps, each returning a Step (its output, its
// dead letters and its counts):
//
//   - GroupLists groups a PCollection of Row (qid, doc, label, score,
//     weight, and where it was read) by qid into one List per query.
//     GroupChunks does the same for the Chunks the readers emit (runs of
//     rows of one query, so that sorted input shuffles a few elements per
//     query instead of one per row), and JoinTREC joins TREC qrels and run
//     Chunks into Lists. Both run one DoFn, which builds each List with
//     runio's dedupe rules (runio.DedupeIndex) into the Query that
//     `rankmetrics eval` reads (List embeds it; Dedupe and Match are
//     runio's types).
//     The items of a list are ordered by where they were read (file name,
//     then position), never by arrival order, so the result does not
//     depend on sharding or shuffling.
//   - EvaluateLists computes the measures on each List, one query per
//     batch of the evaluation plan of `rankmetrics eval`
//     (evaluate.Plan), into a PCollection of QueryValue: every
//     measure eval takes (map, ndcg@5, mrr, map@10:treceval, P_10,
//     ndcg_cut_10, alpha_nDCG@10...), named as eval's -m names it. The
//     diversity measures of ir_measures (ReadsSubtopics) read subtopic
//     qrels, EvalOptions.SubtopicQrels, which beamio.ReadSubtopicQrels
//     reads from the qrels files where the pipeline is built.
//   - Summarize combines the QueryValues with OverallFn, a CombineFn whose
//     accumulator is the plan's exact totals, into one Report.
//
// Evaluate chains the last two and gathers every dead letter and count;
// Write writes the report, the per-query values and the dead letters.
// Package beamio reads TSV, CSV, TREC, JSON Lines, Parquet and RKM1 files
// into Chunks, and the command cmd/rankmetrics-beam puts it all together.
//
// # Bit-identical results
//
// OverallFn adds, per measure, Σ value·w and Σ w into exact fixed-point
// sums (the plan's Totals under Exact accumulation) and rounds once, at the
// end. Adding and merging are integer additions, associative and
// commutative, so the result is the same for every sharding, bundle size,
// merge order and worker count, and equals `rankmetrics eval --batch 1
// --accumulation exact` on the same file, which runs the same plan.
//
// TF-Ranking's list weights depend on the batch: a list without relevant
// items weighs the mean list weight of the lists of its own update. So in
// float32 (TF-compatible) mode, a metric fed the same queries in other
// batches gives another value, and a Keras Mean's float32 running total
// depends on the order of the batches as well. This transform evaluates
// every query as an update of its own (a batch of one list, in which such
// a list weighs 1) and always adds exactly: the per-query values are
// TF-Ranking's bits for a batch of one, and the mean does not depend on
// how the data was cut. Without weights every list weighs 1 anyway, so
// only weighted lists without relevant items are affected. Sequential
// accumulation is refused.
//
// Under the Random tie policy each query's tie order is drawn from a
// generator seeded with the measure's seed and the qid: reproducible for
// any sharding, but not the draws of a single process, which seeds per
// update. The other policies give the single-process values.
//
// # Dead letters
//
// A record that cannot be used is never dropped silently: it becomes a
// DeadLetter naming the step, the file and offset, the reason (field and
// value) and the record, and it is counted. Counts.Check verifies that the
// counts add up: every record read is in a query's result, deliberately
// skipped (duplicates, run-only and qrels-only TREC queries), or in the
// dead letters.
package beam
