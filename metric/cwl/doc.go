// Package cwl computes the C/W/L measures that ir_measures 0.4.3 takes
// from its cwl_eval provider (cwl-eval 1.0.12): RBP, SDCG, BPM, INST,
// INSQ and NERR8 to NERR11, with that provider's arithmetic, so that
// per-query values match ir_measures' within an ulp (most to the bit).
//
// # What ir_measures hands cwl_eval
//
// A topic's documents are ordered by score, highest first; equal scores
// keep the run file's order (Order). The rank field is ignored. Topics of
// the run without judgments are left out; a judged topic the run lacks
// gets 0. The summary is the mean of the per-topic values.
//
// Labels become gains (Measure.Gain): a negative label counts as 0; RBP
// takes gain 1 at or above rel (required: bare RBP, and RBP with a
// cutoff, are refused by every provider), the others clip the label to
// [min_rel, max_rel] (min_rel 0 by default, max_rel required) and scale
// it to (label-min_rel)/(max_rel-min_rel). An unjudged document has gain
// 0: cwl_eval's lower bound; ir_measures does not ask for its residuals.
//
// # The C/W/L arithmetic
//
// Each measure is a continuation probability C(i) of going from rank i
// to i+1, over exactly Depth (1000) ranks: longer rankings are cut, shorter
// ones padded with gain 0, and C is computed on the padded gains. The
// examination weights are W(i) = C(1)...C(i-1) / S, S the sum of those
// products over the 1000 ranks, and the value is the sum of W(i) g(i):
//
//   - RBP(p): C = p (ir_measures' default p is 0.8; trec_eval's rbp is 0.9).
//   - SDCG@K: C(i) = log2(i+1)/log2(i+2) below K, 0 from K on: DCG@K over
//     the DCG of K documents of gain 1.
//   - BPM(T)@K: C = 1 while the gain so far is below T and i < K, then 0.
//   - INSQ(T): C(i) = ((i+2T-1)/(i+2T))^2.
//   - INST(T): C(i) = ((i+T+T_i-1)/(i+T+T_i))^2 with T_i = T minus the gain
//     of the first i documents.
//   - NERR8@K: 1-g(i) below K. NERR9@K: i/(i+1) (1-g(i)) below K.
//     NERR10(p): p (1-g(i)). NERR11(T): INSQ's C times 1-g(i).
//
// The products are accumulated from the top and S summed pairwise as
// numpy sums; SDCG's log2(x) is ln(x)/ln(2) with both logs correctly
// rounded, as glibc's are (Go's math.Log is an ulp off for some integers).
// numpy takes the final sum of W(i) g(i) from its BLAS, OpenBLAS, whose
// kernel depends on the processor: it is added here in the order of the
// kernel numpy 2.4 runs on AVX-512 processors (the goldens' machine).
// The squares of INST, INSQ and NERR11 are x*x, correctly rounded, where
// Python and numpy call glibc's pow(x, 2.0), which is not always (INSQ
// with T=1.0: at rank 793 of the 1000): one per-query value in the 2800
// of cwl_seed*.jsonl.gz is an ulp away for that, the others are equal to
// the bit; the tests allow 4 ulps (another processor's OpenBLAS kernel
// adds in another order too).
package cwl
