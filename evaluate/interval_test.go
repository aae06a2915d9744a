package evaluate

import (
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/measure"
)

// TestMeanInterval: the t interval of {1, 2, 3} worked by hand (mean 2,
// sd 1; with 2 degrees of freedom t(0.975) = (2p-1) sqrt(2/(4p(1-p))) =
// 4.302652729749461 for p = 0.975, so the half width is t/sqrt(3)), and
// the measures that get none: a trec_eval sum, a weighted TF-Ranking mean,
// a single query.
func TestMeanInterval(t *testing.T) {
	parse := func(name string) Measure {
		t.Helper()
		m, err := measure.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var one, three, weighted MeanInterval
	one.Add(0.5, 1)
	for _, v := range []float64{1, 2, 3} {
		three.Add(v, 1)
		weighted.Add(v, v)
	}
	half := 4.302652729749461 / math.Sqrt(3)
	for _, tc := range []struct {
		name string
		s    MeanInterval
		want bool
	}{
		{"ndcg@5", three, true},
		{"map", three, true},
		{"P_10", three, true},
		{"P_10", weighted, true}, // trec_eval's plain mean: weights do not count
		{"num_rel", three, false},
		{"ndcg@5", weighted, false},
		{"ndcg@5", one, false},
		{"P_10", one, false},
	} {
		m := parse(tc.name)
		iv, err := tc.s.TInterval(m, 0.05)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (iv != nil) != tc.want {
			t.Errorf("%s (n %d, weighted %v): interval %v, want one: %v", tc.name, tc.s.Moments.N, tc.s.Weighted, iv, tc.want)
			continue
		}
		if iv != nil && (math.Abs(iv.Low-(2-half)) > 1e-12 || math.Abs(iv.High-(2+half)) > 1e-12) {
			t.Errorf("%s: [%v, %v], want [%v, %v]", tc.name, iv.Low, iv.High, 2-half, 2+half)
		}
	}
	var merged MeanInterval
	merged.Merge(one)
	merged.Merge(weighted)
	if merged.Moments.N != 4 || !merged.Weighted {
		t.Errorf("merged: %+v, want 4 values, weighted", merged)
	}
}
