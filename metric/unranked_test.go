package metric

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestSuiteUnrankedEqualsMetricsAlone checks Suite.UpdateUnranked against
// the metrics made alone, bit for bit, per list and in total, under every
// tie policy but Random: each MAP of the TFRanking convention whose empty
// lists score 0 gives what MeanAveragePrecision.UpdateUnranked gives with
// the same counts, and every other metric what its UpdatePerList gives
// without them.
func TestSuiteUnrankedEqualsMetricsAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 11))
	checked := 0
	for _, d := range []DType{Float32, Float64} {
		for _, ties := range []TiePolicy{Stable, Pessimistic, Optimistic, Expected} {
			for ci, tc := range randomBatches(80, 37) {
				if tc.weights != nil {
					continue // unranked counts take no per-item weights
				}
				var sets []Config
				specs := append(famTestSpecs(t, tc.topn), DefaultConfig(KindMAP))
				specs[len(specs)-1].TopN = 2
				for i, s := range specs {
					if s.Relevance != 0 || ties == Expected && s.Convention == RetrievedRelevant {
						continue // another threshold ranks apart; no expectation
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
				unranked := make([]int, labels.Len())
				for b := range unranked {
					unranked[b] = max(0, rng.IntN(5)-1)
				}
				got := make([]PerList, len(sets))
				serr := suite.UpdateUnranked(got, labels, preds, w, unranked)
				failed := 0
				for j, s := range sets {
					m, err := New(s)
					if err != nil {
						t.Fatal(err)
					}
					var want PerList
					if countsUnranked(&s) {
						err = m.(*MeanAveragePrecision).UpdateUnranked(&want, labels, preds, w, unranked)
					} else {
						err = m.UpdatePerList(&want, labels, preds, w)
					}
					if err != nil {
						failed++
						continue
					}
					if serr != nil {
						continue
					}
					for b := range want.Values {
						if !sameBits(got[j].Values[b], want.Values[b]) || !sameBits(got[j].Weights[b], want.Weights[b]) {
							t.Fatalf("%s %s case %d %s list %d (unranked %d): suite (%v, %v), alone (%v, %v)", d, ties, ci, s.Name, b, unranked[b],
								got[j].Values[b], got[j].Weights[b], want.Values[b], want.Weights[b])
						}
					}
					if r, _ := suite.Result(s.Name); !sameBits(r, m.Result()) {
						t.Fatalf("%s %s case %d %s: suite result %v, alone %v", d, ties, ci, s.Name, r, m.Result())
					}
					checked++
				}
				if (serr != nil) != (failed > 0) {
					t.Fatalf("%s %s case %d: suite error %v, %d metrics fail alone", d, ties, ci, serr, failed)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no case checked")
	}
}

// TestSuiteUnrankedByHand checks a suite of map, map@1 and recall on two
// lists, by hand. List 0 ranks relevant items 1st and 3rd and misses one:
// map (1 + 2/3)/3 = 5/9, map@1 1/3. List 1 ranks its relevant item 2nd and
// misses two: map (1/2)/3 = 1/6, map@1 0. Recall reads the ranked lists
// alone: 1 for both. Every list weighs 1.
func TestSuiteUnrankedByHand(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 1}, {0, 1, 0}}, false, false)
	preds := lists(t, [][]float64{{3, 2, 1}, {3, 2, 1}}, false, false)
	for _, d := range []DType{Float32, Float64} {
		s, err := NewSuite([]string{"map", "map@1", "recall"}, WithDType(d), WithTies(Stable))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]PerList, 3)
		if err := s.UpdateUnranked(got, labels, preds, tensor.Weights{}, []int{1, 2}); err != nil {
			t.Fatal(err)
		}
		want := [][]float64{{5.0 / 9, 1.0 / 6}, {1.0 / 3, 0}, {1, 1}}
		for j := range want {
			for b, v := range want[j] {
				if x := got[j].Values[b]; math.Abs(x-v) > 1e-6 || got[j].Weights[b] != 1 {
					t.Errorf("%s metric %d list %d: (%v, %v), want (%v, 1)", d, j, b, x, got[j].Weights[b], v)
				}
			}
		}
	}
}

