package metric

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestSuiteEqualsMetricsAlone checks that every metric of a suite gives,
// bit for bit, what the same metric made alone gives, per list and in
// total over several updates, under every tie policy but Random.
func TestSuiteEqualsMetricsAlone(t *testing.T) {
	for _, d := range []DType{Float32, Float64} {
		for _, ties := range []TiePolicy{Stable, Pessimistic, Optimistic, Expected} {
			tcs := randomBatches(60, 21)
			for ci, tc := range tcs {
				var sets []Config
				for i, s := range famTestSpecs(t, tc.topn) {
					if s.Kind == KindMAP && s.Convention != TFRanking {
						continue
					}
					s.Name = fmt.Sprintf("%d-%s", i, s.Name)
					s.DType, s.Ties, s.Ragged = d, ties, tc.ragged
					sets = append(sets, s)
				}
				suite, err := NewSuiteOf(sets...)
				if err != nil {
					t.Fatal(err)
				}
				labels, preds, w := caseInputs(t, tc)
				got := make([]PerList, len(sets))
				serr := suite.UpdatePerList(got, labels, preds, w)
				alone := 0 // metrics that fail alone
				for j, s := range sets {
					m, err := New(s)
					if err != nil {
						t.Fatal(err)
					}
					var want PerList
					if err := m.UpdatePerList(&want, labels, preds, w); err != nil {
						alone++
						continue
					}
					if serr != nil {
						continue
					}
					for b := range want.Values {
						if !sameBits(got[j].Values[b], want.Values[b]) || !sameBits(got[j].Weights[b], want.Weights[b]) {
							t.Fatalf("%s %s case %d %s list %d: suite (%v, %v), alone (%v, %v)", d, ties, ci, s.Name, b,
								got[j].Values[b], got[j].Weights[b], want.Values[b], want.Weights[b])
						}
					}
					if r, _ := suite.Result(s.Name); !sameBits(r, m.Result()) {
						t.Fatalf("%s %s case %d %s: suite result %v, alone %v", d, ties, ci, s.Name, r, m.Result())
					}
				}
				if (serr != nil) != (alone > 0) {
					t.Fatalf("%s case %d: suite error %v, %d metrics fail alone", d, ci, serr, alone)
				}
			}
		}
	}
}

// TestFamilyMAPEqualsMeanAveragePrecision checks that MAP under the
// TFRanking convention gives what MeanAveragePrecision gives, bit for bit,
// per list and in total, under every tie policy but Random.
func TestFamilyMAPEqualsMeanAveragePrecision(t *testing.T) {
	for _, d := range []DType{Float32, Float64} {
		for _, ties := range []TiePolicy{Stable, Pessimistic, Optimistic, Expected} {
			for ci, tc := range randomBatches(200, 5) {
				opts := []Option{WithDType(d), WithTies(ties), WithRagged(tc.ragged)}
				if tc.topn != NoTopN {
					opts = append(opts, WithTopN(tc.topn))
				}
				fam, err := NewMeanAveragePrecision(opts[0], opts[1], opts[2])
				if tc.topn != NoTopN {
					fam, err = NewMeanAveragePrecision(opts[0], opts[1], opts[2], opts[3])
				}
				if err != nil {
					t.Fatal(err)
				}
				core, err := NewMeanAveragePrecision(opts...)
				if err != nil {
					t.Fatal(err)
				}
				labels, preds, w := caseInputs(t, tc)
				var got, want PerList
				if err := fam.UpdatePerList(&got, labels, preds, w); err != nil {
					t.Fatal(err)
				}
				if err := core.UpdatePerList(&want, labels, preds, w); err != nil {
					t.Fatal(err)
				}
				for b := range want.Values {
					same := sameBits(got.Values[b], want.Values[b])
					if ties == Expected {
						// Both are exact expectations, rounded through different sums.
						same = math.Abs(got.Values[b]-want.Values[b]) <= 1e-6*math.Abs(want.Values[b])
					}
					if !same || !sameBits(got.Weights[b], want.Weights[b]) {
						t.Fatalf("%s %s case %d list %d: MAP (%v, %v), MeanAveragePrecision (%v, %v)", d, ties, ci, b,
							got.Values[b], got.Weights[b], want.Values[b], want.Weights[b])
					}
				}
				if ties != Expected && !sameBits(fam.Result(), core.Result()) {
					t.Fatalf("%s %s case %d: MAP %v, MeanAveragePrecision %v", d, ties, ci, fam.Result(), core.Result())
				}
			}
		}
	}
}

// TestSuiteNames checks the names a suite parses and the errors of bad
// ones.
func TestSuiteNames(t *testing.T) {
	s, err := NewSuite([]string{"map", "map@10", "ndcg@5", "ndcg@10", "mrr", "opa", "arp"}, WithGain(IdentityGain()), WithTies(Stable))
	if err != nil {
		t.Fatal(err)
	}
	for i, set := range s.Configs() {
		want := []struct {
			k    Kind
			topn int
		}{{KindMAP, NoTopN}, {KindMAP, 10}, {KindNDCG, 5}, {KindNDCG, 10}, {KindMRR, NoTopN}, {KindOPA, NoTopN}, {KindARP, NoTopN}}[i]
		if set.Kind != want.k || set.TopN != want.topn || set.Ties != Stable {
			t.Fatalf("metric %d: %s", i, set.describe())
		}
		if (set.Kind == KindNDCG) != (set.Gain.String() == "identity") {
			t.Fatalf("metric %d: gain %s", i, set.Gain)
		}
	}
	for _, tc := range []struct {
		names []string
		opts  []Option
	}{
		{[]string{"map@x"}, nil},
		{[]string{"map@-1"}, nil},
		{[]string{"arp@3"}, nil},
		{[]string{"nope"}, nil},
		{[]string{"map", "map"}, nil},
		{[]string{"map", "mrr"}, []Option{WithConvention(TrecEval), WithRelevance(2)}},
		{nil, nil},
	} {
		if _, err := NewSuite(tc.names, tc.opts...); !errors.Is(err, ErrConfig) {
			t.Fatalf("NewSuite(%q): error %v, want ErrConfig", tc.names, err)
		}
	}
}

// TestSuiteRandomSharesOneOrder checks that under Random the suite's
// metrics read one order of each tie: on a list whose every item ties,
// precision@1 is 1 exactly when MRR is 1 and MAP@1 is 1.
func TestSuiteRandomSharesOneOrder(t *testing.T) {
	s, err := NewSuite([]string{"precision@1", "mrr", "map@1"}, WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := tensor.DenseRows([][]float32{{1, 0, 0, 0}})
	preds, _ := tensor.DenseRows([][]float32{{2, 2, 2, 2}})
	tops := 0
	for range 400 {
		pl, err := s.Compute(labels, preds, tensor.Weights{})
		if err != nil {
			t.Fatal(err)
		}
		p1, mrr, map1 := pl[0].Values[0], pl[1].Values[0], pl[2].Values[0]
		if (p1 == 1) != (mrr == 1) || (p1 == 1) != (map1 == 1) {
			t.Fatalf("precision@1 %v, mrr %v, map@1 %v: not one order", p1, mrr, map1)
		}
		if p1 == 1 {
			tops++
		}
	}
	// The relevant item is first in a quarter of the orders: 100 of 400, sd 8.7.
	if tops < 60 || tops > 140 {
		t.Fatalf("the relevant item came first %d times in 400, want about 100", tops)
	}
}
