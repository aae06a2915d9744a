// Package measure is rankmetrics' measure registry: the one place where a
// measure's name is read, for every front end (the library's callers, the
// eval, compare and compute commands, trec_eval's -m suggestions, Beam).
//
// Each measure has one record ([Def]): the names it answers to, the
// reference whose definition it follows, the engine that computes it, how
// its per-query values make the overall value, and whether its values lie
// in [0, 1]. A name means one thing:
//
//   - TF-Ranking's metrics (tfr.keras.metrics, 0.5.x) by their keys, with
//     an optional cutoff: map, map@10, ndcg@10, mrr, precision@5,
//     recall@100, hits@1, dcg@5, arp, opa; and by the names Keras gives
//     them (ndcg_metric is NDCG over the whole list). Computed by the
//     metric package's generated kernels.
//   - MAP under a named convention: map:CONVENTION and map@K:CONVENTION
//     (treceval, minrk, retrieved, xgboost, xgboost-, tfranking), see
//     [metric.Convention].
//   - trec_eval's measures under the names trec_eval -q prints their
//     values (P_10, ndcg_cut_10, recip_rank, bpref, ndcg,
//     iprec_at_recall_0.50...) or as a -m specification with parameters
//     (P.5,10 names P_5 and P_10), computed by metric/treceval.
//
// The bare names map, recall and dcg are TF-Ranking's; ndcg alone is
// trec_eval's (TF-Ranking's NDCG over the whole list is ndcg_metric).
// Names are case-sensitive, as in trec_eval: NDCG@10 could mean
// TF-Ranking's ndcg@10 (gain 2^label-1) or trec_eval's ndcg_cut_10 (gain =
// label), and a name that is not in the registry is an error that lists
// the nearest names of every family, with what each means ([Parse]).
//
// Worked example: one query, documents ranked d1 d2 d3 with labels 0 2 1,
// cutoff 3. TF-Ranking's ndcg@3 uses gain 2^label-1: DCG = 0/log2(2) +
// 3/log2(3) + 1/log2(4) = 2.3928, ideal = 3/log2(2) + 1/log2(3) = 3.6309,
// ndcg@3 = 0.6590. trec_eval's ndcg_cut_3 uses gain = label: DCG =
// 2/log2(3) + 1/log2(4) = 1.7619, ideal = 2 + 1/log2(3) = 2.6309,
// ndcg_cut_3 = 0.6697. Two numbers, two names.
//
// Parsing is linear in the number of names: each name is looked up in
// maps built once.
package measure