func TestSuiteUnrankedErrors(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 1}}, false, false)
	preds := lists(t, [][]float64{{3, 2, 1}}, false, false)
	for _, tc := range []struct {
		names []string
		opts  []Option
		text  string
	}{
		{[]string{"ndcg", "mrr"}, []Option{WithTies(Stable)}, "counted by MAP of the tfranking convention alone"},
		{[]string{"map", "ndcg"}, nil, "under random ties only a MAP made alone"},
	} {
		s, err := NewSuite(tc.names, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		err = s.UpdateUnranked(nil, labels, preds, tensor.Weights{}, []int{1})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%v: error %v, want %q", tc.names, err, tc.text)
		}
		if err := s.UpdateUnranked(nil, labels, preds, tensor.Weights{}, nil); err != nil {
			t.Errorf("%v: nil unranked: %v", tc.names, err)
		}
	}
	// A suite of map alone takes counts under Random, drawing as
	// MeanAveragePrecision does.
	s, _ := NewSuite([]string{"map"}, WithSeed(3))
	m, _ := NewMeanAveragePrecision(WithSeed(3))
	tied := lists(t, [][]float64{{1, 1, 1, 1}, {1, 1, 1, 1}}, false, false)
	lab := lists(t, [][]float64{{1, 0, 1, 0}, {0, 1, 0, 1}}, false, false)
	for range 5 {
		got, want := make([]PerList, 1), PerList{}
		if err := s.UpdateUnranked(got, lab, tied, tensor.Weights{}, []int{1, 0}); err != nil {
			t.Fatal(err)
		}
		if err := m.UpdateUnranked(&want, lab, tied, tensor.Weights{}, []int{1, 0}); err != nil {
			t.Fatal(err)
		}
		for b := range want.Values {
			if !sameBits(got[0].Values[b], want.Values[b]) {
				t.Fatalf("list %d: suite %v, MeanAveragePrecision %v", b, got[0].Values[b], want.Values[b])
			}
		}
	}
}

// TestSuiteUnrankedAllocs checks that a steady-state update with unranked
// counts allocates nothing.
func TestSuiteUnrankedAllocs(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 1, 0, 2}, {0, 1, 0, 0, 1}}, true, true)
	preds := lists(t, [][]float64{{3, 2, 1, 2, 5}, {3, 2, 1, 1, 0}}, true, true)
	s, err := NewSuite([]string{"map", "map@2", "ndcg@3", "mrr"}, WithTies(Stable), WithRagged(true))
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]PerList, 4)
	unranked := []int{1, 2}
	step := func() {
		if err := s.UpdateUnranked(dst, labels, preds, tensor.Weights{}, unranked); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if n := testing.AllocsPerRun(20, step); n > 0 {
		t.Errorf("%v allocations per update", n)
	}
}

// TestSuiteReseed checks that a used suite, reset and reseeded, draws as a
// new suite of that seed under Random ties.
func TestSuiteReseed(t *testing.T) {
	labels := lists(t, [][]float64{{1, 0, 1, 0, 2, 0}, {0, 1, 0, 1, 0, 1}}, false, false)
	preds := lists(t, [][]float64{{1, 1, 1, 1, 1, 1}, {2, 2, 2, 1, 1, 1}}, false, false)
	names := []string{"map", "ndcg@3", "mrr"}
	run := func(s *Suite) [][]float64 {
		var out [][]float64
		for range 10 {
			pl := make([]PerList, len(names))
			if err := s.UpdatePerList(pl, labels, preds, tensor.Weights{}); err != nil {
				t.Fatal(err)
			}
			for _, p := range pl {
				out = append(out, p.Values)
			}
		}
		return out
	}
	fresh, _ := NewSuite(names, WithSeed(77))
	used, _ := NewSuite(names, WithSeed(1))
	run(used)
	used.Reset()
	used.Reseed(77)
	a, b := run(fresh), run(used)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("update %d: reseeded %v, fresh %v", i, b[i], a[i])
		}
	}
	if used.Configs()[2].Seed != 77 {
		t.Errorf("seed %d after Reseed(77)", used.Configs()[2].Seed)
	}
}
