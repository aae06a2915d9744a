package evaluate

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

// TestSummaryIsCorrectlyRoundedMean: the summary value of a trec_eval
// measure is the mean of its per-query values rounded once (a count is
// their sum), under every accumulation, dtype, batch size and number of
// workers; the reference is math/big.Rat over the per-query values Run
// reports. The input is made so that P_10's naive running mean is not the
// correctly rounded one: 50 queries, query i with k_i = 7i mod 11 relevant
// documents among its 10 ranked ones, Σ k_i = 248, so P_10 = 248/500 =
// 0.496 exactly in decimal, and the running float64 sum of the tenths over
// 50 gives 0.49599999999999994.
func TestSummaryIsCorrectlyRoundedMean(t *testing.T) {
	var qrels, runText strings.Builder
	sumK := 0
	for i := range 50 {
		k := 7 * i % 11
		sumK += k
		for j := range 10 {
			rel := 0
			if (7*j+i)%10 < k {
				rel = 1
			}
			fmt.Fprintf(&qrels, "q%02d 0 d%d %d\n", i, j, rel)
			fmt.Fprintf(&runText, "q%02d Q0 d%d %d %d r\n", i, j, j+1, 10-j)
		}
		if i%2 == 1 { // a relevant document the run missed
			fmt.Fprintf(&qrels, "q%02d 0 missed 1\n", i)
		}
	}
	if sumK != 248 {
		t.Fatalf("Σ k = %d, want 248 (the worked numbers)", sumK)
	}
	naive := 0.0
	for i := range 50 {
		naive += float64(7*i%11) / 10
	}
	if naive/50 == 0.496 {
		t.Fatalf("the naive mean %v is the correctly rounded one: the case tests nothing", naive/50)
	}
	names := []string{"P_10", "num_rel_ret", "num_rel", "ndcg_cut_10", "recip_rank", "map_cut_10", "map"}
	for _, tc := range []struct {
		dtype, acc     string
		batch, workers int
	}{
		{"float32", "sequential", 1024, 1}, // eval's default
		{"float32", "sequential", 7, 2},
		{"float64", "exact", 1024, 1},
		{"float64", "sequential", 3, 2},
		{"float32", "exact", 1, 3},
	} {
		t.Run(fmt.Sprintf("%s-%s-%d", tc.dtype, tc.acc, tc.batch), func(t *testing.T) {
			o := options(t, tc.dtype, "stable", names...)
			o.Batch, o.Workers = tc.batch, tc.workers
			var err error
			if o.Config.Accumulation, err = metric.ParseAccumulation(tc.acc); err != nil {
				t.Fatal(err)
			}
			res, pq := run(t, trecDocsReader(t, qrels.String(), runText.String()), o)
			if res.Values[0] != 0.496 {
				t.Errorf("P_10 = %v, want 0.496 (248/500 rounded once)", res.Values[0])
			}
			if res.Values[1] != 248 {
				t.Errorf("num_rel_ret = %v, want 248", res.Values[1])
			}
			if res.Values[2] != 248+25 {
				t.Errorf("num_rel = %v, want 273", res.Values[2])
			}
			for m, n := range names {
				if !o.Measures[m].IsTrecEval() {
					continue
				}
				sum := new(big.Rat)
				for _, q := range pq.order {
					sum.Add(sum, new(big.Rat).SetFloat64(pq.values[q][m]))
				}
				if n != "num_rel_ret" && n != "num_rel" {
					sum.Quo(sum, big.NewRat(int64(len(pq.order)), 1))
				}
				if want, _ := sum.Float64(); res.Values[m] != want {
					t.Errorf("%s = %v, want %v (big.Rat)", n, res.Values[m], want)
				}
			}
		})
	}
}
