package metric

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestGainOverflowKeepsTheOtherMetrics checks that a float32 gain that
// overflows (2^200 - 1 is +Inf in float32) gives TF-Ranking's numbers for
// its list, NDCG Inf/Inf = NaN and DCG NaN (the list weight Σ w·gain /
// Σ gain is Inf/Inf), and a state that goes through JSON, SetState and
// Merge, so that the suite's MAP is kept: the lists {200, 0} and {1, 0},
// scored {0.9, 0.5} and {0.3, 0.8}, have AP 1 and 1/2, MAP 0.75.
func TestGainOverflowKeepsTheOtherMetrics(t *testing.T) {
	labels, _ := tensor.DenseRows([][]float32{{200, 0}, {1, 0}})
	preds, _ := tensor.DenseRows([][]float32{{0.9, 0.5}, {0.3, 0.8}})
	for _, acc := range []Accumulation{Sequential, Exact} {
		// Two suites merged into a third, as eval reduces its batches.
		var parts [2]*Suite
		for i := range parts {
			s, err := NewSuite([]string{"map", "ndcg@3", "dcg"}, WithAccumulation(acc))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Update(labels, preds, tensor.Weights{}); err != nil {
				t.Fatalf("%s: Update: %v", acc, err)
			}
			parts[i] = s
		}
		total, _ := NewSuite([]string{"map", "ndcg@3", "dcg"}, WithAccumulation(acc))
		if err := total.Merge(parts[0], parts[1]); err != nil {
			t.Fatalf("%s: Merge: %v", acc, err)
		}
		got := total.Results()
		if got[0].Value != 0.75 || !math.IsNaN(got[1].Value) || !math.IsNaN(got[2].Value) {
			t.Errorf("%s: results %v, want map 0.75, ndcg@3 NaN, dcg NaN", acc, got)
		}
		// Each metric's state goes through JSON and SetState.
		for j, st := range total.State() {
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatalf("%s: %s: Marshal: %v", acc, st.Config.Name, err)
			}
			var back State
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("%s: %s: Unmarshal %s: %v", acc, st.Config.Name, b, err)
			}
			m, err := New(back.Config)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.SetState(back); err != nil {
				t.Fatalf("%s: %s: SetState(%s): %v", acc, st.Config.Name, b, err)
			}
			if r := m.Result(); r != got[j].Value && !(math.IsNaN(r) && math.IsNaN(got[j].Value)) {
				t.Errorf("%s: %s: %v after the round trip, want %v", acc, st.Config.Name, r, got[j].Value)
			}
		}
	}
}

// TestStateJSONNonFinite checks that the non-finite totals TF-Ranking
// reaches go through a state's JSON form: MRR at cutoff 0 is the max over
// no ranks, -Inf, for each list of weight 1, so its total is -Inf and its
// count 2.
func TestStateJSONNonFinite(t *testing.T) {
	labels, _ := tensor.DenseRows([][]float64{{1, 0}, {0, 1}})
	for _, d := range []DType{Float32, Float64} {
		for _, acc := range []Accumulation{Sequential, Exact} {
			m, _ := NewMRR(WithTopN(0), WithDType(d), WithAccumulation(acc))
			if err := m.Update(labels, labels, tensor.Weights{}); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(m.State())
			if err != nil {
				t.Fatalf("%s %s: Marshal: %v", d, acc, err)
			}
			var st State
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatalf("%s %s: Unmarshal %s: %v", d, acc, b, err)
			}
			if !math.IsInf(st.Total, -1) || st.Count != 2 {
				t.Errorf("%s %s: %s decodes to total %v, count %v; want -Inf, 2", d, acc, b, st.Total, st.Count)
			}
			fresh, _ := NewMRR(WithTopN(0), WithDType(d), WithAccumulation(acc))
			if err := fresh.SetState(st); err != nil || !math.IsInf(fresh.Result(), -1) {
				t.Errorf("%s %s: SetState(%s): %v, result %v; want -Inf", d, acc, b, err, fresh.Result())
			}
		}
	}
}
