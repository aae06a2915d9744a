package metric

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// famHand is one batch whose per-list values were worked out by hand.
type famHand struct {
	name    string
	kind    Kind
	opts    []Option
	labels  [][]float64
	preds   [][]float64
	weights [][]float64 // per item
	perList []float64
	ragged  bool
	wantV   []float64
	wantLW  []float64
}

var (
	log2of3 = math.Log2(3)
	inf64   = math.Inf(1)
)

func famHandCases(t *testing.T) []famHand {
	plus1, err := NewGain("plus1", func(l float64) float64 { return l + 1 })
	if err != nil {
		t.Fatal(err)
	}
	return []famHand{
		// MRR and hits: the relevant items are 3rd and 4th.
		{name: "mrr", kind: KindMRR, labels: [][]float64{{0, 0, 1, 1}}, preds: [][]float64{{4, 3, 2, 1}},
			weights: [][]float64{{1, 1, 2, 4}}, wantV: []float64{1.0 / 3}, wantLW: []float64{3}},
		{name: "mrr@2 misses", kind: KindMRR, opts: []Option{WithTopN(2)}, labels: [][]float64{{0, 0, 1, 1}}, preds: [][]float64{{4, 3, 2, 1}},
			wantV: []float64{0}, wantLW: []float64{1}},
		{name: "mrr@0 is TF's -Inf", kind: KindMRR, opts: []Option{WithTopN(0)}, labels: [][]float64{{0, 1}}, preds: [][]float64{{2, 1}},
			wantV: []float64{-inf64}, wantLW: []float64{1}},
		{name: "graded labels count as relevant for mrr", kind: KindMRR, labels: [][]float64{{0.5, 3}}, preds: [][]float64{{2, 1}},
			wantV: []float64{0.5}, wantLW: []float64{1}},
		{name: "hits@2", kind: KindHits, opts: []Option{WithTopN(2)}, labels: [][]float64{{0, 0, 1, 1}}, preds: [][]float64{{4, 3, 2, 1}},
			wantV: []float64{0}, wantLW: []float64{1}},
		{name: "hits@3", kind: KindHits, opts: []Option{WithTopN(3)}, labels: [][]float64{{0, 0, 1, 1}}, preds: [][]float64{{4, 3, 2, 1}},
			wantV: []float64{1}, wantLW: []float64{1}},
		{name: "hits@0 is TF's -Inf", kind: KindHits, opts: []Option{WithTopN(0)}, labels: [][]float64{{1}}, preds: [][]float64{{1}},
			wantV: []float64{-inf64}, wantLW: []float64{1}},
		// ARP: graded labels 2 and 1 at ranks 1 and 3.
		{name: "arp", kind: KindARP, labels: [][]float64{{2, 0, 1}}, preds: [][]float64{{3, 2, 1}},
			wantV: []float64{(1*2 + 3*1) / 3.0}, wantLW: []float64{3}},
		{name: "arp weighted", kind: KindARP, labels: [][]float64{{2, 0, 1}}, preds: [][]float64{{3, 2, 1}}, weights: [][]float64{{1, 1, 4}},
			wantV: []float64{(1*2 + 3*4) / 6.0}, wantLW: []float64{6}},
		// Precision divides by min(topn, valid items); topn is the padded length when there is none.
		{name: "precision@5 of 3 items", kind: KindPrecision, opts: []Option{WithTopN(5)}, labels: [][]float64{{1, 0, 1}}, preds: [][]float64{{3, 2, 1}},
			wantV: []float64{2.0 / 3}, wantLW: []float64{1}},
		{name: "precision@2", kind: KindPrecision, opts: []Option{WithTopN(2)}, labels: [][]float64{{1, 0, 1}}, preds: [][]float64{{3, 2, 1}},
			wantV: []float64{0.5}, wantLW: []float64{1}},
		{name: "precision skips a masked item", kind: KindPrecision, labels: [][]float64{{1, -1, 1}}, preds: [][]float64{{3, 2, 1}},
			wantV: []float64{1}, wantLW: []float64{1}},
		{name: "recall@2", kind: KindRecall, opts: []Option{WithTopN(2)}, labels: [][]float64{{1, 0, 1, 1}}, preds: [][]float64{{4, 3, 2, 1}},
			wantV: []float64{1.0 / 3}, wantLW: []float64{1}},
		{name: "recall without relevant items", kind: KindRecall, labels: [][]float64{{0, 0}}, preds: [][]float64{{2, 1}},
			wantV: []float64{0}, wantLW: []float64{1}},
		// NDCG of labels 3 0 1 ranked 1 0 3: DCG 1 + 7/2, ideal 7 + 1/log2(3).
		{name: "ndcg", kind: KindNDCG, labels: [][]float64{{3, 0, 1}}, preds: [][]float64{{1, 2, 3}},
			wantV: []float64{4.5 / (7 + 1/log2of3)}, wantLW: []float64{1}},
		{name: "ndcg weighted", kind: KindNDCG, labels: [][]float64{{3, 0, 1}}, preds: [][]float64{{1, 2, 3}}, weights: [][]float64{{2, 1, 1}},
			wantV: []float64{8 / (14 + 1/log2of3)}, wantLW: []float64{15.0 / 8}},
		{name: "ndcg@1", kind: KindNDCG, opts: []Option{WithTopN(1)}, labels: [][]float64{{3, 0, 1}}, preds: [][]float64{{1, 2, 3}},
			wantV: []float64{1.0 / 7}, wantLW: []float64{1}},
		{name: "ndcg identity gain, inverse discount", kind: KindNDCG, opts: []Option{WithGain(IdentityGain()), WithDiscount(InverseDiscount())},
			labels: [][]float64{{3, 0, 1}}, preds: [][]float64{{1, 2, 3}}, wantV: []float64{(1 + 3.0/3) / (3 + 1.0/2)}, wantLW: []float64{1}},
		{name: "ndcg: a list without gain weighs the batch's mean", kind: KindNDCG, labels: [][]float64{{1, 0}, {0, 0}}, preds: [][]float64{{2, 1}, {2, 1}},
			weights: [][]float64{{2, 2}, {3, 3}}, wantV: []float64{1, 0}, wantLW: []float64{2, 2}},
		{name: "ndcg: a ragged -1 has gain -1/2 and the last ideal rank", kind: KindNDCG, ragged: true, opts: []Option{WithRagged(true)},
			labels: [][]float64{{-1, 1}}, preds: [][]float64{{2, 1}},
			wantV: []float64{(-0.5 + 1/log2of3) / (1 - 0.5/log2of3)}, wantLW: []float64{1}},
		{name: "ndcg: with gain(0) != 0 a masked item takes a rank after the valid ones", kind: KindNDCG, opts: []Option{WithGain(plus1)},
			labels: [][]float64{{1, -1, 0}}, preds: [][]float64{{1, 2, 3}},
			wantV: []float64{(1 + 2/log2of3 + 0.5) / (2 + 1/log2of3 + 0.5)}, wantLW: []float64{1}},
		{name: "dcg divides by the list weight", kind: KindDCG, labels: [][]float64{{3, 0, 1}}, preds: [][]float64{{1, 2, 3}}, weights: [][]float64{{2, 1, 1}},
			wantV: []float64{8 / (15.0 / 8)}, wantLW: []float64{15.0 / 8}},
		// OPA: pairs (0,1) and (0,2) right, (1,2) wrong.
		{name: "opa", kind: KindOPA, labels: [][]float64{{2, 1, 0}}, preds: [][]float64{{3, 1, 2}},
			wantV: []float64{2.0 / 3}, wantLW: []float64{3}},
		{name: "opa weighted", kind: KindOPA, labels: [][]float64{{2, 1, 0}}, preds: [][]float64{{3, 1, 2}}, weights: [][]float64{{2, 1, 1}},
			wantV: []float64{4.0 / 5}, wantLW: []float64{5}},
		{name: "opa counts equal scores as wrong", kind: KindOPA, labels: [][]float64{{1, 0}}, preds: [][]float64{{1, 1}},
			wantV: []float64{0}, wantLW: []float64{1}},
		// MAP conventions, worked examples of issue 6.
		{name: "minrk: 5 relevant, k 10", kind: KindMAP, opts: []Option{WithConvention(MinRK), WithTopN(10)},
			labels: [][]float64{{1, 0, 1, 0, 0, 1, 0, 0, 1, 1}}, preds: [][]float64{{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}},
			wantV: []float64{(1 + 2.0/3 + 3.0/6 + 4.0/9 + 5.0/10) / 5}, wantLW: []float64{1}},
		{name: "minrk: k 7, 8 relevant, hits at 1 6 7", kind: KindMAP, opts: []Option{WithConvention(MinRK), WithTopN(7)},
			labels: [][]float64{{1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}}, preds: [][]float64{{12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}},
			weights: [][]float64{{1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, wantV: []float64{(1 + 2.0/6 + 3.0/7) / 7}, wantLW: []float64{1}},
		{name: "minrk: k 7, 8 relevant, hits at 1 2 3", kind: KindMAP, opts: []Option{WithConvention(MinRK), WithTopN(7)},
			labels: [][]float64{{1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1}}, preds: [][]float64{{12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}},
			weights: [][]float64{{1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}}, wantV: []float64{3.0 / 7}, wantLW: []float64{1}},
		{name: "retrieved: R I R R I I R", kind: KindMAP, opts: []Option{WithConvention(RetrievedRelevant)},
			labels: [][]float64{{1, 0, 1, 1, 0, 0, 1}}, preds: [][]float64{{7, 6, 5, 4, 3, 2, 1}},
			wantV: []float64{(1 + 2.0/3 + 3.0/4 + 4.0/7) / 4}, wantLW: []float64{1}},
		{name: "retrieved@3 divides by the 2 retrieved", kind: KindMAP, opts: []Option{WithConvention(RetrievedRelevant), WithTopN(3)},
			labels: [][]float64{{1, 0, 1, 1, 0, 0, 1}}, preds: [][]float64{{7, 6, 5, 4, 3, 2, 1}},
			wantV: []float64{(1 + 2.0/3) / 2}, wantLW: []float64{1}},
		{name: "treceval counts 2 relevant documents not retrieved", kind: KindMAP, opts: []Option{WithConvention(TrecEval)},
			labels: [][]float64{{1, 0, 1, 1, 0, 0, 1, 1, 1}}, preds: [][]float64{{9, 8, 7, 6, 5, 4, 3, 2, 1}},
			weights: [][]float64{{1, 1, 1, 1, 1, 1, 1, 0, 0}}, wantV: []float64{(1 + 2.0/3 + 3.0/4 + 4.0/7) / 6}, wantLW: []float64{1}},
		{name: "treceval relevance 2", kind: KindMAP, opts: []Option{WithConvention(TrecEval), WithRelevance(2)},
			labels: [][]float64{{1, 2, 3}}, preds: [][]float64{{3, 2, 1}}, wantV: []float64{(1.0/2 + 2.0/3) / 2}, wantLW: []float64{1}},
		{name: "treceval under Stable keeps a tie in input order", kind: KindMAP, opts: []Option{WithConvention(TrecEval), WithTies(Stable)},
			labels: [][]float64{{1, 0}}, preds: [][]float64{{1, 1}}, wantV: []float64{1}, wantLW: []float64{1}},
		{name: "xgboost: no relevant item scores 1", kind: KindMAP, opts: []Option{WithConvention(XGBoost), WithTopN(2)},
			labels: [][]float64{{0, 0}, {0, 1}}, preds: [][]float64{{2, 1}, {2, 1}}, wantV: []float64{1, 0.5}, wantLW: []float64{1, 1}},
		{name: "xgboost-: no relevant item scores 0", kind: KindMAP, opts: []Option{WithConvention(XGBoostMinus), WithTopN(2)},
			labels: [][]float64{{0, 0}, {0, 1}}, preds: [][]float64{{2, 1}, {2, 1}}, wantV: []float64{0, 0.5}, wantLW: []float64{1, 1}},
		{name: "conventions weigh lists by their per-list weight", kind: KindMAP, opts: []Option{WithConvention(MinRK)},
			labels: [][]float64{{0, 1}, {0, 0}}, preds: [][]float64{{2, 1}, {2, 1}}, perList: []float64{3, 5}, wantV: []float64{0.5, 0}, wantLW: []float64{3, 5}},
		// Empty-list policies under TFRanking.
		{name: "empty one", kind: KindMAP, opts: []Option{WithEmpty(EmptyOne)}, labels: [][]float64{{0, 0}, {1, 0}}, preds: [][]float64{{2, 1}, {1, 2}},
			wantV: []float64{1, 0.5}, wantLW: []float64{1, 1}},
		{name: "empty skip", kind: KindMAP, opts: []Option{WithEmpty(EmptySkip)}, labels: [][]float64{{0, 0}, {1, 0}}, preds: [][]float64{{2, 1}, {1, 2}},
			wantV: []float64{0, 0.5}, wantLW: []float64{0, 1}},
		{name: "empty zero", kind: KindMAP, opts: []Option{WithEmpty(EmptyZero)}, labels: [][]float64{{0, 0}, {1, 0}}, preds: [][]float64{{2, 1}, {1, 2}},
			wantV: []float64{0, 0.5}, wantLW: []float64{1, 1}},
	}
}

// TestFamilyHandWorked checks each metric on lists worked out by hand,
// per list and in total, in both dtypes.
func TestFamilyHandWorked(t *testing.T) {
	for _, tc := range famHandCases(t) {
		for _, d := range []DType{Float32, Float64} {
			t.Run(tc.name+"/"+d.String(), func(t *testing.T) {
				s, err := newConfig(tc.kind, append([]Option{WithDType(d)}, tc.opts...))
				if err != nil {
					t.Fatal(err)
				}
				m, err := New(s)
				if err != nil {
					t.Fatal(err)
				}
				rc := refCase{labels: tc.labels, preds: tc.preds, weights: tc.weights, perList: tc.perList, ragged: tc.ragged, f32Storage: d == Float32}
				labels, preds, w := caseInputs(t, rc)
				var got PerList
				if err := m.UpdatePerList(&got, labels, preds, w); err != nil {
					t.Fatal(err)
				}
				tol := 1e-12
				if d == Float32 {
					tol = 2e-7
				}
				var total, count float64
				for b := range tc.wantV {
					if !near(got.Values[b], tc.wantV[b], tol) || !near(got.Weights[b], tc.wantLW[b], tol) {
						t.Fatalf("list %d: (%v, %v), want (%v, %v)", b, got.Values[b], got.Weights[b], tc.wantV[b], tc.wantLW[b])
					}
					total += tc.wantV[b] * tc.wantLW[b]
					count += tc.wantLW[b]
				}
				want := 0.0
				if count != 0 {
					want = total / count
				}
				if !near(m.Result(), want, 4*tol) {
					t.Fatalf("result %v, want %v", m.Result(), want)
				}
			})
		}
	}
}

// near reports whether got is want within tol relative, or both are the
// same infinity.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestFamilyErrors checks the errors of bad settings and bad inputs.
func TestFamilyErrors(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		opts []Option
	}{
		{KindARP, []Option{WithTopN(3)}},
		{KindOPA, []Option{WithTopN(3)}},
		{KindMAP, []Option{WithGain(IdentityGain())}},
		{KindMRR, []Option{WithDiscount(InverseDiscount())}},
		{KindNDCG, []Option{WithConvention(MinRK)}},
		{KindMAP, []Option{WithRelevance(2)}},
		{KindMAP, []Option{WithConvention(MinRK), WithRelevance(-1)}},
		{KindMAP, []Option{WithConvention(Convention(42))}},
		{KindMAP, []Option{WithEmpty(EmptyPolicy(-1))}},
		{KindMAP, []Option{WithConvention(RetrievedRelevant), WithTies(Expected)}},
		{KindMAP, []Option{nil}},
		{Kind(99), nil},
	} {
		s, err := newConfig(tc.kind, tc.opts)
		if err == nil {
			_, err = New(s)
		}
		if !errors.Is(err, ErrConfig) {
			t.Fatalf("%v %d options: error %v, want ErrConfig", tc.kind, len(tc.opts), err)
		}
	}
	if _, err := NewGain("", func(float64) float64 { return 0 }); !errors.Is(err, ErrConfig) {
		t.Fatalf("NewGain without a name: %v", err)
	}
	if _, err := NewDiscount("log2", func(float64) float64 { return 0 }); !errors.Is(err, ErrConfig) {
		t.Fatalf("NewDiscount with a built-in name: %v", err)
	}

	labels, _ := tensor.DenseRows([][]float64{{1, 0}, {0, 0}})
	preds, _ := tensor.DenseRows([][]float64{{2, 1}, {2, 1}})
	m, _ := NewMeanAveragePrecision(WithEmpty(EmptyError))
	if err := m.Update(labels, preds, tensor.Weights{}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "list 1") {
		t.Fatalf("empty list under EmptyError: %v", err)
	}
	if m.Result() != 0 {
		t.Fatalf("a failed update changed the result to %v", m.Result())
	}
	w, _ := tensor.DenseRows([][]float64{{1, 0.5}, {1, 1}})
	mk, _ := NewMeanAveragePrecision(WithConvention(MinRK))
	if err := mk.Update(labels, preds, tensor.PerItem(w)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "weights[0][1] is 0.5") {
		t.Fatalf("a weight other than 0 or 1 under minrk: %v", err)
	}
	rl, _ := tensor.RaggedRows([][]float64{{math.NaN(), 1}})
	rp, _ := tensor.RaggedRows([][]float64{{2, 1}})
	nd, _ := NewNDCG(WithRagged(true))
	if err := nd.Update(rl, rp, tensor.Weights{}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "labels[0][0] is NaN") {
		t.Fatalf("a NaN gain: %v", err)
	}
	np, _ := tensor.DenseRows([][]float64{{math.NaN(), 1}, {2, 1}})
	mr, _ := NewMRR()
	if err := mr.Update(labels, np, tensor.Weights{}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "predictions[0][0] is NaN") {
		t.Fatalf("a NaN score: %v", err)
	}
	if err := mr.Update(rl, rp, tensor.Weights{}); !errors.Is(err, tensor.ErrShape) {
		t.Fatalf("ragged lists into a dense metric: %v", err)
	}
}

// TestFamilyConfigJSON round-trips the configuration of a family metric through JSON and rejects user
// functions and unknown names.
func TestFamilyConfigJSON(t *testing.T) {
	s, err := newConfig(KindNDCG, []Option{WithTopN(5), WithGain(IdentityGain()), WithDiscount(InverseDiscount()), WithDType(Float64), WithTies(Expected)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"ndcg_metric","topn":5,"dtype":"float64","ragged":false,"ties":"expected","seed":0,"metric":"ndcg","gain":"identity","discount":"inverse"}`
	if string(b) != want {
		t.Fatalf("JSON %s, want %s", b, want)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.describe() != s.describe() || back.Name != s.Name {
		t.Fatalf("round trip: %s, want %s", back.describe(), s.describe())
	}
	m, err := newConfig(KindMAP, []Option{WithConvention(XGBoostMinus), WithEmpty(EmptySkip), WithRelevance(2)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(m)
	if !strings.Contains(string(b), `"convention":"xgboost-","empty":"skip","relevance":2`) {
		t.Fatalf("MAP JSON %s", b)
	}
	for _, bad := range []string{`{"metric":"ndcg","gain":"cube"}`, `{"metric":"nope"}`, `{"metric":"map","convention":"x"}`, `{"metric":"arp","topn":3}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Fatalf("%s: no error", bad)
		}
	}
}

