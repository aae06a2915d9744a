package metric

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

var inf = math.Inf(1)

// handCase is one batch whose per-list values were worked out by hand.
type handCase struct {
	name      string
	labels    [][]float64
	preds     [][]float64
	weights   [][]float64 // per item
	perList   []float64
	ragged    bool
	opts      []Option
	wantAP    []float64
	wantLW    []float64
	wantTotal float64 // result of the metric after this one update
	dtypes    []DType // nil for both
}

func handCases() []handCase {
	return []handCase{
		{name: "two relevant at ranks 1 and 3", labels: [][]float64{{1, 0, 1, 0}}, preds: [][]float64{{4, 3, 2, 1}},
			wantAP: []float64{(1 + 2.0/3) / 2}, wantLW: []float64{1}, wantTotal: (1 + 2.0/3) / 2},
		{name: "top 2 keeps the whole-list denominator", labels: [][]float64{{1, 0, 1, 0}}, preds: [][]float64{{4, 3, 2, 1}},
			opts: []Option{WithTopN(2)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "top 0 gives 0 and keeps the weight", labels: [][]float64{{1, 0}}, preds: [][]float64{{2, 1}},
			opts: []Option{WithTopN(0)}, wantAP: []float64{0}, wantLW: []float64{1}, wantTotal: 0},
		{name: "top n past the end is the whole list", labels: [][]float64{{0, 1}}, preds: [][]float64{{2, 1}},
			opts: []Option{WithTopN(50)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "graded labels count as relevant", labels: [][]float64{{3, 0, 2, 0}}, preds: [][]float64{{4, 3, 2, 1}},
			wantAP: []float64{(1 + 2.0/3) / 2}, wantLW: []float64{1}, wantTotal: (1 + 2.0/3) / 2},
		{name: "label 0.5 is valid but not relevant", labels: [][]float64{{0.5, 1}}, preds: [][]float64{{2, 1}},
			wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "dense label -1 is masked", labels: [][]float64{{-1, 1}}, preds: [][]float64{{5, 1}},
			wantAP: []float64{1}, wantLW: []float64{1}, wantTotal: 1},
		{name: "dense NaN label is masked", labels: [][]float64{{math.NaN(), 1}}, preds: [][]float64{{5, 1}},
			wantAP: []float64{1}, wantLW: []float64{1}, wantTotal: 1},
		{name: "ragged label -1 is a valid non-relevant item", labels: [][]float64{{-1, 1}}, preds: [][]float64{{5, 1}},
			ragged: true, opts: []Option{WithRagged(true)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "weight 0 masks the item", labels: [][]float64{{0, 1}}, preds: [][]float64{{5, 1}}, weights: [][]float64{{0, 1}},
			wantAP: []float64{1}, wantLW: []float64{1}, wantTotal: 1},
		{name: "negative weight masks the item and counts in the sum", labels: [][]float64{{0, 1}}, preds: [][]float64{{5, 1}},
			weights: [][]float64{{-3, 1}}, wantAP: []float64{1}, wantLW: []float64{0}, wantTotal: 0},
		{name: "per-item weights", labels: [][]float64{{1, 0, 1}}, preds: [][]float64{{3, 2, 1}}, weights: [][]float64{{2, 1, 4}},
			wantAP: []float64{(2 + 2.0/3*4) / 6}, wantLW: []float64{3}, wantTotal: (2 + 2.0/3*4) / 6},
		{name: "a list without relevant items gets AP 0, weight 1", labels: [][]float64{{0, 0}}, preds: [][]float64{{2, 1}},
			wantAP: []float64{0}, wantLW: []float64{1}, wantTotal: 0},
		{name: "a list without relevant items gets the batch's mean list weight",
			labels: [][]float64{{1, 0}, {0, 0}, {1, 1}, {1, 0}}, preds: [][]float64{{2, 1}, {2, 1}, {2, 1}, {1, 2}},
			perList: []float64{4, 2, 0, 1},
			wantAP:  []float64{1, 0, 0, 0.5}, wantLW: []float64{4, 2.5, 0, 1}, wantTotal: (4 + 0.5) / (4 + 2.5 + 1)},
		{name: "an all-invalid dense list still weighs 1", labels: [][]float64{{-1, -1}, {1, 0}}, preds: [][]float64{{1, 2}, {2, 1}},
			wantAP: []float64{0, 1}, wantLW: []float64{1, 1}, wantTotal: 0.5},
		{name: "an empty ragged row weighs 1 through its padding", labels: [][]float64{{1}, {}}, preds: [][]float64{{1}, {}},
			ragged: true, opts: []Option{WithRagged(true)}, wantAP: []float64{1, 0}, wantLW: []float64{1, 1}, wantTotal: 0.5},
		{name: "ragged per-item weights pad with 0", labels: [][]float64{{1}, {}}, preds: [][]float64{{1}, {}}, weights: [][]float64{{2}, {}},
			ragged: true, opts: []Option{WithRagged(true)}, wantAP: []float64{1, 0}, wantLW: []float64{2, 0}, wantTotal: 1},
		{name: "ragged per-list weights reach the padding", labels: [][]float64{{1}, {}}, preds: [][]float64{{1}, {}}, perList: []float64{2, 3},
			ragged: true, opts: []Option{WithRagged(true)}, wantAP: []float64{1, 0}, wantLW: []float64{2, 2}, wantTotal: 0.5},
		{name: "infinite scores sort normally", labels: [][]float64{{1, 0, 0}}, preds: [][]float64{{-inf, inf, 0}},
			wantAP: []float64{1.0 / 3}, wantLW: []float64{1}, wantTotal: 1.0 / 3},
		{name: "stable ties keep input order", labels: [][]float64{{0, 1}}, preds: [][]float64{{1, 1}},
			opts: []Option{WithTies(Stable)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "pessimistic ties put relevant items last", labels: [][]float64{{1, 0}}, preds: [][]float64{{1, 1}},
			opts: []Option{WithTies(Pessimistic)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
		{name: "optimistic ties put relevant items first", labels: [][]float64{{0, 1}}, preds: [][]float64{{1, 1}},
			opts: []Option{WithTies(Optimistic)}, wantAP: []float64{1}, wantLW: []float64{1}, wantTotal: 1},
		{name: "expected ties average the orders", labels: [][]float64{{0, 1, 1}}, preds: [][]float64{{1, 1, 1}},
			// orders of (n, r, r): rrn 1, rnr (1+2/3)/2, nrr (1/2+2/3)/2; each twice among the 6 orders.
			opts:   []Option{WithTies(Expected)},
			wantAP: []float64{(1 + (1+2.0/3)/2 + (0.5+2.0/3)/2) / 3}, wantLW: []float64{1}, wantTotal: (1 + (1+2.0/3)/2 + (0.5+2.0/3)/2) / 3},
		{name: "float32 rounds nearby scores into a tie", labels: [][]float64{{1, 0}}, preds: [][]float64{{1, 1 + 1e-9}},
			opts: []Option{WithTies(Stable)}, wantAP: []float64{1}, wantLW: []float64{1}, wantTotal: 1, dtypes: []DType{Float32}},
		{name: "float64 keeps nearby scores apart", labels: [][]float64{{1, 0}}, preds: [][]float64{{1, 1 + 1e-9}},
			opts: []Option{WithTies(Stable)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5, dtypes: []DType{Float64}},
		{name: "-0 and +0 tie", labels: [][]float64{{0, 1}}, preds: [][]float64{{math.Copysign(0, -1), 0}},
			opts: []Option{WithTies(Stable)}, wantAP: []float64{0.5}, wantLW: []float64{1}, wantTotal: 0.5},
	}
}

func (hc handCase) inputs(t *testing.T) (tensor.Lists, tensor.Lists, tensor.Weights) {
	t.Helper()
	labels := lists(t, hc.labels, hc.ragged, false)
	preds := lists(t, hc.preds, hc.ragged, false)
	var w tensor.Weights
	if hc.weights != nil {
		w = tensor.PerItem(lists(t, hc.weights, hc.ragged, false))
	} else if hc.perList != nil {
		w = tensor.PerList(hc.perList)
	}
	return labels, preds, w
}

func TestHandWorked(t *testing.T) {
	for _, hc := range handCases() {
		t.Run(hc.name, func(t *testing.T) {
			dtypes := hc.dtypes
			if dtypes == nil {
				dtypes = []DType{Float32, Float64}
			}
			for _, d := range dtypes {
				opts := append([]Option{WithDType(d)}, hc.opts...)
				m, err := NewMeanAveragePrecision(opts...)
				if err != nil {
					t.Fatal(err)
				}
				labels, preds, w := hc.inputs(t)
				var pl PerList
				if err := m.UpdatePerList(&pl, labels, preds, w); err != nil {
					t.Fatal(err)
				}
				tol := 1e-12
				if m.Config().DType == Float32 {
					tol = 1e-6
				}
				for b := range hc.wantAP {
					if math.Abs(pl.Values[b]-hc.wantAP[b]) > tol || math.Abs(pl.Weights[b]-hc.wantLW[b]) > tol {
						t.Errorf("%s list %d: (ap %v, lw %v), want (%v, %v)", m.Config().DType, b, pl.Values[b], pl.Weights[b], hc.wantAP[b], hc.wantLW[b])
					}
				}
				if got := m.Result(); math.Abs(got-hc.wantTotal) > tol {
					t.Errorf("%s result %v, want %v", m.Config().DType, got, hc.wantTotal)
				}
			}
		})
	}
}

// TestListWeightsDependOnTheUpdate shows TF's quirk: a list without
// relevant items takes the mean list weight of its own update, so the same
// lists split differently give a different MAP.
func TestListWeightsDependOnTheUpdate(t *testing.T) {
	labels := [][]float64{{1, 0}, {0, 0}}
	preds := [][]float64{{2, 1}, {2, 1}}
	weights := [][]float64{{3, 1}, {5, 5}}
	one, _ := NewMeanAveragePrecision(WithDType(Float64))
	if err := one.Update(lists(t, labels, false, false), lists(t, preds, false, false), tensor.PerItem(lists(t, weights, false, false))); err != nil {
		t.Fatal(err)
	}
	// Together: list 2 gets list 1's weight, 3: (3*1 + 3*0) / 6.
	if got := one.Result(); got != 0.5 {
		t.Errorf("one update: %v, want 0.5", got)
	}
	two, _ := NewMeanAveragePrecision(WithDType(Float64))
	for b := range labels {
		l, p, w := lists(t, labels[b:b+1], false, false), lists(t, preds[b:b+1], false, false), lists(t, weights[b:b+1], false, false)
		if err := two.Update(l, p, tensor.PerItem(w)); err != nil {
			t.Fatal(err)
		}
	}
	// Apart: list 2's update has no relevant list, so its weight is 1: 3 / 4.
	if got := two.Result(); got != 0.75 {
		t.Errorf("two updates: %v, want 0.75", got)
	}
}

func TestBadInput(t *testing.T) {
	dense := func(rows ...[]float64) tensor.Lists { return lists(t, rows, false, false) }
	ragged := func(rows ...[]float64) tensor.Lists { return lists(t, rows, true, false) }
	nan := math.NaN()
	for _, tc := range []struct {
		name          string
		ragged        bool
		labels, preds tensor.Lists
		w             tensor.Weights
		wantIs        error
		wantText      string
	}{
		{"NaN score", false, dense([]float64{1, 0}), dense([]float64{1, nan}), tensor.Weights{}, ErrInput, "predictions[0][1] is NaN"},
		{"NaN item weight", false, dense([]float64{1, 0}, []float64{0, 1}), dense([]float64{1, 2}, []float64{1, 2}),
			tensor.PerItem(dense([]float64{1, 1}, []float64{1, nan})), ErrInput, "weights[1][1] is NaN"},
		{"infinite list weight", false, dense([]float64{1, 0}), dense([]float64{1, 2}), tensor.PerList([]float64{inf}), ErrInput, "weights[0] is +Inf"},
		{"shape mismatch", false, dense([]float64{1, 0}), dense([]float64{1, 2, 3}), tensor.Weights{}, tensor.ErrShape, "predictions has shape [1, 3] but labels has shape [1, 2]"},
		{"ragged row mismatch", true, ragged([]float64{1}, []float64{1, 0}), ragged([]float64{1}, []float64{1}), tensor.Weights{}, tensor.ErrShape, "row 1 of predictions has 1 values but row 1 of labels has 2"},
		{"per-list weights count", false, dense([]float64{1, 0}), dense([]float64{1, 2}), tensor.PerList([]float64{1, 2}), tensor.ErrShape, "per-list weights have 2 values but labels have 1 lists"},
		{"ragged input to a dense metric", false, ragged([]float64{1}), ragged([]float64{1}), tensor.Weights{}, tensor.ErrShape, "is dense but labels are ragged"},
		{"dense input to a ragged metric", true, dense([]float64{1}), dense([]float64{1}), tensor.Weights{}, tensor.ErrShape, "is ragged but labels have dense shape"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := NewMeanAveragePrecision(WithRagged(tc.ragged), WithTies(Random), WithSeed(3))
			before := m.State()
			err := m.Update(tc.labels, tc.preds, tc.w)
			if !errors.Is(err, tc.wantIs) || !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("error %v, want %v containing %q", err, tc.wantIs, tc.wantText)
			}
			after := m.State()
			if string(before.RNG) != string(after.RNG) || before.Total != after.Total || before.Count != after.Count {
				t.Fatalf("a failed update changed the metric: %+v -> %+v", before, after)
			}
		})
	}
}

// TestNaNScoreOfMaskedItemIsIgnored: a masked item's score is never
// ranked, as in TF, where it is replaced before sorting.
func TestNaNScoreOfMaskedItemIsIgnored(t *testing.T) {
	m, _ := NewMeanAveragePrecision()
	if err := m.Update(lists(t, [][]float64{{-1, 1}}, false, false), lists(t, [][]float64{{math.NaN(), 1}}, false, false), tensor.Weights{}); err != nil {
		t.Fatal(err)
	}
	if got := m.Result(); got != 1 {
		t.Fatalf("result %v, want 1", got)
	}
}

func TestOptionsAndConfig(t *testing.T) {
	m, err := NewMeanAveragePrecision()
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Name: "mean_average_precision_metric", Kind: KindMAP, TopN: NoTopN, DType: Float32, Ties: Random}
	if !sameConfig(m.Config(), want) || m.Name() != want.Name {
		t.Fatalf("default config %+v, want %+v", m.Config(), want)
	}
	for _, tc := range []struct {
		opt  Option
		text string
	}{
		{WithTopN(-1), "n must be >= 0"},
		{WithDType(7), "unknown dtype"},
		{WithTies(9), "unknown tie policy"},
	} {
		if _, err := NewMeanAveragePrecision(tc.opt); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("error %v, want ErrConfig with %q", err, tc.text)
		}
	}
	c := Config{Name: "map@5", TopN: 5, DType: Float64, Ragged: true, Ties: Expected, Seed: 1 << 60}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"name":"map@5","topn":5,"dtype":"float64","ragged":true,"ties":"expected","seed":1152921504606846976,"metric":"map"}` {
		t.Fatalf("JSON %s", got)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || !sameConfig(back, c) {
		t.Fatalf("round trip %+v, %v; want %+v", back, err, c)
	}
	if err := json.Unmarshal([]byte(`{"name":"m","topn":null}`), &back); err != nil || back.TopN != NoTopN || back.Ties != Random {
		t.Fatalf("null topn: %+v, %v", back, err)
	}
	c.Accumulation = Sequential
	if b, err = json.Marshal(c); err != nil || !strings.HasSuffix(string(b), `"accumulation":"sequential","metric":"map"}`) {
		t.Fatalf("JSON with accumulation: %s, %v", b, err)
	}
	if err := json.Unmarshal(b, &back); err != nil || !sameConfig(back, c) {
		t.Fatalf("round trip %+v, %v; want %+v", back, err, c)
	}
	for _, bad := range []string{`{"topn":-2}`, `{"dtype":"float16"}`, `{"ties":"coin"}`, `{"accumulation":"kahan"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	m2, err := New(c)
	if err != nil || !sameConfig(m2.Config(), c) {
		t.Fatalf("New: %+v, %v", m2.Config(), err)
	}
	if _, ok := m2.(*MeanAveragePrecision); !ok {
		t.Fatalf("New of a map config is a %T, want *MeanAveragePrecision", m2)
	}
}

// sameConfig reports whether a and b configure the same metric under the
// same name and seed.
func sameConfig(a, b Config) bool {
	return a.describe() == b.describe() && a.Name == b.Name && a.Seed == b.Seed && a.Accumulation == b.Accumulation
}

// TestConfigReadsFormerJSON reads the JSON forms that Config and the family metrics' settings
// wrote before they were one type: a MeanAveragePrecision config without
// the key metric is a map config, and a family metric's settings carry
// their kind and parameters.
func TestConfigReadsFormerJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Config
	}{
		{`{"name":"mean_average_precision_metric","topn":null,"dtype":"float32","ragged":false,"ties":"random","seed":0}`,
			Config{Name: "mean_average_precision_metric", Kind: KindMAP, TopN: NoTopN}},
		{`{"name":"map@5","topn":5,"dtype":"float64","ragged":true,"ties":"expected","seed":7,"accumulation":"sequential"}`,
			Config{Name: "map@5", Kind: KindMAP, TopN: 5, DType: Float64, Ragged: true, Ties: Expected, Seed: 7, Accumulation: Sequential}},
		{`{"name":"ndcg_metric","topn":5,"dtype":"float64","ragged":false,"ties":"expected","seed":0,"metric":"ndcg","gain":"identity","discount":"inverse"}`,
			Config{Name: "ndcg_metric", Kind: KindNDCG, TopN: 5, DType: Float64, Ties: Expected, Gain: IdentityGain(), Discount: InverseDiscount()}},
		{`{"name":"map","topn":null,"dtype":"float32","ragged":false,"ties":"stable","seed":0,"metric":"map","convention":"treceval","empty":"skip","relevance":2}`,
			Config{Name: "map", Kind: KindMAP, TopN: NoTopN, Ties: Stable, Convention: TrecEval, Empty: EmptySkip, Relevance: 2}},
		{`{"name":"alpha_dcg_metric","topn":null,"dtype":"float32","ragged":false,"ties":"stable","seed":0,"metric":"alpha_dcg","alpha":0.5,"subtopics":3}`,
			Config{Name: "alpha_dcg_metric", Kind: KindAlphaDCG, TopN: NoTopN, Ties: Stable, Alpha: 0.5, Subtopics: 3}},
	} {
		var got Config
		if err := json.Unmarshal([]byte(tc.in), &got); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !sameConfig(got, tc.want) {
			t.Errorf("%s: got %s, want %s", tc.in, got.describe(), tc.want.describe())
		}
	}
	// A state as MeanAveragePrecision wrote it (key config) and as a family
	// metric wrote it (key settings).
	for _, tc := range []struct {
		in   string
		kind Kind
	}{
		{`{"config":{"name":"m","topn":3,"dtype":"float32","ragged":false,"ties":"stable","seed":0},"total":0.5,"count":1,"rng":null}`, KindMAP},
		{`{"settings":{"name":"mrr_metric","topn":null,"dtype":"float32","ragged":false,"ties":"stable","seed":0,"metric":"mrr"},"total":0.5,"count":1,"rng":null}`, KindMRR},
	} {
		var s State
		if err := json.Unmarshal([]byte(tc.in), &s); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if s.Config.Kind != tc.kind || s.Total != 0.5 || s.Count != 1 {
			t.Errorf("%s: got %+v", tc.in, s)
		}
		m, err := New(s.Config)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.SetState(s); err != nil || m.Result() != 0.5 {
			t.Errorf("%s: SetState %v, result %v", tc.in, err, m.Result())
		}
	}
	var s State
	if err := json.Unmarshal([]byte(`{"config":{"name":"a"},"settings":{"name":"b"},"total":0,"count":0}`), &s); !errors.Is(err, ErrConfig) {
		t.Errorf("config and settings: error %v, want ErrConfig", err)
	}
}

