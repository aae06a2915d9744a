package metric

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
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

// TestWeightOverflowStates checks the rule that every state a successful
// Update or Merge leaves goes through JSON, SetState and Merge: MAP refuses
// at Update (changing nothing) the weights whose sums overflow its
// Sequential totals or a list weight, and under Exact accumulation, whose
// sums do not overflow, keeps them. The lists {1, 0} scored {0.9, 0.5} and
// {0.3, 0.8} have AP 1 and 1/2: with equal list weights MAP is 0.75.
func TestWeightOverflowStates(t *testing.T) {
	labels, _ := tensor.DenseRows([][]float64{{1, 0}, {1, 0}})
	preds, _ := tensor.DenseRows([][]float64{{0.9, 0.5}, {0.3, 0.8}})
	both, _ := tensor.DenseRows([][]float64{{1, 1}, {1, 0}})
	huge, _ := tensor.DenseRows([][]float64{{1.7e308, 1.7e308}, {1, 1}})
	for _, tc := range []struct {
		name    string
		d       DType
		acc     Accumulation
		labels  tensor.Lists
		weights tensor.Weights
		want    string // the error; "" for MAP 0.75
	}{
		{"float64 sequential totals", Float64, Sequential, labels, tensor.PerList([]float64{1.7e308, 1.7e308}), "the sum of the list weights of this batch of 2 lists overflows float64"},
		{"float32 sequential totals", Float32, Sequential, labels, tensor.PerList([]float32{3e38, 3e38}), "the sum of the list weights of this batch of 2 lists overflows float32"},
		{"float64 exact totals", Float64, Exact, labels, tensor.PerList([]float64{1.7e308, 1.7e308}), ""},
		{"float32 exact totals", Float32, Exact, labels, tensor.PerList([]float32{3e38, 3e38}), ""},
		{"list weight sequential", Float64, Sequential, both, tensor.PerItem(huge), "list 0 weighs +Inf: the sum of its weights overflows float64"},
		{"list weight exact", Float64, Exact, both, tensor.PerItem(huge), "list 0 weighs +Inf: the sum of its weights overflows float64"},
	} {
		m, _ := NewMeanAveragePrecision(WithDType(tc.d), WithAccumulation(tc.acc), WithTies(Stable))
		before, _ := json.Marshal(m.State())
		err := m.Update(tc.labels, preds, tc.weights)
		if tc.want != "" {
			after, _ := json.Marshal(m.State())
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) || string(after) != string(before) {
				t.Errorf("%s: Update: %v, state %s; want ErrInput containing %q and the state unchanged", tc.name, err, after, tc.want)
			}
			continue
		}
		if err != nil || m.Result() != 0.75 {
			t.Fatalf("%s: Update: %v, MAP %v; want 0.75", tc.name, err, m.Result())
		}
		b, err := json.Marshal(m.State())
		if err != nil {
			t.Fatalf("%s: Marshal: %v", tc.name, err)
		}
		var st State
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatalf("%s: Unmarshal %s: %v", tc.name, b, err)
		}
		fresh, _ := NewMeanAveragePrecision(WithDType(tc.d), WithAccumulation(tc.acc), WithTies(Stable))
		if err := fresh.SetState(st); err != nil || fresh.Result() != 0.75 {
			t.Errorf("%s: SetState(%s): %v, MAP %v; want 0.75", tc.name, b, err, fresh.Result())
		}
		merged, _ := NewMeanAveragePrecision(WithDType(tc.d), WithAccumulation(tc.acc), WithTies(Stable))
		if err := merged.Merge(m, fresh); err != nil || merged.Result() != 0.75 {
			t.Errorf("%s: Merge: %v, MAP %v; want 0.75", tc.name, err, merged.Result())
		}
	}
	// Two Sequential states of one list each are fine; their merge would
	// overflow, so Merge refuses it and leaves the receiver as it was.
	one, _ := tensor.DenseRows([][]float64{{1, 0}})
	p1, _ := tensor.DenseRows([][]float64{{0.9, 0.5}})
	var parts [2]*MeanAveragePrecision
	for i := range parts {
		parts[i], _ = NewMeanAveragePrecision(WithDType(Float64), WithAccumulation(Sequential))
		if err := parts[i].Update(one, p1, tensor.PerList([]float64{1.7e308})); err != nil {
			t.Fatal(err)
		}
	}
	if err := parts[0].Merge(parts[1]); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "the merged total and count (+Inf, +Inf) are no state of the metric") {
		t.Errorf("Merge of overflowing states: %v", err)
	}
	if st := parts[0].State(); st.Total != 1.7e308 || st.Count != 1.7e308 {
		t.Errorf("after a refused Merge the state is %v / %v, want 1.7e308 / 1.7e308", st.Total, st.Count)
	}
}

