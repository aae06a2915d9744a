package metric

import (
	"errors"
	"testing"
)

// TestParseTrecEvalMeasure checks the trec_eval names and their errors.
func TestParseTrecEvalMeasure(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind Kind
		topn int
		conv Convention
		gain string
	}{
		{"map", KindMAP, NoTopN, TrecEval, "pow2m1"},
		{"map_cut_10", KindMAP, 10, TrecEval, "pow2m1"},
		{"ndcg", KindNDCG, NoTopN, TFRanking, "identity"},
		{"ndcg_cut_5", KindNDCG, 5, TFRanking, "identity"},
		{"recip_rank", KindMRR, NoTopN, TFRanking, "pow2m1"},
		{"P_10", KindPrecision, 10, TFRanking, "pow2m1"},
		{"recall_100", KindRecall, 100, TFRanking, "pow2m1"},
	} {
		s, err := ParseTrecEvalMeasure(tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s.Kind != tc.kind || s.TopN != tc.topn || s.Convention != tc.conv || s.Gain.String() != tc.gain || s.Ties != Stable || s.Name != tc.name {
			t.Fatalf("%s: %s", tc.name, s.describe())
		}
	}
	for _, bad := range []string{"bpref", "P_x", "P_0", "map_cut", "ndcg_cut_", ""} {
		if _, err := ParseTrecEvalMeasure(bad); !errors.Is(err, ErrConfig) {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}