func TestStateRoundTrip(t *testing.T) {
	for _, d := range []DType{Float32, Float64} {
		var tcs []refCase
		for _, tc := range randomBatches(40, 5) {
			if !tc.ragged {
				tcs = append(tcs, tc)
			}
		}
		run := func(m *MeanAveragePrecision, tcs []refCase) {
			for _, tc := range tcs {
				l, p, w := caseInputs(t, tc)
				if err := m.Update(l, p, w); err != nil {
					t.Fatal(err)
				}
			}
		}
		whole, _ := NewMeanAveragePrecision(WithDType(d), WithSeed(11))
		run(whole, tcs)
		first, _ := NewMeanAveragePrecision(WithDType(d), WithSeed(11))
		run(first, tcs[:5])
		b, err := json.Marshal(first.State())
		if err != nil {
			t.Fatal(err)
		}
		var s State
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		second, _ := NewMeanAveragePrecision(WithDType(d), WithSeed(999))
		if err := second.SetState(s); err != nil {
			t.Fatal(err)
		}
		run(second, tcs[5:])
		if got, want := second.Result(), whole.Result(); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s: resumed %v, whole %v", d, got, want)
		}
		other, _ := NewMeanAveragePrecision(WithDType(d), WithTopN(3))
		if err := other.SetState(s); !errors.Is(err, ErrConfig) {
			t.Fatalf("SetState across configs: %v", err)
		}
	}
}

