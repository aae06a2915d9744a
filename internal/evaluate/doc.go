// Package evaluate is the engine of "rankmetrics eval": it reads the
// queries of a [runio.Reader], packs them into metric updates, computes
// MAP and MAP@k, and any metric of the family (NDCG, MRR, precision...,
// also under trec_eval's names, see [ParseMeasure]) on parallel workers,
// and adds the updates up in input order.
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
// ([runio.Query.UnrankedLabels]) reach the metric as unranked counts
// (metric.MeanAveragePrecision.UpdateUnranked): they count in the AP
// denominator and take no rank, as in trec_eval and in TF-Ranking's
// whole-list denominator. The family measures under the TrecEval
// convention (map_cut_K) get them as items of weight 0, ranked below every
// retrieved document, which that convention counts in the denominator
// only. The other family measures do not see them: NDCG leaves them out
// of the ideal ranking and recall out of its denominator, so ndcg,
// ndcg_cut_K and recall_K differ from trec_eval on queries whose run
// misses relevant documents; and precision at K divides by min(K, list
// length) as TF-Ranking does, where trec_eval's P_K divides by K.
// Family measures named by trec_eval keep its settings' stable tie order
// (trec_eval orders equal scores by document id descending: give the run
// in that order); the others follow [metric.Config.Ties]. Family measures
// with the same tie policy and the same lists share one [metric.Suite],
// so one ranking of each list serves them all. Queries found only in the
// run or only in the
// qrels are skipped or kept as [Options.RunOnly] and [Options.QrelsOnly]
// say, and counted either way in the [Result].
//
// # Output
//
// Run returns the overall value of every measure and the counts of what
// was read and evaluated. [Options.PerQuery], when set, receives every
// update's per-query values in input order; [Options.CurveK] adds MAP@1 to
// MAP@K for a curve, and [Result.Hist] is a histogram of per-query AP.
// Formatting them is left to the caller.
package evaluate
