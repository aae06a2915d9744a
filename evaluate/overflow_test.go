package evaluate

import (
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// TestRunGainOverflowKeepsTheOtherMeasures: in float32 the gain 2^200 - 1
// of q1's label 200 is +Inf, so q1's NDCG is Inf/Inf = NaN, as in
// TF-Ranking, and so is ndcg@3 overall; map and mrr are kept, whatever the
// accumulation and however the queries are split into updates. By hand:
// q1 ranks its relevant item first (AP 1, RR 1), q2 second (AP 1/2, RR
// 1/2), so map and mrr are 0.75.
func TestRunGainOverflowKeepsTheOtherMeasures(t *testing.T) {
	qs := []runio.Query{
		{QID: "q1", Labels: []float64{200, 0}, Scores: []float64{0.9, 0.5}},
		{QID: "q2", Labels: []float64{1, 0}, Scores: []float64{0.3, 0.8}},
	}
	for _, acc := range []metric.Accumulation{metric.Sequential, metric.Exact} {
		for _, batch := range []int{1, 1024} {
			o := options(t, "float32", "random", "map", "ndcg@3", "mrr")
			o.Config.Accumulation, o.Batch = acc, batch
			res, pq := run(t, &sliceReader{qs: qs}, o)
			if res.Values[0] != 0.75 || !math.IsNaN(res.Values[1]) || res.Values[2] != 0.75 {
				t.Errorf("%s batch %d: map, ndcg@3, mrr = %v, want 0.75, NaN, 0.75", acc, batch, res.Values)
			}
			if q1, q2 := pq.values["q1"][1], pq.values["q2"][1]; !math.IsNaN(q1) || q2 != float64(float32(1/math.Log2(3))) {
				t.Errorf("%s batch %d: ndcg@3 of q1, q2 = %v, %v; want NaN, 1/log2(3)", acc, batch, q1, q2)
			}
		}
	}
}