func TestResetRepeatsResults(t *testing.T) {
	tcs := randomBatches(10, 8)
	m, _ := NewMeanAveragePrecision(WithSeed(4), WithRagged(true))
	var results [2]float64
	for r := range results {
		m.Reset()
		for _, tc := range tcs {
			if !tc.ragged {
				continue
			}
			l, p, w := caseInputs(t, tc)
			if err := m.Update(l, p, w); err != nil {
				t.Fatal(err)
			}
		}
		results[r] = m.Result()
	}
	if results[0] != results[1] || results[0] == 0 {
		t.Fatalf("results after reset: %v", results)
	}
	m.Reset()
	if m.Result() != 0 {
		t.Fatal("result after reset is not 0")
	}
}

func TestUpdateUnranked(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 1}, {0, 0, 0}, {0, 1, 0}}, false, false)
	preds := lists(t, [][]float64{{3, 2, 1}, {3, 2, 1}, {3, 2, 1}}, false, false)
	for _, d := range []DType{Float32, Float64} {
		m, _ := NewMeanAveragePrecision(WithDType(d), WithTies(Stable))
		var pl PerList
		// List 0: ranks 1 and 3 plus one unranked: (1 + 2/3) / 3.
		// List 1: nothing ranked is relevant, two unranked: AP 0, weight 1.
		// List 2: rank 2, none unranked: 1/2.
		if err := m.UpdateUnranked(&pl, labels, preds, tensor.PerList([]float64{2, 3, 4}), []int{1, 2, 0}); err != nil {
			t.Fatal(err)
		}
		want := []float64{(1 + 2.0/3) / 3, 0, 0.5}
		wantW := []float64{2, 3, 4}
		for b := range want {
			if math.Abs(pl.Values[b]-want[b]) > 1e-6 || pl.Weights[b] != wantW[b] {
				t.Errorf("%s list %d: (%v, %v), want (%v, %v)", d, b, pl.Values[b], pl.Weights[b], want[b], wantW[b])
			}
		}
		if got, w := m.Result(), (2*want[0]+4*want[2])/9; math.Abs(got-w) > 1e-6 {
			t.Errorf("%s result %v, want %v", d, got, w)
		}
	}
	m, _ := NewMeanAveragePrecision()
	w := tensor.PerItem(lists(t, [][]float64{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}, false, false))
	for _, tc := range []struct {
		w        tensor.Weights
		unranked []int
		text     string
	}{
		{w, []int{0, 0, 0}, "not per-item weights"},
		{tensor.Weights{}, []int{0, -1, 0}, "unranked[1] is -1"},
		{tensor.Weights{}, []int{0}, "unranked has 1 counts but labels have 3 lists"},
	} {
		if err := m.UpdateUnranked(nil, labels, preds, tc.w, tc.unranked); err == nil || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("error %v, want %q", err, tc.text)
		}
	}
	// Unranked items are counted by the TFRanking convention alone.
	tr, _ := NewMeanAveragePrecision(WithConvention(TrecEval))
	if err := tr.UpdateUnranked(nil, labels, preds, tensor.Weights{}, []int{0, 0, 0}); !errors.Is(err, ErrConfig) {
		t.Errorf("unranked items under trec_eval's convention: error %v, want ErrConfig", err)
	}
	if err := tr.UpdateUnranked(nil, labels, preds, tensor.Weights{}, nil); err != nil {
		t.Errorf("nil unranked under trec_eval's convention: %v", err)
	}
}

