package beam

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
)

// exactMoments returns the count, mean and sum of squared deviations of
// measure i's values by two passes in big.Rat arithmetic, rounded once:
// the reference the merged moments are compared with.
func exactMoments(values []QueryValue, i int) significance.Moments {
	n := int64(len(values))
	sum := new(big.Rat)
	for _, v := range values {
		sum.Add(sum, new(big.Rat).SetFloat64(v.Value[i]))
	}
	mean := new(big.Rat).Quo(sum, new(big.Rat).SetInt64(n))
	m2 := new(big.Rat)
	for _, v := range values {
		d := new(big.Rat).Sub(new(big.Rat).SetFloat64(v.Value[i]), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	mf, _ := mean.Float64()
	m2f, _ := m2.Float64()
	return significance.Moments{N: n, Mean: mf, M2: m2f}
}

// intervalTolerance is the relative difference allowed between a bound
// from merged moments and the bound from the exact two-pass moments:
// Chan's pairwise merge rounds at each merge, which moves the bounds by a
// few ulps (the largest measured below is logged).
const intervalTolerance = 1e-12

// TestIntervalMergeOrder: for random shardings, merge orders and trips
// through the coder, the t interval of each measure is within
// intervalTolerance (relative) of the interval of the exact two-pass mean
// and variance of all the per-query values; the measures eval gives no
// interval (a trec_eval sum, a TF-Ranking mean with list weights other
// than 1) have none; and one accumulator fed in query order gives eval's
// interval to the bit (eval adds the values in query order, Welford's
// update, evaluate.MeanInterval).
func TestIntervalMergeOrder(t *testing.T) {
	ms := []metric.Config{
		cfg("ndcg@5", 5, metric.Float64, metric.Stable, true),
		cfg("mrr", metric.NoTopN, metric.Float64, metric.Stable, true),
		cfg("P_10", metric.NoTopN, metric.Float64, metric.Stable, true),
		cfg("num_rel", metric.NoTopN, metric.Float64, metric.Stable, true),
	}
	wantCI := []bool{true, false, true, false}
	for _, alpha := range []float64{0, 0.01, 0.2} {
		t.Run(fmt.Sprint(alpha), func(t *testing.T) {
			fn, err := NewOverallFn(ms)
			if err != nil {
				t.Fatal(err)
			}
			fn.Alpha = alpha
			a := alpha
			if a == 0 {
				a = 0.05
			}
			rng := rand.New(rand.NewPCG(22, uint64(1000*a)))
			values := make([]QueryValue, 2000)
			for i := range values {
				// ndcg@5 near 0.9 with a small spread, so that the
				// variance suffers cancellation; mrr weighted; P_10 in
				// tenths; num_rel counts.
				nd := 0.9 + 1e-3*rng.NormFloat64()
				values[i] = QueryValue{QID: fmt.Sprint(i),
					Value:  []float64{nd, 1 / float64(1+rng.IntN(10)), float64(rng.IntN(11)) / 10, float64(rng.IntN(50))},
					Weight: []float64{1, 1 + float64(rng.IntN(3)), 1, 1}, Counts: Counts{Queries: 1}}
			}
			values[0].Weight[1] = 2 // one weight other than 1 is enough
			want := make([]*significance.Interval, len(ms))
			inOrder := fn.CreateAccumulator()
			for _, v := range values {
				if inOrder, err = fn.AddInput(inOrder, v); err != nil {
					t.Fatal(err)
				}
			}
			ordered, err := fn.ExtractOutput(inOrder)
			if err != nil {
				t.Fatal(err)
			}
			for i := range ms {
				if wantCI[i] {
					iv, err := exactMoments(values, i).TInterval(a)
					if err != nil {
						t.Fatal(err)
					}
					want[i] = &iv
				}
				// eval's own collection: MeanInterval.Add in query order.
				var ev evaluate.MeanInterval
				for _, v := range values {
					ev.Add(v.Value[i], v.Weight[i])
				}
				evIV, err := ev.TInterval(fn.plan.Measures()[i], a)
				if err != nil {
					t.Fatal(err)
				}
				got := ordered.Measures[i].CI
				if (evIV == nil) != (got == nil) || got != nil && (got.Low != evIV.Low || got.High != evIV.High) {
					t.Errorf("%s in query order: %v, eval's %v", ms[i].Name, got, evIV)
				}
			}
			if ordered.CI.Method != "t" || ordered.CI.Level != 1-a {
				t.Errorf("CI summary %+v, want t at %v", ordered.CI, 1-a)
			}
			worst := 0.0
			for trial := range 30 {
				r := combineRandomly(t, fn, values, rng)
				for i, m := range r.Measures {
					if (m.CI != nil) != wantCI[i] {
						t.Fatalf("trial %d: %s: interval %v, want one: %v", trial, m.Name, m.CI, wantCI[i])
					}
					if m.CI == nil {
						continue
					}
					for _, b := range [][2]float64{{m.CI.Low, want[i].Low}, {m.CI.High, want[i].High}} {
						rel := math.Abs(b[0]-b[1]) / math.Abs(b[1])
						worst = max(worst, rel)
						if !(rel <= intervalTolerance) {
							t.Errorf("trial %d: %s: bound %v, two-pass %v (relative %.3g)", trial, m.Name, b[0], b[1], rel)
						}
					}
				}
			}
			t.Logf("alpha %v: largest relative difference of a bound: %.3g", a, worst)
		})
	}
}

// TestIntervalNone: no interval for fewer than two queries, nor with a
// non-finite per-query value, whose measure is reported without one, as
// eval reports it; a bad Alpha is an error.
func TestIntervalNone(t *testing.T) {
	fn, err := NewOverallFn([]metric.Config{cfg("ndcg@5", 5, metric.Float64, metric.Stable, true)})
	if err != nil {
		t.Fatal(err)
	}
	acc := fn.CreateAccumulator()
	for i, v := range []float64{0.5, math.NaN()} {
		r, err := fn.ExtractOutput(clone(t, acc))
		if err != nil || r.Measures[0].CI != nil {
			t.Errorf("%d queries: interval %v, %v; want none", i, r.Measures[0].CI, err)
		}
		if acc, err = fn.AddInput(acc, QueryValue{QID: fmt.Sprint(i), Value: []float64{v}, Weight: []float64{1}}); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := fn.ExtractOutput(clone(t, acc)); err != nil || r.Measures[0].CI != nil || !math.IsNaN(r.Measures[0].Value) {
		t.Errorf("a NaN value: %+v, %v; want the value NaN without an interval", r.Measures, err)
	}
	fn.Alpha = 1
	if _, err := fn.ExtractOutput(fn.CreateAccumulator()); err == nil {
		t.Error("alpha 1: no error")
	}
}
