// Package treceval computes the measures of NIST's trec_eval, versions
// 10.0 and 9.0.8, over one topic's ranked list of judged documents, with
// trec_eval's exact arithmetic, so that printed values match trec_eval's
// byte for byte.
//
// # Ranking
//
// A topic's retrieved documents are ranked by score, highest first; equal
// scores are ordered by docno, the greater docno (byte order) first. The
// rank field of a run is ignored. Version 9.0.8 compares scores after
// rounding them to a C float, so 3.017 and 3.017000001 tie there and not
// in 10.0. With -M N only the first N ranked documents are kept; with -J
// the unjudged ones are dropped (after ranking, so ties keep their order).
//
// Each ranked document gets its judgement: the qrels value, RelUnjudged
// (-2) for a negative qrels value (TREC Web's -2 "junk" label is read as
// "in the pool, not judged") or RelNonpool (-1) for a document absent from
// the qrels. A document is relevant when its judgement is at least the
// relevance level (-l, default 1). R (num_rel) counts the judged documents
// at or above the level, retrieved or not.
//
// # Measures
//
// With rel(i) the judgement at rank i (from 1), n the number ranked and
// rel? "relevant":
//
//   - P_k: relevant in the top k, divided by k (missing ranks count as
//     nonrelevant). recall_k: the same divided by R. relative_P_k: divided
//     by min(k, R). success_k: 1 if any of the top k is relevant.
//     unj_k (10.0): fraction of the top k without a judgement.
//   - map: sum of the precision at each relevant rank, divided by R.
//     map_cut_k: the same over the top k. gm_map: geometric mean of map
//     over topics, each floored at 0.00001.
//   - Rprec: precision at rank R. Rprec_mult_x: precision at rank
//     floor(x*R + 0.9).
//   - recip_rank: 1 / rank of the first relevant document.
//   - iprec_at_recall_x: the best precision at any rank where recall is at
//     least x, the x*R cutoff rounded (10.0) or truncated after adding 0.9
//     (9.0.8). 11pt_avg: mean of iprec_at_recall over its parameters.
//   - bpref: mean over relevant retrieved documents of 1 - (judged
//     nonrelevant above it, at most R) / min(judged nonrelevant, R),
//     divided by R. gm_bpref: geometric mean. infAP: inferred AP.
//   - ndcg: DCG / ideal DCG with gain = judgement (or level=gain
//     parameters) and discount log2(rank+1), the ideal list made of every
//     judged document; ndcg_cut_k: the same at cutoff k with the judgement
//     as gain; ndcg_rel, Rndcg, G, binG: trec_eval's experimental
//     variants; dcg and ideal_dcg (10.0): the two parts of ndcg.
//   - rbp (10.0): rank-biased precision (1-p) * sum gain(i) p^(i-1), p = 0.9
//     by default, gains rescaled to [0, 1]. rbp_resid: its residual.
//   - set_P, set_recall, set_relative_P, set_map, set_F: the same on the
//     retrieved set as a whole. utility: a*relret + b*nonrelret +
//     c*relmissed + d*(N - ret - relmissed), coefficients 1,-1,0,0.
//   - num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret: counts, summed
//     over topics. relstring: the first 10 judgements as characters.
//   - yaap: log((1+s) / (1+R-s)) with s the sum of map's precisions.
//
// # Worked example
//
// Judgements d1:2, d2:0, d3:1, d5:-2; run d4 (score 3), d1 (2), d2 (2),
// d3 (1), d5 (0.5). d1 and d2 tie: d2 comes first (greater docno). The
// ranked judgements are -1, 0, 2, 1, -2 and R = 2. P_5 = 2/5 = 0.4000;
// map = (1/3 + 2/4) / 2 = 0.4167; recip_rank = 1/3 = 0.3333; Rprec = 0
// (nothing relevant in the top 2); bpref = ((1 - 1/1) + (1 - 1/1)) / 2 = 0;
// ndcg = (2/log2 4 + 1/log2 5) / (2/log2 2 + 1/log2 3) = 1.4307/2.6309 =
// 0.5438.
//
// The Evaluator selects measures as -m does, Evaluate fills a topic's
// values, Summary averages them as trec_eval does (also with -c), and
// AppendTopic and AppendSummary print trec_eval's lines. NOTES.md records
// how both versions behave and where rankmetrics deliberately differs.
package treceval
