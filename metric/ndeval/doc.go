// Package ndeval computes the diversity measures that ir_measures 0.4.3
// takes from its pyndeval provider (pyndeval 0.0.8, TREC's ndeval 4.5):
// alpha_DCG, alpha_nDCG, ERR_IA, nERR_IA, NRBP, nNRBP, AP_IA, P_IA and
// StRecall, with ndeval's arithmetic; the golden test finds every
// per-query value and summary equal to ir_measures' to the bit.
//
// # Input
//
// Judgments come from subtopic qrels (`qid subtopic docno rel`, read by
// runio.ReadSubtopicQrels). A document is relevant to a subtopic when its
// label is at least rel (default 1); the gain of a document is the sum,
// over the subtopics it is relevant to, of (1-alpha)^n, n the number of
// documents above it relevant to that subtopic, added in the order the
// subtopic ids first appear in the file. A topic's documents are ranked
// by score, highest first, equal scores by docno ascending (Order); topics
// of the run without judgments are left out, a judged topic the run lacks
// gets 0, and the summary is the mean.
//
// # Measures
//
// With S the number of subtopics that have a relevant document:
//
//   - alpha_DCG@K: the sum of gain(i)/log2(i+1) over the top K, divided
//     (from rank 2 on; rank 1 is not divided) by that of the "ideal
//     ideal" ranking, whose gain at rank i is S (1-alpha)^(i-1).
//     alpha_nDCG@K: alpha_DCG@K over that of the greedy ideal ranking of
//     the qrels (at each rank the document of the largest gain, ties to
//     the greater docno).
//   - ERR_IA@K and nERR_IA@K: the same with the discount 1/i.
//   - NRBP: the sum of gain(i) beta^(i-1) over the whole ranking, times
//     (1 - (1-alpha) beta)/S. nNRBP: over the ideal's NRBP (NaN for a
//     topic without relevant documents: ndeval divides 0 by 0, and so
//     ir_measures' mean is NaN too).
//   - AP_IA: the mean over the S subtopics of the average precision of
//     each. P_IA@K: relevant (document, subtopic) pairs in the top K over
//     K S. StRecall@K: subtopics covered in the top K over S.
//
// The @K measures take K from 1 to 20 (Depth) and need it; judged_only
// is refused (Measure.Validate): ir_measures refuses or fails on each of
// these.
//
// A document judged twice for the same subtopic is relevant to it as its
// last line says, and each line at or above rel counts in the subtopic's
// number of relevant documents (AP_IA's denominator): ndeval keeps the
// judgment its sort by docno puts last, which glibc's qsort (stable in
// glibc 2.36, which the goldens were made with) leaves in file order.
// A docno ranked twice has its judgments at its first rank only (ndeval's
// join of the run to the qrels by docno, with glibc's stable sort); note
// that eval's --dedupe first, which subtopic qrels need, keeps only the
// first run line of a docno, which ir_measures does not.
package ndeval
