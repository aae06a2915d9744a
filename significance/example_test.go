package significance_test

import (
	"context"
	"fmt"

	"github.com/rankmetrics/rankmetrics/significance"
)

// Per-query average precision of a baseline and a new run on 8 queries.
var (
	baseline = []float64{0.20, 0.35, 0.50, 0.10, 0.42, 0.61, 0.33, 0.25}
	run      = []float64{0.28, 0.35, 0.58, 0.15, 0.40, 0.70, 0.41, 0.30}
)

func Example() {
	d, err := significance.Differences(baseline, run)
	if err != nil {
		panic(err)
	}
	s, _ := significance.Summarize(baseline, run, 0.05)
	t, _ := significance.PairedT(d)
	w, _ := significance.Wilcoxon(d)
	// 2^8 = 256 sign patterns <= 10000 samples: exact enumeration.
	r, _ := significance.Randomization(context.Background(), d, significance.WithSamples(10000))
	fmt.Printf("diff %.4f, effect size %.2f, 95%% CI [%.4f, %.4f], W/T/L %d/%d/%d\n",
		s.Diff, s.EffectSize, s.CILow, s.CIHigh, s.Wins, s.Ties, s.Losses)
	fmt.Printf("t = %.3f, p = %.4f\n", t.Statistic, t.P)
	fmt.Printf("wilcoxon W = %v, p = %.4f (exact %v)\n", w.Statistic, w.P, w.Exact)
	fmt.Printf("randomization p = %.4f (exact %v)\n", r.P, r.Exact)
	// scipy 1.14 gives the same: ttest_rel 3.5475, p 0.009375, interval
	// [0.01709, 0.08541]; wilcoxon (tied |d|: approx) 1, 0.02743;
	// permutation_test 0.03125.
	//
	// Output:
	// diff 0.0512, effect size 1.25, 95% CI [0.0171, 0.0854], W/T/L 6/1/1
	// t = 3.548, p = 0.0094
	// wilcoxon W = 1, p = 0.0274 (exact false)
	// randomization p = 0.0312 (exact true)
}

func ExampleCorrection_Adjust() {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	for _, c := range []significance.Correction{significance.Bonferroni, significance.Holm, significance.BH} {
		adj, _ := c.Adjust(p)
		fmt.Println(c, adj)
	}
	// Output:
	// bonferroni [0.04 0.16 0.12 0.02]
	// holm [0.03 0.06 0.06 0.02]
	// bh [0.02 0.04 0.04 0.02]
}