func TestReseed(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 0, 1, 0, 1}}, false, false)
	preds := lists(t, [][]float64{{1, 1, 1, 1, 1, 1}}, false, false)
	run := func(m *MeanAveragePrecision) []float64 {
		var out []float64
		for range 20 {
			pl, err := m.Compute(labels, preds, tensor.Weights{})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, pl.Values[0])
		}
		return out
	}
	fresh, _ := NewMeanAveragePrecision(WithSeed(77))
	reseeded, _ := NewMeanAveragePrecision(WithSeed(1))
	run(reseeded)
	reseeded.Reseed(77)
	if a, b := run(fresh), run(reseeded); !slices.Equal(a, b) || reseeded.Config().Seed != 77 {
		t.Fatalf("reseeded draws %v, fresh %v", b, a)
	}
}

// TestUnitWeightsPast2To24 checks a list of 2^24+3 relevant items, past
// which float32 no longer counts ones exactly: every item is relevant, so
// every precision is 1 and the AP is 1, and the list weight is the mean of
// the unit weights as TF adds them (in its lane order and tree splits). The
// MAP kernel and the general kernel (a Suite of MAP and MRR) must agree.
func TestUnitWeightsPast2To24(t *testing.T) {
	n := 1<<24 + 3
	lab, sc, ones := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range lab {
		lab[i], sc[i], ones[i] = 1, -float32(i), 1
	}
	labels, err := tensor.Dense(lab, 1, n)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := tensor.Dense(sc, 1, n)
	if err != nil {
		t.Fatal(err)
	}
	wantW := float64(sumFloat32(ones, 0) / float32(n))
	m, err := NewMeanAveragePrecision(WithTies(Stable))
	if err != nil {
		t.Fatal(err)
	}
	var pl PerList
	if err := m.UpdatePerList(&pl, labels, preds, tensor.Weights{}); err != nil {
		t.Fatal(err)
	}
	if pl.Values[0] != 1 || pl.Weights[0] != wantW {
		t.Errorf("MAP kernel: ap %v, list weight %v; want 1, %v", pl.Values[0], pl.Weights[0], wantW)
	}
	s, err := NewSuite([]string{"map", "mrr"}, WithTies(Stable))
	if err != nil {
		t.Fatal(err)
	}
	per, err := s.Compute(labels, preds, tensor.Weights{})
	if err != nil {
		t.Fatal(err)
	}
	if per[0].Values[0] != 1 || per[0].Weights[0] != wantW {
		t.Errorf("general kernel: ap %v, list weight %v; want 1, %v", per[0].Values[0], per[0].Weights[0], wantW)
	}
}