// TestFamilyMergeAndState splits batches over metrics, merges them and
// moves state, and checks the totals against one metric that saw all.
func TestFamilyMergeAndState(t *testing.T) {
	tcs := randomBatches(12, 3)
	for _, acc := range []Accumulation{Exact, Sequential} {
		all, _ := NewNDCG(WithTopN(3), WithDType(Float64), WithTies(Stable), WithAccumulation(acc))
		a, _ := NewNDCG(WithTopN(3), WithDType(Float64), WithTies(Stable), WithAccumulation(acc))
		bm, _ := NewNDCG(WithTopN(3), WithDType(Float64), WithTies(Stable), WithAccumulation(acc), WithName("other"), WithSeed(9))
		n := 0
		for i, tc := range tcs {
			if tc.ragged {
				continue
			}
			labels, preds, w := caseInputs(t, tc)
			if err := all.Update(labels, preds, w); err != nil {
				continue
			}
			part := a
			if i%2 == 1 {
				part = bm
			}
			if err := part.Update(labels, preds, w); err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n < 3 {
			t.Fatalf("only %d batches", n)
		}
		if err := a.Merge(bm); err != nil {
			t.Fatal(err)
		}
		if !near(a.Result(), all.Result(), 1e-12) {
			t.Fatalf("%s: merged %v, whole %v", acc, a.Result(), all.Result())
		}
		if acc == Exact && a.Result() != all.Result() {
			t.Fatalf("exact: merged %v, whole %v", a.Result(), all.Result())
		}
		st := a.State()
		fresh, _ := NewNDCG(WithTopN(3), WithDType(Float64), WithTies(Stable), WithAccumulation(acc))
		if err := fresh.SetState(st); err != nil {
			t.Fatal(err)
		}
		if fresh.Result() != a.Result() {
			t.Fatalf("state: %v, want %v", fresh.Result(), a.Result())
		}
	}
	x, _ := NewNDCG(WithTopN(3))
	y, _ := NewNDCG(WithTopN(4))
	if err := x.Merge(y); !errors.Is(err, ErrConfig) {
		t.Fatalf("merging different cutoffs: %v", err)
	}
	if err := x.Merge(nil); !errors.Is(err, ErrConfig) {
		t.Fatalf("merging nil: %v", err)
	}
	// A metric merged with itself adds its totals once more, as
	// MeanAveragePrecision always has: the mean is unchanged, the count
	// doubled.
	l, p, _ := caseInputs(t, refCase{labels: [][]float64{{1, 0, 2}}, preds: [][]float64{{0.5, 0.9, 0.1}}, topn: NoTopN})
	if err := x.Update(l, p, tensor.Weights{}); err != nil {
		t.Fatal(err)
	}
	before := x.State()
	if err := x.Merge(x); err != nil {
		t.Fatalf("merging itself: %v", err)
	}
	if after := x.State(); after.Count != 2*before.Count || after.Total != 2*before.Total {
		t.Fatalf("merging itself: state %+v, want twice %+v", after, before)
	}
}

// TestConventionDocExample checks the worked example of the Convention
// documentation: R I R R I I R and one relevant item not retrieved.
func TestConventionDocExample(t *testing.T) {
	labels := [][]float64{{1, 0, 1, 1, 0, 0, 1, 1}}
	preds := [][]float64{{8, 7, 6, 5, 4, 3, 2, 1}}
	weights := [][]float64{{1, 1, 1, 1, 1, 1, 1, 0}}
	num := 1 + 2.0/3 + 3.0/4 + 4.0/7
	for _, tc := range []struct {
		c    Convention
		topn int
		want float64
	}{
		{TFRanking, NoTopN, num / 4}, {TrecEval, NoTopN, num / 5}, {RetrievedRelevant, NoTopN, num / 4},
		{MinRK, 3, (1 + 2.0/3) / 3}, {TrecEval, 3, (1 + 2.0/3) / 5}, {RetrievedRelevant, 3, (1 + 2.0/3) / 2},
	} {
		opts := []Option{WithConvention(tc.c), WithDType(Float64)}
		if tc.topn != NoTopN {
			opts = append(opts, WithTopN(tc.topn))
		}
		m, err := NewMeanAveragePrecision(opts...)
		if err != nil {
			t.Fatal(err)
		}
		l, p, w := caseInputs(t, refCase{labels: labels, preds: preds, weights: weights})
		if err := m.Update(l, p, w); err != nil {
			t.Fatal(err)
		}
		if !near(m.Result(), tc.want, 1e-15) {
			t.Fatalf("%s@%d: %v, want %v", tc.c, tc.topn, m.Result(), tc.want)
		}
	}
}
