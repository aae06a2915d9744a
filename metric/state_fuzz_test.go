package metric

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// FuzzSetStateMerge gives SetState and Merge arbitrary states, exact sums
// included, of MAP and of metrics with unbounded totals (MRR, NDCG). None
// may panic. A state MAP accepts must give a result in [0, 1] (up to an
// ulp's rounding), alone, merged with another accepted state, and after an
// update, and must come back through JSON to the same result.
func FuzzSetStateMerge(f *testing.F) {
	f.Add(byte(0), 0.5, 1.0, "", "", 0.25, 2.0)
	f.Add(byte(1), 0.5, 1.0, "1", "2", 0.0, 0.0)
	f.Add(byte(2), 5.0, 0.0, "", "", 1.0, 1.0)
	// The low bits pick MAP, MRR or NDCG; bit 2 float64, bit 3 Exact.
	f.Add(byte(3), 5.0, 0.0, "", "", 1.0, 1.0) // MAP 6 after an update
	f.Add(byte(6), 5.0, 1.0, "", "", 0.0, 0.0)
	f.Add(byte(9), 0.0, 0.0, "a", "1", 1.5, 1.0)
	f.Add(byte(3), 1e308, 1e308, "nan", "+inf", -1.0, 1.0)
	f.Add(byte(4), math.Inf(-1), 1.0, "-inf", "1", math.NaN(), 1.0)
	f.Add(byte(13), 1.5, 2.0, "3", "4", 1.0, 3e38)
	f.Fuzz(func(t *testing.T, h byte, total, count float64, exTotal, exCount string, total2, count2 float64) {
		kind := []Kind{KindMAP, KindMRR, KindNDCG}[int(h)%3]
		d := DType(h >> 2 & 1)
		acc := []Accumulation{Sequential, Exact}[h>>3&1]
		cfg := DefaultConfig(kind)
		cfg.DType, cfg.Accumulation, cfg.Ties = d, acc, Stable
		if err := cfg.Validate(); err != nil {
			t.Skip()
		}
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(cfg)
		st := State{Config: cfg, Total: total, Count: count, ExactTotal: exTotal, ExactCount: exCount}
		st2 := State{Config: cfg, Total: total2, Count: count2}
		if acc == Exact {
			// A second state from exact sums of the fuzzed values.
			var ex ExactTotals
			ex.Add(d, total2, count2)
			st2 = ex.State(cfg)
		}
		okA := a.SetState(st) == nil
		okB := b.SetState(st2) == nil
		inRange := func(what string, m Metric) {
			if kind != KindMAP {
				return
			}
			if r := m.Result(); !(r >= 0 && r <= 1+boundSlack) {
				t.Fatalf("%s: MAP %v from states %+v and %+v", what, r, st, st2)
			}
		}
		if okA {
			inRange("SetState", a)
			raw, err := json.Marshal(a.State())
			if err != nil {
				t.Fatalf("an accepted state does not marshal: %v", err)
			}
			var back State
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatalf("Unmarshal %s: %v", raw, err)
			}
			c, _ := New(cfg)
			if err := c.SetState(back); err != nil {
				t.Fatalf("SetState(%s) after JSON: %v", raw, err)
			}
			if r, r0 := c.Result(), a.Result(); r != r0 && !(math.IsNaN(r) && math.IsNaN(r0)) {
				t.Fatalf("%s: result %v after JSON, %v before", raw, r, r0)
			}
		}
		if okA && okB {
			if err := mergeMetrics(a, b); err == nil {
				inRange("Merge", a)
			}
		}
		labels, _ := tensor.DenseRows([][]float32{{1, 0, 2}})
		scores, _ := tensor.DenseRows([][]float32{{0.5, 0.7, 0.1}})
		if a.Update(labels, scores, tensor.Weights{}) == nil && okA {
			inRange("Update", a)
		}
	})
}

// mergeMetrics merges b into a, metrics of one kind.
func mergeMetrics(a, b Metric) error {
	switch a := a.(type) {
	case *MeanAveragePrecision:
		return a.Merge(b.(*MeanAveragePrecision))
	case *MRR:
		return a.Merge(b.(*MRR))
	case *NDCG:
		return a.Merge(b.(*NDCG))
	}
	return nil
}
