package metric

import (
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestFamilyDocstrings runs the standalone examples of TF-Ranking 0.5.5's
// Keras metric docstrings (tensorflow_ranking/python/keras/metrics.py) and
// checks the values they print, in float32, to the printed digits.
func TestFamilyDocstrings(t *testing.T) {
	denseY := [][]float64{{0, 1, 1}}
	denseS := [][]float64{{3, 1, 2}}
	raggedY := [][]float64{{0, 1}, {1, 2, 0}}
	raggedS := [][]float64{{2, 1}, {2, 5, 4}}
	for _, tc := range []struct {
		name   string
		kind   Kind
		topn   int
		ragged bool
		y, s   [][]float64
		want   float64
	}{
		{"mrr", KindMRR, NoTopN, false, denseY, denseS, 0.5},
		{"mrr ragged", KindMRR, NoTopN, true, raggedY, raggedS, 0.75},
		{"hits@1", KindHits, 1, false, denseY, denseS, 0},
		{"hits@2", KindHits, 2, false, denseY, denseS, 1},
		{"hits@1 ragged", KindHits, 1, true, [][]float64{{0, 1}, {1, 1, 0}}, raggedS, 0.5},
		{"arp", KindARP, NoTopN, false, denseY, denseS, 2.5},
		{"arp ragged", KindARP, NoTopN, true, raggedY, raggedS, 1.75},
		{"precision@2", KindPrecision, 2, false, denseY, denseS, 0.5},
		{"precision@2 ragged", KindPrecision, 2, true, raggedY, raggedS, 0.5},
		{"recall@2", KindRecall, 2, false, denseY, denseS, 0.5},
		{"recall@2 ragged", KindRecall, 2, true, raggedY, raggedS, 0.75},
		{"map@2", KindMAP, 2, false, denseY, denseS, 0.25},
		{"map@2 ragged", KindMAP, 2, true, raggedY, raggedS, 0.5},
		{"ndcg", KindNDCG, NoTopN, false, denseY, denseS, 0.6934264},
		{"ndcg ragged", KindNDCG, NoTopN, true, raggedY, raggedS, 0.7974351},
		{"dcg", KindDCG, NoTopN, false, denseY, denseS, 1.1309297},
		{"dcg ragged", KindDCG, NoTopN, true, raggedY, raggedS, 2.065465},
		{"opa", KindOPA, NoTopN, false, [][]float64{{0, 1, 2}}, denseS, 0.33333334},
		{"opa ragged", KindOPA, NoTopN, true, raggedY, raggedS, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultConfig(tc.kind)
			s.TopN, s.Ragged = tc.topn, tc.ragged
			m, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			labels, preds := lists(t, tc.y, tc.ragged, true), lists(t, tc.s, tc.ragged, true)
			if err := m.Update(labels, preds, tensor.Weights{}); err != nil {
				t.Fatal(err)
			}
			got := m.Result()
			// The docstrings print numpy's shortest float32 repr.
			if float32(got) != float32(tc.want) && math.Abs(got-tc.want) > 5e-8 {
				t.Fatalf("%s: got %v, TF-Ranking's docstring prints %v", tc.name, float32(got), tc.want)
			}
		})
	}
}

// TestFamilyDocstringsSubtopics runs the docstring examples of
// PrecisionIAMetric and AlphaDCGMetric, labels [B, L, T] flattened to
// [B, L*T], with a check of the other cases by hand (confirmed in TF).
func TestFamilyDocstringsSubtopics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    Kind
		opts    []Option
		ragged  bool
		y, s, w [][]float64
		want    float64
	}{
		{"precision_ia", KindPrecisionIA, nil, false, [][]float64{{0, 1, 1, 0, 1, 1}}, [][]float64{{3, 1, 2}}, nil, 0.6666667},
		{"precision_ia ragged", KindPrecisionIA, nil, true, [][]float64{{0, 0, 1, 0}, {1, 1, 0, 2, 1, 0}}, [][]float64{{2, 1}, {2, 5, 4}}, nil, 0.5833334},
		{"alpha_dcg", KindAlphaDCG, nil, false, [][]float64{{0, 1, 1, 0, 1, 1}}, [][]float64{{3, 1, 2}}, nil, 2.1963947},
		{"alpha_dcg ragged", KindAlphaDCG, nil, true, [][]float64{{0, 0, 1, 0}, {1, 1, 0, 2, 1, 0}}, [][]float64{{2, 1}, {2, 5, 4}}, nil, 1.8184297},
		// By hand: ranks [0 1] [1 1] [1 0]; gains 1, 1 + 0.7, 0.7; discounts 1, 1/log2(3), 1/2.
		{"alpha_dcg alpha 0.3", KindAlphaDCG, []Option{WithAlpha(0.3)}, false, [][]float64{{0, 1, 1, 0, 1, 1}}, [][]float64{{3, 1, 2}}, nil,
			1 + 1.7/math.Log2(3) + 0.7/2},
		// By hand: item 1 is masked (all labels -1); item 0 weighs 0 but stays valid.
		{"precision_ia masked", KindPrecisionIA, nil, false, [][]float64{{0, 1, -1, -1, 1, -1}}, [][]float64{{1, 3, 2}}, [][]float64{{0, 2, 1}}, 0.5},
		{"precision_ia@1", KindPrecisionIA, []Option{WithTopN(1)}, false, [][]float64{{0, 1, 1, 0, 1, 1}}, [][]float64{{3, 1, 2}}, nil, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := newConfig(tc.kind, append([]Option{WithSubtopics(2), WithRagged(tc.ragged)}, tc.opts...))
			if err != nil {
				t.Fatal(err)
			}
			m, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			rc := refCase{labels: tc.y, preds: tc.s, weights: tc.w, ragged: tc.ragged, f32Storage: true}
			labels, preds, w := caseInputs(t, rc)
			if tc.w != nil {
				w = tensor.PerItem(lists(t, tc.w, tc.ragged, true))
			}
			if err := m.Update(labels, preds, w); err != nil {
				t.Fatal(err)
			}
			if got := m.Result(); float32(got) != float32(tc.want) && math.Abs(got-tc.want) > 5e-7 {
				t.Fatalf("got %v, want %v", float32(got), tc.want)
			}
		})
	}
}
