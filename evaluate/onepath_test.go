package evaluate

import (
	"github.com/rankmetrics/rankmetrics/measure"
	"math"
	"slices"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

// planOf returns the plan of measures (names for ParseMeasure) under ties.
func planOf(t *testing.T, d metric.DType, ties metric.TiePolicy, names ...string) *Plan {
	t.Helper()
	var ms []Measure
	for _, n := range names {
		m, err := measure.Parse(n)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType, cfg.Ties, cfg.Ragged = d, ties, true
	p, err := NewPlan(ms, PlanOptions{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlanOneSuite checks how a plan groups its TF-Ranking measures: one
// Suite for all of them, map and map@K counting the missed relevant
// documents, under every tie policy but Random; under Random, map and
// map@K alone each (their own draws, as MeanAveragePrecision's), the
// others together; the family's MAP of the tfranking convention never
// with map (it must not count the missed documents), that of the treceval
// convention on its own lists; trec_eval's measures in no group.
func TestPlanOneSuite(t *testing.T) {
	names := []string{"map", "map@10", "ndcg@5", "mrr", "recall", "P_10", "map@3:minrk"}
	type grp struct {
		specs    []int
		unranked bool
	}
	groups := func(p *Plan) []grp {
		var out []grp
		for _, g := range p.groups {
			out = append(out, grp{g.specs, g.unranked})
		}
		return out
	}
	for _, ties := range []metric.TiePolicy{metric.Stable, metric.Pessimistic, metric.Optimistic, metric.Expected} {
		got := groups(planOf(t, metric.Float32, ties, names...))
		if want := []grp{{[]int{0, 1, 2, 3, 4, 6}, true}}; !slices.EqualFunc(got, want, func(a, b grp) bool { return slices.Equal(a.specs, b.specs) && a.unranked == b.unranked }) {
			t.Errorf("%s: groups %v, want %v", ties, got, want)
		}
	}
	eq := func(a, b grp) bool { return slices.Equal(a.specs, b.specs) && a.unranked == b.unranked }
	got := groups(planOf(t, metric.Float32, metric.Random, names...))
	if want := []grp{{[]int{0}, true}, {[]int{1}, true}, {[]int{2, 3, 4, 6}, false}}; !slices.EqualFunc(got, want, eq) {
		t.Errorf("random: groups %v, want %v", got, want)
	}
	got = groups(planOf(t, metric.Float64, metric.Stable, "map:tfranking", "mrr", "map", "map@2:treceval", "map@2"))
	if want := []grp{{[]int{0, 1}, false}, {[]int{2, 4}, true}, {[]int{3}, false}}; !slices.EqualFunc(got, want, eq) {
		t.Errorf("conventions: groups %v, want %v", got, want)
	}
}

// TestPlanOnePathByHand evaluates the TREC fixture (see evaluate_test.go)
// under each tie policy, in both dtypes, by hand. q1 ranks d1 (label 1),
// d2 (0), d3 (2); q2 ranks d4 (unjudged), d5 (1) and misses d9 (1).
//
//	map:     q1 (1 + 2/3)/2 = 5/6; q2 (1/2)/2 = 1/4 (d9 counts)
//	map@1:   q1 1/2;               q2 0
//	ndcg@2:  q1 1/(3 + 1/log2 3);  q2 (1/log2 3)/1 (the ranked list)
//	recall:  q1 1;                 q2 1 (the ranked list)
//	mrr:     q1 1;                 q2 1/2
//	map:tfranking: q1 5/6;         q2 1/2 (the ranked list)
//
// Every list weighs 1, so each mean is the mean of the two queries; map
// alone gives the same values as map among the others.
func TestPlanOnePathByHand(t *testing.T) {
	l3 := 1 / math.Log2(3)
	names := []string{"map", "map@1", "ndcg@2", "recall", "mrr", "map:tfranking"}
	want := map[string][]float64{
		"q1": {5.0 / 6, 0.5, 1 / (3 + l3), 1, 1, 5.0 / 6},
		"q2": {0.25, 0, l3, 1, 0.5, 0.5},
	}
	for _, dt := range []string{"float32", "float64"} {
		tol := 1e-15
		if dt == "float32" {
			tol = 1e-7
		}
		for _, ties := range []string{"random", "stable", "pessimistic", "expected"} {
			for _, list := range [][]string{names, {"map"}, {"map@1", "recall"}} {
				o := options(t, dt, ties, list...)
				res, pq := run(t, trecReader(t, fixtureQrels, fixtureRun), o)
				for m, name := range list {
					k := slices.Index(names, name)
					for q, w := range want {
						if got := pq.values[q][m]; math.Abs(got-w[k]) > tol {
							t.Errorf("%s %s %v: %s %s = %v, want %v", dt, ties, list, q, name, got, w[k])
						}
					}
					if mean := (want["q1"][k] + want["q2"][k]) / 2; math.Abs(res.Values[m]-mean) > tol {
						t.Errorf("%s %s %v: %s = %v, want %v", dt, ties, list, name, res.Values[m], mean)
					}
				}
			}
		}
	}
}

// TestPlanSharedSuiteEqualsAlone checks, on random TREC queries with ties
// and missed relevant documents, that every measure of a plan computed
// together gives per query and overall, bit for bit, what a plan of that
// measure alone gives (map alone runs MeanAveragePrecision's kernel), in
// batches of 7 queries, under every tie policy (Random included: map and
// map@K draw their own tie orders).
func TestPlanSharedSuiteEqualsAlone(t *testing.T) {
	qrels, runText, _ := randomTREC(17, 60, 5)
	qs := planQueries(t, qrels, runText)
	names := []string{"map", "map@5", "ndcg@5", "mrr", "recall@10", "map@5:minrk", "map@2"}
	for _, d := range []metric.DType{metric.Float32, metric.Float64} {
		for _, ties := range []metric.TiePolicy{metric.Random, metric.Stable, metric.Pessimistic, metric.Expected} {
			evalPlan := func(p *Plan) ([][]float64, []float64) {
				per := make([][]float64, len(p.Measures()))
				b := p.NewBatch()
				tt, err := p.NewTotals()
				if err != nil {
					t.Fatal(err)
				}
				for lo := 0; lo < len(qs); lo += 7 {
					b.Reset()
					for i := lo; i < min(lo+7, len(qs)); i++ {
						if err := b.Add(&qs[i]); err != nil {
							t.Fatal(err)
						}
					}
					if err := b.Compute(batchSeed(9, lo)); err != nil {
						t.Fatal(err)
					}
					for m := range per {
						for i := range b.Len() {
							per[m] = append(per[m], b.Value(m, i), b.Weight(m, i))
						}
					}
					if err := tt.Add(b); err != nil {
						t.Fatal(err)
					}
				}
				return per, tt.Values()
			}
			all, allTot := evalPlan(planOf(t, d, ties, names...))
			for m, n := range names {
				one, oneTot := evalPlan(planOf(t, d, ties, n))
				if !slices.Equal(all[m], one[0]) || allTot[m] != oneTot[0] {
					t.Errorf("%s %s %s: together %v (%v), alone %v (%v)", d, ties, n, allTot[m], all[m][:6], oneTot[0], one[0][:6])
				}
			}
		}
	}
}

// TestBatchUnrankedAllocs checks that a steady-state batch of TREC
// queries with missed relevant documents allocates nothing: under Stable
// ties map, map@5 and ndcg@5 share one Suite; under Random map and map@5
// have one each, reseeded for every update.
func TestBatchUnrankedAllocs(t *testing.T) {
	qrels, runText, _ := randomTREC(23, 40, 5)
	qs := planQueries(t, qrels, runText)
	for _, tc := range []struct {
		ties   metric.TiePolicy
		groups int
	}{{metric.Stable, 1}, {metric.Random, 3}} {
		cfg := metric.DefaultConfig(metric.KindMAP)
		cfg.Ties, cfg.Ragged, cfg.Accumulation = tc.ties, true, metric.Exact
		p, err := NewPlan([]Measure{measure.MAP(), measure.MAPAt(5), {Name: "ndcg@5", TopN: 5, Family: &metric.Config{Kind: metric.KindNDCG, TopN: 5}}}, PlanOptions{Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.groups) != tc.groups {
			t.Fatalf("%s: %d groups, want %d", tc.ties, len(p.groups), tc.groups)
		}
		b := p.NewBatch()
		tt, _ := p.NewTotals()
		step := func() {
			for lo := 0; lo < len(qs); lo += 8 {
				b.Reset()
				for i := lo; i < min(lo+8, len(qs)); i++ {
					if err := b.Add(&qs[i]); err != nil {
						t.Fatal(err)
					}
				}
				if err := b.Compute(batchSeed(4, lo)); err != nil {
					t.Fatal(err)
				}
				if err := tt.Add(b); err != nil {
					t.Fatal(err)
				}
			}
		}
		step()
		if !b.anyUnranked {
			t.Fatal("no missed relevant document")
		}
		if n := testing.AllocsPerRun(5, step); n > 0 {
			t.Errorf("%s: %v allocations per pass", tc.ties, n)
		}
	}
}
