package metric

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestExactTotals checks ExactTotals against sums of big.Rat: the result
// is the exact quotient rounded once, whatever the order of the lists and
// however they are split between merged totals, and it survives the JSON
// round trip of its State.
func TestExactTotals(t *testing.T) {
	type list struct{ v, w float64 }
	for _, tc := range []struct {
		name  string
		dtype DType
		lists []list
	}{
		{"cancelling", Float64, []list{{1e16, 1}, {1, 1}, {-1e16, 1}}},
		{"tiny and huge", Float64, []list{{1e-300, 1e-10}, {1e300, 1e-10}, {-1e300, 1e-10}, {3, 2}}},
		{"float32 products", Float32, []list{{0.1, 3}, {0.7, 0.3}, {1, 1e-3}}},
		{"empty", Float64, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			num, den := new(big.Rat), new(big.Rat)
			for _, l := range tc.lists {
				vw := l.v * l.w
				if tc.dtype == Float32 {
					vw = float64(float32(l.v) * float32(l.w))
				}
				num.Add(num, new(big.Rat).SetFloat64(vw))
				den.Add(den, new(big.Rat).SetFloat64(l.w))
			}
			want, want32 := 0.0, float32(0)
			if den.Sign() != 0 {
				want, _ = new(big.Rat).Quo(num, den).Float64()
				want32, _ = new(big.Rat).Quo(num, den).Float32()
			}
			// Forwards in one, backwards split in two and merged.
			var fwd, a, b ExactTotals
			for i, l := range tc.lists {
				fwd.Add(tc.dtype, l.v, l.w)
				r := tc.lists[len(tc.lists)-1-i]
				if i%2 == 0 {
					a.Add(tc.dtype, r.v, r.w)
				} else {
					b.Add(tc.dtype, r.v, r.w)
				}
			}
			a.Merge(&b)
			raw, err := json.Marshal(a.State(Config{}))
			if err != nil {
				t.Fatal(err)
			}
			var s State
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			var back ExactTotals
			if err := back.SetState(s); err != nil {
				t.Fatal(err)
			}
			for name, got := range map[string]float64{"forwards": fwd.Result(), "merged": a.Result(), "round trip": back.Result()} {
				if got != want {
					t.Errorf("%s: Result = %v, want %v", name, got, want)
				}
			}
			if got := back.ResultIn(Float64); got != want {
				t.Errorf("ResultIn(Float64) = %v, want %v", got, want)
			}
			if got := back.ResultIn(Float32); got != float64(want32) {
				t.Errorf("ResultIn(Float32) = %v, want %v", got, want32)
			}
			back.Reset()
			if got := back.Result(); got != 0 {
				t.Errorf("after Reset: Result = %v, want 0", got)
			}
		})
	}
}

// TestExactTotalsSetStateErrors checks that a sum that does not decode is
// named and leaves the totals unchanged.
func TestExactTotalsSetStateErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    State
	}{
		{"bad total", State{ExactTotal: "xyz", ExactCount: "0"}},
		{"bad count", State{ExactTotal: "0", ExactCount: "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e ExactTotals
			e.Add(Float64, 0.5, 2)
			if err := e.SetState(tc.s); err == nil {
				t.Fatal("SetState: no error")
			}
			if got := e.Result(); got != 0.5 {
				t.Errorf("after a failed SetState: Result = %v, want 0.5", got)
			}
		})
	}
}

// TestExactResultInDType: a float32 metric under Exact accumulation returns
// the exact weighted mean rounded once to float32, computed here with
// big.Rat from the per-list values and list weights the metric reports.
func TestExactResultInDType(t *testing.T) {
	for _, d := range []DType{Float32, Float64} {
		m, err := NewMeanAveragePrecision(WithDType(d), WithAccumulation(Exact), WithTies(Stable))
		if err != nil {
			t.Fatal(err)
		}
		num, den := new(big.Rat), new(big.Rat)
		for b := range 40 {
			labels, _ := tensor.DenseRows([][]float32{{float32(b % 3), 1, 0, float32(b % 2)}, {0, 0, 1, 1}})
			scores, _ := tensor.DenseRows([][]float32{{0.5, float32(b%5) / 5, 0.25, 0.75}, {float32(b%7) / 7, 0.3, 0.2, 0.1}})
			var pl PerList
			if err := m.UpdatePerList(&pl, labels, scores, tensor.Weights{}); err != nil {
				t.Fatal(err)
			}
			for i, v := range pl.Values {
				w := pl.Weights[i]
				vw := v * w
				if d == Float32 {
					vw = float64(float32(v) * float32(w))
				}
				num.Add(num, new(big.Rat).SetFloat64(vw))
				den.Add(den, new(big.Rat).SetFloat64(w))
			}
		}
		q := new(big.Rat).Quo(num, den)
		want, _ := q.Float64()
		if d == Float32 {
			w32, _ := q.Float32()
			want = float64(w32)
		}
		if got := m.Result(); got != want {
			t.Errorf("%s: Result %v, want %v", d, got, want)
		}
	}
}