// TestSetStateImpossible checks that SetState refuses, naming the field,
// the states no MAP reaches: a total with a count of 0, a total above the
// count (MAP is at most 1), and under Exact a rounded total that is not the
// exact one rounded; the refused metric is unchanged.
func TestSetStateImpossible(t *testing.T) {
	var ex ExactTotals
	ex.Add(Float64, 0.75, 2) // total 1.5, count 2
	good := ex.State(Config{})
	var over ExactTotals
	over.Add(Float64, 3, 2) // total 6, count 2: MAP 3
	for _, tc := range []struct {
		name  string
		acc   Accumulation
		state State
		want  string
	}{
		{"total with count 0", Sequential, State{Total: 5, Count: 0}, "state total is 5 with a count of 0"},
		{"total above count", Sequential, State{Total: 5, Count: 1}, "state total 5 is 5 times the count 1"},
		{"exact total above count", Exact, over.State(Config{}), "state exact_total 6 is 3 times the exact_count 2"},
		{"rounded total disagrees", Exact, State{Total: 5, Count: 2, ExactTotal: good.ExactTotal, ExactCount: good.ExactCount}, "state total 5 is not exact_total rounded once (1.5)"},
		{"rounded count disagrees", Exact, State{Total: 1.5, Count: 0, ExactTotal: good.ExactTotal, ExactCount: good.ExactCount}, "state count 0 is not exact_count rounded once (2)"},
		{"fine", Exact, good, ""},
		{"fine sequential", Sequential, State{Total: 1.5, Count: 2}, ""},
	} {
		for _, d := range []DType{Float32, Float64} {
			m, _ := NewMeanAveragePrecision(WithDType(d), WithAccumulation(tc.acc))
			st := tc.state
			st.Config = m.Config()
			err := m.SetState(st)
			switch {
			case tc.want == "" && (err != nil || m.Result() != 0.75):
				t.Errorf("%s %s: SetState: %v, MAP %v; want 0.75", tc.name, d, err, m.Result())
			case tc.want != "" && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) || m.Result() != 0 || m.State().Count != 0):
				t.Errorf("%s %s: SetState: %v, MAP %v; want ErrInput containing %q and the metric unchanged", tc.name, d, err, m.Result(), tc.want)
			}
		}
	}
}

// TestAccumulateRefusesValuesAboveOne checks the guard that keeps MAP's
// states within what SetState takes when float32 rounding puts a list's AP
// or the Sequential total above 1 (it does, by 1e-5 for lists of 100,000
// weighted items; far more than boundSlack needs lists of many millions,
// so the rounded values are set by hand here): Update refuses such a batch
// and changes nothing.
func TestAccumulateRefusesValuesAboveOne(t *testing.T) {
	labels, _ := tensor.DenseRows([][]float32{{1, 0}, {1, 0}})
	preds, _ := tensor.DenseRows([][]float32{{0.9, 0.5}, {0.3, 0.8}})
	for _, tc := range []struct {
		name   string
		val, v float32 // list 0's value and value·weight (weight 1)
		acc    Accumulation
		want   string
	}{
		{"value above 1", 1.5, 1.5, Sequential, "list 0 has the value 1.5, above 1: float32 sums its item weights with too little precision"},
		{"value above 1, exact", 1.5, 1.5, Exact, "list 0 has the value 1.5, above 1"},
		{"total above count", 1, 2.5, Sequential, "would leave the total above the count (3, 2)"},
	} {
		m, _ := NewMeanAveragePrecision(WithTies(Stable), WithAccumulation(tc.acc))
		m.mu.Lock()
		if err := m.compute(labels, preds, tensor.Weights{}, nil); err != nil {
			t.Fatal(err)
		}
		m.ws32.out[0].val[0], m.ws32.out[0].v[0] = tc.val, tc.v
		err := m.accumulate(2)
		m.mu.Unlock()
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrInput containing %q", tc.name, err, tc.want)
		}
		if st := m.State(); st.Total != 0 || st.Count != 0 {
			t.Errorf("%s: the refused batch left %v / %v", tc.name, st.Total, st.Count)
		}
	}
}
