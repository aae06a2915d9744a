package adapters

import (
	"math"
	"testing"
)

// TestWithInterval: the values {1, 2, 3} have mean 2, sd 1 and
// t(0.975, 2) = 4.302652729749464 (scipy.stats.t.ppf), so the interval is
// 2 ± 4.302652729749464/sqrt(3).
func TestWithInterval(t *testing.T) {
	m, err := WithInterval(map[string]float64{"ndcg": 2}, "ndcg", []float64{1, 2, 3}, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	half := 4.302652729749464 / math.Sqrt(3)
	if math.Abs(m["ndcg_ci_low"]-(2-half)) > 1e-12 || math.Abs(m["ndcg_ci_high"]-(2+half)) > 1e-12 || m["ndcg"] != 2 {
		t.Errorf("got %v, want ndcg 2 in [%v, %v]", m, 2-half, 2+half)
	}
	if _, err := WithInterval(nil, "x", nil, 2); err == nil {
		t.Error("alpha 2: no error")
	}
}
