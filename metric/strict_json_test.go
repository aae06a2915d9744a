package metric

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestUnknownKeys checks that the JSON forms of Config, Config, State and
// State reject a key they do not have, naming it, instead of
// silently dropping a misspelt setting.
func TestUnknownKeys(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		into     any
		want     string
	}{
		{"config", `{"name":"m","tie":"stable"}`, new(Config),
			`metric: config: json: unknown field "tie"; the keys are name, topn, dtype, ragged, ties, seed, accumulation, metric, gain, discount, convention, empty, relevance, alpha, subtopics, profile and adaptive_k: bad metric configuration`},
		{"config of a family metric", `{"metric":"ndcg","gian":"identity"}`, new(Config), `metric: config: json: unknown field "gian"; the keys are name, topn`},
		{"state", `{"config":{"name":"m"},"totl":1,"count":1}`, new(State), `metric: state: json: unknown field "totl"; the keys are config, total, count`},
		{"state config", `{"config":{"name":"m","top_n":3},"total":1,"count":1}`, new(State), `unknown field "top_n"`},
		{"family state", `{"settings":{"metric":"mrr"},"total":1,"count":1,"rng":null,"extra":0}`, new(State), `metric: state: json: unknown field "extra"; the keys are config, total`},
		{"family state settings", `{"settings":{"metric":"mrr","alpah":0.5},"total":1,"count":1}`, new(State), `unknown field "alpah"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.in), tc.into)
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrConfig containing %q", err, tc.want)
			}
		})
	}
	// The keys a state is written with are read back.
	m, _ := NewMRR(WithTopN(3))
	b, err := json.Marshal(m.State())
	if err != nil {
		t.Fatal(err)
	}
	var fs State
	if err := json.Unmarshal(b, &fs); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

// TestSetStateTotals checks that SetState rejects totals and counts that
// no metric can reach, naming the key, for MAP and for the family, under
// both accumulations, and takes the non-finite and negative totals the
// family's other metrics reach as TF-Ranking does.
func TestSetStateTotals(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name         string
		total, count float64
		exact        [2]string // exact_total, exact_count under Exact
		want         string    // "" for accepted
	}{
		{"nan total", nan, 1, [2]string{"nan", "1"}, "total is NaN; a state's total and count must be finite"},
		{"inf count", 1, inf, [2]string{"0", "+inf"}, "count is +Inf; a state's total and count must be finite"},
		{"-inf total", math.Inf(-1), 1, [2]string{"-inf", "1"}, "total is -Inf"},
		{"negative total", -0.5, 1, [2]string{"-1", "1"}, "total is -"},
		{"negative count", 0.5, -2, [2]string{"1", "-1"}, "count is -"},
		// 0.5 and 2 times 2^1074, as exact_total and exact_count hold them.
		{"fine", 0.5, 2, [2]string{"2" + strings.Repeat("0", 268), "8" + strings.Repeat("0", 268)}, ""},
	} {
		for _, acc := range []Accumulation{Sequential, Exact} {
			for _, d := range []DType{Float32, Float64} {
				m, _ := NewMeanAveragePrecision(WithDType(d), WithAccumulation(acc))
				st := m.State()
				st.Total, st.Count = tc.total, tc.count
				if acc == Exact {
					st.ExactTotal, st.ExactCount = tc.exact[0], tc.exact[1]
				}
				f, _ := NewMeanAveragePrecision(WithDType(d), WithAccumulation(acc))
				fst := f.State()
				fst.Total, fst.Count, fst.ExactTotal, fst.ExactCount = st.Total, st.Count, st.ExactTotal, st.ExactCount
				for who, err := range map[string]error{"MAP": m.SetState(st), "family MAP": f.SetState(fst)} {
					switch {
					case tc.want == "" && err != nil:
						t.Errorf("%s %s %s %s: %v", who, tc.name, acc, d, err)
					case tc.want != "" && (!errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "metric: SetState: metric: state ") || !strings.Contains(err.Error(), tc.want)):
						t.Errorf("%s %s %s %s: error %v, want ErrInput containing %q", who, tc.name, acc, d, err, tc.want)
					}
				}
			}
		}
	}
	// TF-Ranking's MRR of a batch of width 0 is the max over no ranks, -Inf:
	// a state the family's other metrics must take back.
	mrr, _ := NewMRR(WithDType(Float64), WithAccumulation(Sequential), WithRagged(true))
	empty, err := tensor.RaggedRows([][]float64{{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := mrr.Update(empty, empty, tensor.PerList([]float64{-2})); err != nil {
		t.Fatal(err)
	}
	st := mrr.State()
	// The list's weights sum to <= 0, so it weighs 0, and -Inf times 0 is NaN.
	if !math.IsNaN(st.Total) || st.Count != 0 {
		t.Fatalf("MRR state %v / %v, want NaN / 0", st.Total, st.Count)
	}
	fresh, _ := NewMRR(WithDType(Float64), WithAccumulation(Sequential), WithRagged(true))
	if err := fresh.SetState(st); err != nil {
		t.Fatal(err)
	}
	// Merge checks the other metric's state the same way.
	bad, _ := NewMeanAveragePrecision(WithDType(Float64), WithAccumulation(Sequential))
	fst := bad.State()
	fst.Count = math.NaN()
	bad.acc[0].count64 = fst.Count
	a, _ := NewMeanAveragePrecision(WithDType(Float64), WithAccumulation(Sequential))
	if err := a.Merge(bad); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "metric: Merge: metric 0: metric: state count is NaN") {
		t.Fatalf("merging a NaN count: %v", err)
	}
}
