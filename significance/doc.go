// Package significance compares ranking systems evaluated on the same
// queries: paired significance tests, multiple-comparison corrections,
// intervals and effect sizes over per-query values (AP, NDCG@10, ...).
//
// Every test takes the per-query differences d = run - baseline of two
// systems ([Differences] pairs and checks them) and is two-sided:
//
//   - [PairedT]: Student's paired t-test, t = mean(d) / (sd(d)/sqrt(n)),
//     p from the t distribution with n-1 degrees of freedom (gonum's
//     stat/distuv);
//   - [Wilcoxon]: the signed-rank test, zero differences dropped, exact
//     for n <= 50 untied absolute differences, else the normal
//     approximation with tie correction and no continuity correction;
//   - [Randomization]: Fisher's sign-flip test of the mean difference,
//     exact enumeration when 2^n <= samples, else Monte Carlo with
//     p = (1 + #{|T*| >= |T|}) / (1 + samples);
//   - [Bootstrap]: the paired bootstrap, a percentile interval of the
//     mean difference and a shift-method p-value;
//   - [Tukey]: the randomised Tukey HSD of Carterette (2012) over several
//     systems, which permutes the systems' values within each query.
//
// Uncertainty: [Moments] and [MeanT] give the t interval of a mean
// (streaming, no stored values), [MeanBCa] the BCa bootstrap interval;
// [Effect] gives d_z and Hedges' g_z with exact intervals from the
// noncentral t distribution ([NoncentralT], which gonum lacks);
// [PairedTPower] is the power of the paired t-test and [TopicsNeeded] the
// topic-set size (Sakai) for a difference to detect; [Risk] is URisk and
// TRisk (Dinçer, Macdonald and Ounis 2014).
//
// [Summarize] gives the means, the mean difference, its t interval, the
// effect size mean(d)/sd(d) and wins, ties and losses; [Correction]
// adjusts the p-values of a family of comparisons (Bonferroni, Holm,
// Benjamini-Hochberg).
//
// # Worked example
//
// Three queries with d = {1, 2, 3}: mean 2, sd 1, t = 2/(1/sqrt 3) =
// 3.464 on 2 degrees of freedom, p = 1 - t/sqrt(t^2+2) = 0.0742. The 8
// sign patterns of the randomization test have sums 6, 4, 2, 0, 0, -2,
// -4, -6; two reach |6|, so p = 2/8 = 0.25. The signed-rank sums are
// R+ = 6 and R- = 0; P(W <= 0) = 1/8, so the Wilcoxon p is 2/8 = 0.25.
//
// # Degenerate samples
//
// No result is ever NaN, so a correction never sees one. With no query,
// one query, or all differences 0 (identical runs) every test reports
// p = 1: there is no evidence of a difference. Equal non-zero differences
// (sd 0) give t = ±Inf and p = 0, as scipy does. Non-finite inputs and
// unpaired lengths are errors.
//
// # Reproducibility
//
// Monte Carlo samples come in fixed blocks of 1024, each drawn from its
// own PCG stream keyed by the seed ([WithSeed]), the comparison's stream
// ([WithStream]), the test and the block's index. Blocks run on
// [WithWorkers] goroutines and are reduced in block order, so a seed gives
// bit-identical p-values and intervals for any worker count. Long loops
// check their context.
//
// # Agreement with scipy
//
// testdata/scipy_golden.json holds scipy 1.14's ttest_rel, wilcoxon,
// permutation_test and bootstrap on generated values and on per-query
// average precision of generated runs, scipy 1.17's t.interval,
// bootstrap(method="BCa") and nct, statsmodels' TTestPower power and
// solve_power; parity/stats/golden.py makes it and
// parity/stats/check.sh checks a fresh seed. The t and Wilcoxon p agree
// to 1e-9 relative, the exact randomization p exactly, the Monte Carlo p
// and bootstrap bounds within their Monte Carlo error.
//
// The statistics are written here rather than taken from gonum where
// gonum has no paired test: gonum's stat/distuv supplies the t
// distribution; the signed-rank distribution, the resampling and the
// corrections are this package's own.
package significance
