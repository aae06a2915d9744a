// Package evaluate is the evaluation engine of every front end
// (rankmetrics eval and compare, the Beam pipeline): it reads the queries
// of a [runio.Reader], packs them into metric updates, computes MAP and
// MAP@k, any metric of the family (NDCG, MRR, precision...), trec_eval's
// and ir_measures' measures, named as package measure reads them
// ([measure.Parse]), on parallel workers, and adds the updates up in input
// order.
//
// The data path is input (package runio) -> engine (this package, over
// package metric's kernels and metric/treceval) -> front ends
// (cmd/rankmetrics, adapters/beam).
//
// # One plan
//
// A [Plan] ([NewPlan]) is the evaluation itself, whatever runs it: eval
// and compare through [Run], the Beam pipeline one query at a time. A
// [Batch] of the plan evaluates queries as one update and gives each
// measure's per-query value and list weight; [Totals] adds batches up
// into the summary values: the correctly rounded means of the per-query
// values, from exact sums (merged in any order under Exact accumulation:
// the Beam CombineFn's), but for TF-Ranking's measures under Sequential
// accumulation, which keep the metrics' own Keras means. The metric API is
// used in plan_metric.go only.
//
// # Determinism
//
// Queries go to the metric in updates of [Options.Batch] consecutive
// queries, in input order. TF-Ranking's per-list weights depend on the
// update a list is in, and random tie orders are drawn from a seed derived
// from [metric.Config.Seed] and the update's number. Workers compute whole
// updates, and a single reducer merges them in update order, so every
// result, per query and overall, is bit-identical whatever
// [Options.Workers] is.
//
// # TREC specifics
//
// Judged relevant documents that a run does not rank
// ([runio.Query.UnrankedLabels]) reach map and map@K as unranked counts
// ([metric.Suite.UpdateUnranked]): they count in the AP denominator and
// take no rank, as in trec_eval and in TF-Ranking's whole-list
// denominator. A family measure under the TrecEval convention
// ("map:treceval") gets them as items of weight 0, ranked below every
// retrieved document, which that convention counts in the denominator
// only. The other family measures do not see them. TF-Ranking measures
// follow [metric.Config.Ties]; those with the same tie policy and the same
// lists share one [metric.Suite], so one ranking of each list serves them
// all, but under the Random policy map and map@K draw their own tie
// orders, each in a Suite of its own. Queries found only in the run or
// only in the
// qrels are skipped or kept as [Options.RunOnly] and [Options.QrelsOnly]
// say, and counted either way in the [Result].
//
// # trec_eval's measures
//
// A measure named by trec_eval (Measure.TrecEval is set) is computed by
// metric/treceval, the code of "rankmetrics trec_eval", in the version
// [Options.TrecEvalVersion] names (treceval.go is the one place that
// computes them). Each query goes to it as trec_eval sees a
// topic: the ranked documents with their ids and scores, ranked by score
// then document id; the judgments of the judged ones (a TREC run document
// absent from the qrels is unjudged, see [runio.Query.Unjudged]) and of
// the judged documents the run missed. Inputs without document ids are
// refused ([ErrNoDocIDs]), and so are non-integer labels and queries whose
// every judgment is negative. The overall value is trec_eval's summary
// over the queries evaluated: a judged query the run lacks, kept with
// [Options.QrelsOnly], is scored as trec_eval -c scores it; run-only
// queries cannot be kept. Under every accumulation the values are added
// exactly: a mean is the exact sum over the number of queries rounded
// once (P_10 of 50 queries summing to 12.4 is 0.248, where trec_eval's
// running sum makes 0.24800000000000005), a count (num_rel_ret...) the
// exact sum, so that neither depends on the order of the queries.
//
// # Output
//
// Run returns the overall value of every measure and the counts of what
// was read and evaluated. [Options.PerQuery], when set, receives every
// update's per-query values in input order; [Options.CurveK] adds MAP@1 to
// MAP@K for a curve, and [Result.Hist] is a histogram of per-query AP.
// Formatting them is left to the caller.
package evaluate
